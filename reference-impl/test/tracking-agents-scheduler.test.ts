// The scheduler on the shared Clock: a simulated week sees exactly the
// expected cycles; the demo override cycles every N seconds; slot arithmetic
// holds for any schedule and instant (fast-check, seed printed).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nextSlot } from "../src/domain/tracking-agents/schedule.ts";
import { createDataset, makeApp, promptRun, runToCompletion, type TestApp } from "./helpers.ts";

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`tracking-agents scheduler properties: fast-check seed ${SEED} (rerun with FC_SEED=${SEED})`);

const DAY = 86_400_000;
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;

async function agentOn(t: TestApp, schedule: unknown): Promise<{ ds: string; id: string }> {
  const ds = await createDataset(t, "Week");
  await runToCompletion(t, ds, promptRun("oat milk", 20, { content_analysis_actions: ["sentiment"] }));
  const res = await t.call("POST", "/v1/tracking_agents", {
    body: { name: "Weekly watch", instructions: "watch", dataset_ids: [ds], count: 20, schedule },
  });
  expect(res.status).toBe(201);
  return { ds, id: res.json.data.id };
}

function feed(t: TestApp, agentId: string) {
  return t.services.trackingAgents.tables.messages.childrenOf("acc_demoA", "byAgent", agentId);
}

describe("scheduler over a simulated week", () => {
  it("a daily 10:00 agent cycles seven times, at 10:00 UTC each day, each cycle a dataset run", async () => {
    const t = makeApp();
    const { ds, id } = await agentOn(t, { frequency: "daily", time: "10:00" });
    const start = t.clock.now();
    await t.clock.advance(7 * DAY);
    const messages = feed(t, id);
    expect(messages).toHaveLength(7);
    const runs = t.services.trackingAgents.tables.runs.childrenOf("acc_demoA", "byAgent", id);
    expect(runs).toHaveLength(7);
    for (const r of runs) {
      expect(new Date(r.created_ms).getUTCHours()).toBe(10);
      expect(new Date(r.created_ms).getUTCMinutes()).toBe(0);
      expect(r.status.type).toBe("completed");
      expect(r.origin).toBe("schedule");
    }
    // One seeding run plus one per cycle.
    const list = await t.call("GET", `/v1/datasets/${ds}/runs?limit=100`);
    expect(list.json.data).toHaveLength(8);
    const agent = (await t.call("GET", `/v1/tracking_agents/${id}`)).json.data;
    expect(agent.last_run_at).toBe(Math.floor(runs[6]!.created_ms / 1000));
    expect(agent.next_run_at * 1000).toBe(runs[6]!.created_ms + DAY);
    expect(agent.next_run_at * 1000).toBeGreaterThan(start + 7 * DAY - DAY);
  });

  it("a weekly agent cycles once a week on its day", async () => {
    const t = makeApp();
    const { id } = await agentOn(t, { frequency: "weekly", day: "thursday", time: "18:45" });
    await t.clock.advance(14 * DAY);
    const runs = t.services.trackingAgents.tables.runs.childrenOf("acc_demoA", "byAgent", id);
    expect(runs).toHaveLength(2);
    for (const r of runs) {
      const d = new Date(r.created_ms);
      expect([d.getUTCDay(), d.getUTCHours(), d.getUTCMinutes()]).toEqual([4, 18, 45]);
    }
  });

  it("a paused week has no cycles, and a schedule change takes effect from the next slot", async () => {
    const t = makeApp();
    const { id } = await agentOn(t, { frequency: "daily", time: "10:00" });
    await t.call("POST", `/v1/tracking_agents/${id}/pause`);
    await t.clock.advance(7 * DAY);
    expect(feed(t, id)).toHaveLength(0);
    await t.call("POST", `/v1/tracking_agents/${id}/resume`);
    await t.call("PATCH", `/v1/tracking_agents/${id}`, {
      body: { schedule: { frequency: "weekly", day: "sunday", time: "00:00" } },
    });
    await t.clock.advance(7 * DAY);
    expect(feed(t, id)).toHaveLength(1);
  });

  it("AGENT_CYCLE_SECONDS makes every agent cycle every N seconds of clock time", async () => {
    const t = makeApp({ agentCycleSeconds: 60 });
    const { id } = await agentOn(t, { frequency: "weekly", day: "sunday", time: "00:00" });
    const created = (await t.call("GET", `/v1/tracking_agents/${id}`)).json.data;
    expect(created.next_run_at - created.created_at).toBe(60);
    // Ten more seconds let the fifth cycle's dataset run finish and write its alert.
    await t.clock.advance(5 * 60_000 + 10_000);
    expect(feed(t, id)).toHaveLength(5);
  });

  it("a scheduled slot the balance cannot fund writes a 'skipped' alert and charges nothing", async () => {
    const t = makeApp();
    const { id } = await agentOn(t, { frequency: "daily", time: "10:00" });
    const { money } = await import("../src/platform/billing/money.ts");
    t.ledger.open("acc_demoA", "pro", money("0.01"));
    await t.clock.advance(DAY);
    const [m] = feed(t, id);
    expect(m!.short_preview_message).toMatch(/^Scheduled cycle skipped: the balance/);
    expect(m!.new_mention_count).toBe(0);
    expect(t.ledger.balance("acc_demoA").toString()).toBe("0.01");
    expect(t.services.trackingAgents.tables.runs.childrenOf("acc_demoA", "byAgent", id)).toHaveLength(0);
  });
});

describe("slot arithmetic (property)", () => {
  it("the next slot is the first matching instant strictly after `after`", () => {
    const schedule = fc.oneof(
      fc.record({ frequency: fc.constant("daily" as const), time: fc.tuple(fc.nat(23), fc.nat(59)) }),
      fc.record({
        frequency: fc.constant("weekly" as const),
        day: fc.constantFrom(...WEEKDAYS),
        time: fc.tuple(fc.nat(23), fc.nat(59)),
      }),
    );
    fc.assert(
      fc.property(schedule, fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) }), (s, after) => {
        const time = `${String(s.time[0]).padStart(2, "0")}:${String(s.time[1]).padStart(2, "0")}`;
        const sched =
          s.frequency === "daily"
            ? { frequency: "daily" as const, time }
            : { frequency: "weekly" as const, day: s.day, time };
        const slot = nextSlot(sched, after);
        const period = s.frequency === "daily" ? DAY : 7 * DAY;
        expect(slot).toBeGreaterThan(after);
        expect(slot - after).toBeLessThanOrEqual(period);
        const d = new Date(slot);
        expect([d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()]).toEqual([
          s.time[0],
          s.time[1],
          0,
          0,
        ]);
        if (s.frequency === "weekly") expect(WEEKDAYS[d.getUTCDay()]).toBe(s.day);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
