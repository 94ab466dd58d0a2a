// What alerts say in the cases that are not "new posts found": a pattern
// reference when the cycle's posts belong to a detected pattern, a failed
// cycle, and a cycle that found nothing new.
import { describe, expect, it } from "vitest";
import { createDataset, makeApp, promptRun, runToCompletion, type TestApp } from "./helpers.ts";

async function trigger(t: TestApp, agentId: string) {
  const res = await t.call("POST", `/v1/tracking_agents/${agentId}/trigger`);
  expect(res.status, res.text).toBe(202);
  // A few 300 ms pipeline steps; stays far from the 10:00 slot.
  await t.clock.advance(10_000);
  return res.json.data;
}

async function agent(t: TestApp, datasetId: string, count = 40) {
  const res = await t.call("POST", "/v1/tracking_agents", {
    body: {
      name: "Alerts",
      instructions: "watch",
      dataset_ids: [datasetId],
      count,
      schedule: { frequency: "daily", time: "10:00" },
    },
  });
  return res.json.data.id as string;
}

describe("tracking agent alerts", () => {
  it("carry a pattern reference when the cycle's posts belong to a detected pattern", async () => {
    const t = makeApp();
    const ds = await createDataset(t, "Oat milk");
    await runToCompletion(
      t,
      ds,
      promptRun("oat milk barista", 40, { content_analysis_actions: ["sentiment", "topics"] }),
    );
    const det = await t.call("POST", "/v1/pattern_detections", {
      body: { dataset_id: ds, name: "Why", research_question: "What do buyers praise?" },
    });
    expect(det.status).toBeLessThan(300);
    await t.clock.runAll();
    const run = (await t.call("GET", `/v1/pattern_detections/${det.json.data.run_id}`)).json.data;
    expect(run.status.type).toBe("completed");
    const id = await agent(t, ds, 40);
    await trigger(t, id);
    const [m] = (await t.call("GET", `/v1/tracking_agents/${id}/messages`)).json.data;
    expect(m.references).toContainEqual({ type: "pattern", id: run.pattern_id });
    expect(m.references.findIndex((r: { type: string }) => r.type === "pattern")).toBeLessThan(
      m.references.findIndex((r: { type: string }) => r.type === "dataset"),
    );
    expect(m.text).toMatch(/belong to the detected pattern \*\*/);
  });

  it("a cycle whose dataset runs all fail is failed, refunds everything and says so", async () => {
    const t = makeApp();
    const ds = await createDataset(t, "Broken links");
    // The dataset's latest query: URLs the provider cannot retrieve, so every repeat fails.
    const res = await t.call("POST", `/v1/datasets/${ds}/runs`, {
      body: {
        search_query: { type: "url", source_urls: [{ source: "reddit", url: "https://example.com/not-reddit" }] },
        count: 20,
      },
    });
    expect(res.status).toBe(202);
    await t.clock.advance(10_000);
    const id = await agent(t, ds, 20);
    const balance = t.ledger.balance("acc_demoA").toString();
    const run = await trigger(t, id);
    expect(t.services.trackingAgents.tables.runs.get("acc_demoA", run.id)!.status.type).toBe("failed");
    expect(t.ledger.balance("acc_demoA").toString()).toBe(balance);
    const [m] = (await t.call("GET", `/v1/tracking_agents/${id}/messages`)).json.data;
    expect(m).toMatchObject({
      new_mention_count: 0,
      comment_count: 0,
      sentiment_score: 0,
      short_preview_message: "The cycle failed; no new mentions were collected.",
    });
    expect(m.text).toContain(ds);
    // The cycle is over: a new trigger is accepted again.
    expect((await t.call("POST", `/v1/tracking_agents/${id}/trigger`)).status).toBe(202);
  });

  it("a cycle that finds nothing new still writes its alert", async () => {
    const t = makeApp();
    const ds = await createDataset(t, "Same posts");
    await runToCompletion(t, ds, promptRun("oat milk", 40, { content_analysis_actions: ["sentiment"] }));
    const id = await agent(t, ds, 40);
    await trigger(t, id);
    const [m] = (await t.call("GET", `/v1/tracking_agents/${id}/messages`)).json.data;
    expect(m).toMatchObject({ new_mention_count: 0, short_preview_message: "No new mentions since the last cycle." });
    expect(m.references).toEqual([{ type: "dataset", id: ds }]);
  });
});
