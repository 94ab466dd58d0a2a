// Tracking agents through app.request() on a ManualClock: CRUD, plan cap,
// PATCH, soft delete, pause/resume, trigger and its errors, the alert feed.
import { beforeEach, describe, expect, it } from "vitest";
import { money } from "../src/platform/billing/money.ts";
import { createDataset, KEYS, makeApp, promptRun, runToCompletion, type TestApp } from "./helpers.ts";

const DAILY = { frequency: "daily", time: "10:00" } as const;
// The ManualClock starts on Monday 2026-11-02 09:00 UTC.
const START_S = Date.UTC(2026, 10, 2, 9, 0, 0) / 1000;

function agentBody(datasetIds: string[], extra: Record<string, unknown> = {}) {
  return {
    name: "Oat milk watch",
    instructions: "Report sentiment shifts.",
    dataset_ids: datasetIds,
    schedule: DAILY,
    ...extra,
  };
}

async function seeded(t: TestApp, key = KEYS.aOwner): Promise<string> {
  const ds = await createDataset(t, "Oat milk", key);
  await runToCompletion(
    t,
    ds,
    promptRun("oat milk barista", 40, { content_analysis_actions: ["sentiment", "topics", "mentioned_brands"] }),
    key,
  );
  return ds;
}

async function createAgent(t: TestApp, body: unknown, key = KEYS.aOwner) {
  const res = await t.call("POST", "/v1/tracking_agents", { body, key });
  expect(res.status, res.text).toBe(201);
  return res.json.data;
}

describe("tracking agents: CRUD", () => {
  let t: TestApp;
  let ds: string;
  beforeEach(async () => {
    t = makeApp();
    ds = await createDataset(t, "Empty");
  });

  it("creates with the decided defaults and the next daily slot", async () => {
    const a = await createAgent(t, agentBody([ds], { integration_ids: ["int_slack_6Tq2"] }));
    expect(a).toMatchObject({
      name: "Oat milk watch",
      dataset_ids: [ds],
      integrations: [{ id: "int_slack_6Tq2", type: "slack" }],
      count: 200,
      num_comments_per_post: 10,
      paused: false,
      last_run_at: null,
      next_run_at: START_S + 3600, // today 10:00 UTC
    });
    expect(a.id).toMatch(/^ta_/);
    const weekly = await createAgent(
      t,
      agentBody([ds], { schedule: { frequency: "weekly", day: "monday", time: "08:00" } }),
    );
    expect(weekly.next_run_at).toBe(START_S - 3600 + 7 * 86400); // next Monday 08:00
  });

  it("answers 404 for unknown datasets and integrations, 422 for bad schedules", async () => {
    const unknownDs = await t.call("POST", "/v1/tracking_agents", { body: agentBody(["ds_nope"]) });
    expect(unknownDs.status).toBe(404);
    expect(unknownDs.json.error_code).toBe("dataset_not_found");
    const foreign = await t.call("POST", "/v1/tracking_agents", { body: agentBody([ds]), key: KEYS.bOwner });
    expect(foreign.json.error_code).toBe("dataset_not_found");
    const unknownInt = await t.call("POST", "/v1/tracking_agents", {
      body: agentBody([ds], { integration_ids: ["int_webhook_9Kd3"] }),
    });
    expect(unknownInt.status).toBe(404);
    expect(unknownInt.json.error_code).toBe("not_found");
    for (const schedule of [
      { frequency: "daily", time: "25:99" },
      { frequency: "weekly", time: "08:00" },
      { frequency: "hourly", time: "08:00" },
    ]) {
      const bad = await t.call("POST", "/v1/tracking_agents", { body: agentBody([ds], { schedule }) });
      expect(bad.status).toBe(422);
      expect(bad.json.detail[0].loc[0]).toBe("body");
    }
    expect((await t.call("GET", "/v1/tracking_agents")).json.data).toEqual([]);
  });

  it("refuses the agent beyond the plan cap with 409 and counts only live agents", async () => {
    const cap = (await t.call("GET", "/v1/me")).json.data.plan.limits.tracking_agents as number;
    const ids: string[] = [];
    for (let i = 0; i < cap; i++) ids.push((await createAgent(t, agentBody([ds]))).id);
    const over = await t.call("POST", "/v1/tracking_agents", { body: agentBody([ds]) });
    expect(over.status).toBe(409);
    expect(over.json).toMatchObject({ error_code: "tracking_agent_limit_reached", transient: false });
    expect((await t.call("DELETE", `/v1/tracking_agents/${ids[0]}`)).status).toBe(204);
    await createAgent(t, agentBody([ds]));
  });

  it("lists newest first with cursors, rejects a bad cursor, hides other accounts", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await createAgent(t, agentBody([ds], { name: `a${i}` }))).id);
      await t.clock.advance(1000);
    }
    const p1 = await t.call("GET", "/v1/tracking_agents?limit=2");
    expect(p1.json.data.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]]);
    expect(p1.json.has_next).toBe(true);
    const p2 = await t.call("GET", `/v1/tracking_agents?limit=2&cursor=${p1.json.cursor}`);
    expect(p2.json.data.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
    expect(p2.json).toMatchObject({ has_next: false, cursor: null });
    const bad = await t.call("GET", "/v1/tracking_agents?cursor=not-a-cursor");
    expect(bad.status).toBe(400);
    expect(bad.json.error_code).toBe("invalid_cursor");
    expect((await t.call("GET", `/v1/tracking_agents/${ids[0]}`, { key: KEYS.bOwner })).status).toBe(404);
    expect((await t.call("GET", "/v1/tracking_agents", { key: KEYS.bOwner })).json.data).toEqual([]);
  });

  it("PATCH: empty body is a no-op, fields replace, a schedule change moves next_run_at", async () => {
    const a = await createAgent(t, agentBody([ds]));
    await t.clock.advance(5000);
    const same = await t.call("PATCH", `/v1/tracking_agents/${a.id}`, { body: {} });
    expect(same.json.data).toEqual(a);
    const ds2 = await createDataset(t, "Second");
    const upd = await t.call("PATCH", `/v1/tracking_agents/${a.id}`, {
      body: { name: "Renamed", dataset_ids: [ds2], count: 50, schedule: { frequency: "daily", time: "08:30" } },
    });
    expect(upd.status).toBe(200);
    expect(upd.json.data).toMatchObject({
      name: "Renamed",
      dataset_ids: [ds2],
      count: 50,
      instructions: a.instructions,
    });
    expect(upd.json.data.next_run_at).toBe(START_S - 1800 + 86400); // 08:30 tomorrow
    expect(upd.json.data.updated_at).toBeGreaterThan(a.updated_at);
    const bad = await t.call("PATCH", `/v1/tracking_agents/${a.id}`, {
      body: { name: "x", dataset_ids: ["ds_missing"] },
    });
    expect(bad.json.error_code).toBe("dataset_not_found");
    expect((await t.call("GET", `/v1/tracking_agents/${a.id}`)).json.data.name).toBe("Renamed");
    expect((await t.call("PATCH", "/v1/tracking_agents/ta_missing", { body: {} })).json.error_code).toBe("not_found");
  });

  it("pause and resume answer 204, are idempotent, and clear then recompute next_run_at", async () => {
    const a = await createAgent(t, agentBody([ds]));
    for (let i = 0; i < 2; i++) expect((await t.call("POST", `/v1/tracking_agents/${a.id}/pause`)).status).toBe(204);
    const paused = (await t.call("GET", `/v1/tracking_agents/${a.id}`)).json.data;
    expect(paused).toMatchObject({ paused: true, next_run_at: null });
    // A paused agent does not cycle.
    await t.clock.advance(3 * 86_400_000);
    expect((await t.call("GET", `/v1/tracking_agents/${a.id}/messages`)).json.data).toEqual([]);
    for (let i = 0; i < 2; i++) expect((await t.call("POST", `/v1/tracking_agents/${a.id}/resume`)).status).toBe(204);
    const resumed = (await t.call("GET", `/v1/tracking_agents/${a.id}`)).json.data;
    expect(resumed.paused).toBe(false);
    expect(resumed.next_run_at).toBe(START_S + 3600 + 3 * 86400);
    expect((await t.call("POST", "/v1/tracking_agents/ta_missing/pause")).status).toBe(404);
  });

  it("soft delete hides the agent and its feed and stops its schedule", async () => {
    const a = await createAgent(t, agentBody([ds]));
    expect((await t.call("DELETE", `/v1/tracking_agents/${a.id}`)).status).toBe(204);
    for (const [m, p] of [
      ["GET", ""],
      ["GET", "/messages"],
      ["POST", "/trigger"],
      ["POST", "/pause"],
      ["DELETE", ""],
    ] as const) {
      const res = await t.call(m, `/v1/tracking_agents/${a.id}${p}`);
      expect(res.status, `${m} ${p}`).toBe(404);
      expect(res.json.error_code).toBe("not_found");
    }
    await t.clock.advance(2 * 86_400_000);
    expect(t.services.trackingAgents.tables.messages.live("acc_demoA")).toEqual([]);
  });
});

describe("tracking agents: trigger", () => {
  it("400 dataset_has_no_queries when no dataset has a query; nothing created", async () => {
    const t = makeApp();
    const ds = await createDataset(t, "Empty");
    const a = await createAgent(t, agentBody([ds]));
    const res = await t.call("POST", `/v1/tracking_agents/${a.id}/trigger`);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error_code: "dataset_has_no_queries", transient: false });
    expect(t.services.trackingAgents.tables.runs.live("acc_demoA")).toEqual([]);
  });

  it("runs one dataset run per dataset with a query, 409 while in progress, then writes the alert", async () => {
    const t = makeApp();
    const ds = await seeded(t);
    const empty = await createDataset(t, "No runs");
    const a = await createAgent(t, agentBody([ds, empty], { count: 100, num_comments_per_post: 3 }));
    const before = t.ledger.balance("acc_demoA");
    const res = await t.call("POST", `/v1/tracking_agents/${a.id}/trigger`);
    expect(res.status).toBe(202);
    expect(res.json.data).toMatchObject({ agent_id: a.id, status: { type: "in_progress" } });
    expect(res.json.data.id).toMatch(/^tar_/);
    expect(res.json.data.dataset_run_ids).toHaveLength(1); // the empty dataset is skipped
    // The whole cycle is reserved up front: 100 mentions.
    expect(before.sub(t.ledger.balance("acc_demoA")).toString()).toBe(
      t.ledger.quote("acc_demoA", "mention", 100).toString(),
    );
    const again = await t.call("POST", `/v1/tracking_agents/${a.id}/trigger`);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ error_code: "tracking_agent_run_in_progress", transient: false });

    const runId = res.json.data.dataset_run_ids[0];
    const run = await t.call("GET", `/v1/datasets/${ds}/runs/${runId}`);
    expect(run.json.data.params).toMatchObject({ count: 100, num_comments_per_post: 3 });
    expect(run.json.data.params.content_analysis_actions).toContain("sentiment");
    // Ten seconds finish the dataset run (a few 300 ms steps) and stay before the 10:00 slot.
    await t.clock.advance(10_000);
    const done = await t.call("GET", `/v1/datasets/${ds}/runs/${runId}`);
    expect(done.json.data.status.type).toBe("completed");
    const agentRun = t.services.trackingAgents.tables.runs.get("acc_demoA", res.json.data.id)!;
    expect(agentRun.status.type).toBe("completed");

    const feed = await t.call("GET", `/v1/tracking_agents/${a.id}/messages`);
    expect(feed.status).toBe(200);
    const triggered = feed.json.data[feed.json.data.length - 1];
    expect(triggered.new_mention_count).toBe(done.json.data.new_mentions_count);
    expect(triggered.new_mention_count).toBeGreaterThan(0);
    expect(triggered.comment_count).toBeLessThanOrEqual(3 * triggered.new_mention_count);
    expect(typeof triggered.sentiment_score).toBe("number");
    expect(triggered.short_preview_message).toContain(`${triggered.new_mention_count} new mentions`);
    // Citations: markers by first appearance, each slicing exactly, resolving through POST /v1/mentions.
    const posts = triggered.references.filter((r: { type: string }) => r.type === "post");
    expect(posts.length).toBeGreaterThan(0);
    posts.forEach((p: { citation: number; start_index: number; end_index: number }, i: number) => {
      expect(p.citation).toBe(i + 1);
      expect(triggered.text.slice(p.start_index, p.end_index)).toBe(`[${p.citation}]`);
    });
    const resolved = await t.call("POST", "/v1/mentions", {
      body: { post_refs: posts.map((p: { source: string; id: string }) => ({ source: p.source, id: p.id })) },
    });
    expect(resolved.json.data).toHaveLength(posts.length);
    const entities = triggered.references.filter((r: { type: string }) => r.type !== "post");
    expect(entities.length).toBeLessThanOrEqual(3);
    expect(entities).toContainEqual({ type: "dataset", id: ds });
    const agent = (await t.call("GET", `/v1/tracking_agents/${a.id}`)).json.data;
    expect(agent.last_run_at).toBe(res.json.data.created_at);
  });

  it("402 insufficient_credits reserves the whole cycle or nothing", async () => {
    const t = makeApp();
    t.ledger.open("acc_poor", "starter", money("20")); // fund the two seeding runs
    const ds1 = await seeded(t, KEYS.poor);
    const ds2 = await seeded(t, KEYS.poor);
    const a = await createAgent(t, agentBody([ds1, ds2], { count: 60 }), KEYS.poor);
    // Leave enough for one dataset run of the cycle but not both.
    const one = t.ledger.quote("acc_poor", "mention", 60);
    t.ledger.open("acc_poor", "starter", one.add(money("0.01")));
    const res = await t.call("POST", `/v1/tracking_agents/${a.id}/trigger`, { key: KEYS.poor });
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ error_code: "insufficient_credits", transient: false });
    expect(res.json.detail.required).toBe(one.mul(2).toFixed(6));
    expect(t.ledger.balance("acc_poor").toString()).toBe(one.add(money("0.01")).toString());
    expect(t.ledger.held("acc_poor").isZero()).toBe(true);
    expect(t.services.trackingAgents.tables.runs.live("acc_poor")).toEqual([]);
    const runs = await t.call("GET", `/v1/datasets/${ds1}/runs`, { key: KEYS.poor });
    expect(runs.json.data).toHaveLength(1); // only the seeding run
  });

  it("a paused agent can be triggered and stays paused", async () => {
    const t = makeApp();
    const ds = await seeded(t);
    const a = await createAgent(t, agentBody([ds], { count: 20 }));
    await t.call("POST", `/v1/tracking_agents/${a.id}/pause`);
    expect((await t.call("POST", `/v1/tracking_agents/${a.id}/trigger`)).status).toBe(202);
    await t.clock.runAll(40);
    const agent = (await t.call("GET", `/v1/tracking_agents/${a.id}`)).json.data;
    expect(agent).toMatchObject({ paused: true, next_run_at: null });
    expect(agent.last_run_at).not.toBeNull();
    expect((await t.call("GET", `/v1/tracking_agents/${a.id}/messages`)).json.data).toHaveLength(1);
  });

  it("the feed pages newest first and rejects a foreign cursor", async () => {
    const t = makeApp({ agentCycleSeconds: 60 });
    const ds = await seeded(t);
    const a = await createAgent(t, agentBody([ds], { count: 20 }));
    const b = await createAgent(t, agentBody([ds], { count: 20 }));
    await t.clock.advance(5 * 60_000);
    const all = t.services.trackingAgents.tables.messages.childrenOf("acc_demoA", "byAgent", a.id);
    expect(all.length).toBeGreaterThanOrEqual(4);
    const p1 = await t.call("GET", `/v1/tracking_agents/${a.id}/messages?limit=2`);
    expect(p1.json.data.map((m: { created_at: number }) => m.created_at)).toEqual(
      [...p1.json.data.map((m: { created_at: number }) => m.created_at)].sort((x, y) => y - x),
    );
    const seen = [...p1.json.data];
    let cursor = p1.json.cursor;
    for (let i = 0; cursor && i < 10; i++) {
      const next = await t.call("GET", `/v1/tracking_agents/${a.id}/messages?limit=2&cursor=${cursor}`);
      seen.push(...next.json.data);
      cursor = next.json.cursor;
    }
    expect(seen.map((m) => m.message_id)).toEqual([...all].reverse().map((m) => m.id));
    const foreign = await t.call("GET", `/v1/tracking_agents/${b.id}/messages?cursor=${p1.json.cursor}`);
    expect(foreign.status).toBe(400);
    expect(foreign.json.error_code).toBe("invalid_cursor");
  });
});
