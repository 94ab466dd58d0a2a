// Pattern detections and patterns through app.request() on a ManualClock:
// the run's states and steps, what a pattern holds, the mentions'
// pattern_assignments, post_processing billing over the most recent completed
// run, and every 4xx the group answers.
import { describe, expect, it } from "vitest";
import {
  zPatternDetectionsCreateResponse,
  zPatternDetectionsReadResponse,
  zPatternsReadItemResponse,
  zPatternsReadResponse,
} from "../../generated/client/zod.gen.ts";
import { money } from "../src/platform/billing/money.ts";
import { ALL_ACTIONS, createDataset, KEYS, makeApp, promptRun, runToCompletion, type TestApp } from "./helpers.ts";

const PRO_HALF_UNIT = money("0.0178");
const QUESTION = "What do people say about the price and the taste?";

async function datasetWithRun(t: TestApp, query = "oat milk", count = 60, key = KEYS.aOwner) {
  const id = await createDataset(t, `ds ${query}`, key);
  const run = await runToCompletion(t, id, promptRun(query, count, { content_analysis_actions: ALL_ACTIONS }), key);
  return { id, run };
}

async function detect(t: TestApp, datasetId: string, question = QUESTION, key = KEYS.aOwner) {
  const res = await t.call("POST", "/v1/pattern_detections", {
    key,
    body: { dataset_id: datasetId, name: "Why oat milk", research_question: question },
  });
  if (res.status !== 202) throw new Error(`detect: ${res.status} ${res.text}`);
  await t.clock.runAll();
  const run = (await t.call("GET", `/v1/pattern_detections/${res.json.data.run_id}`, { key })).json.data;
  const pattern = run.pattern_id ? (await t.call("GET", `/v1/patterns/${run.pattern_id}`, { key })).json.data : null;
  return { run, pattern };
}

async function mentionsOf(t: TestApp, datasetId: string, key = KEYS.aOwner) {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const res: any = await t.call("POST", "/v1/mentions", {
      key,
      body: { dataset_ids: [datasetId], limit: 100, ...(cursor ? { cursor } : {}) },
    });
    out.push(...res.json.data);
    cursor = res.json.cursor;
  } while (cursor);
  return out;
}

describe("pattern detection runs", () => {
  it("moves pending -> working -> completed, stamping clustering, labeling, assignment in order", async () => {
    const t = makeApp();
    const { id } = await datasetWithRun(t);
    const created = await t.call("POST", "/v1/pattern_detections", {
      body: { dataset_id: id, name: "Why oat milk", research_question: QUESTION },
    });
    expect(created.status).toBe(202);
    zPatternDetectionsCreateResponse.parse(created.json);
    expect(created.json.data).toMatchObject({
      dataset_id: id,
      name: "Why oat milk",
      research_question: QUESTION,
      status: { type: "pending", steps: [] },
    });
    expect(created.json.data).not.toHaveProperty("pattern_id");
    expect(created.json.data.run_id).toMatch(/^pdr_/);
    const runId = created.json.data.run_id;
    const read = async () => (await t.call("GET", `/v1/pattern_detections/${runId}`)).json;
    const seen: string[] = [];
    for (let i = 0; i < 10; i++) {
      await t.clock.advance(300);
      const body = await read();
      zPatternDetectionsReadResponse.parse(body);
      const s = body.data.status;
      seen.push(`${s.type}:${s.steps.map((x: any) => x.name).join(",")}`);
      if (s.type !== "completed") expect(body.data).not.toHaveProperty("pattern_id");
      if (s.type === "completed") break;
    }
    expect(seen).toEqual([
      "working:",
      "working:clustering",
      "working:clustering,labeling",
      "completed:clustering,labeling,assignment",
    ]);
    const done = (await read()).data;
    expect(done.pattern_id).toMatch(/^pt_/);
    for (const step of done.status.steps) expect(Number.isInteger(step.completed_at)).toBe(true);
    expect(done).not.toHaveProperty("status.error_message");
  });

  it("a pattern covers every post of the latest completed run once, items largest first, each with its post_refs", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const { id, run } = await datasetWithRun(t, "oat milk", 80);
    const { pattern } = await detect(t, id);
    zPatternsReadResponse.parse({ status: "success", data: pattern });
    expect(pattern).toMatchObject({ dataset_id: id, name: "Why oat milk", research_question: QUESTION });
    expect(pattern.summary).toContain(`${run.mentions_count} posts`);
    const counts = pattern.items.map((i: any) => i.post_count);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));
    expect(counts.reduce((a: number, b: number) => a + b, 0)).toBe(run.mentions_count);
    expect(pattern.items.length).toBeGreaterThanOrEqual(2);
    const refs: string[] = [];
    for (const item of pattern.items) {
      expect(item.title.length).toBeGreaterThan(0);
      expect(item.synopsis).toContain(`${item.post_count} of ${run.mentions_count} posts`);
      const res = await t.call("GET", `/v1/patterns/${pattern.id}/items/${item.item_id}`);
      expect(res.status).toBe(200);
      zPatternsReadItemResponse.parse(res.json);
      expect(res.json.data).toMatchObject(item);
      expect(res.json.data.post_refs.length).toBe(item.post_count);
      refs.push(...res.json.data.post_refs.map((r: any) => `${r.source}:${r.id}`));
    }
    const runPosts = t.services
      .mentions("acc_demoA")
      .byRun(run.id)
      .map((r) => r.key);
    expect(new Set(refs).size).toBe(refs.length);
    expect(new Set(refs)).toEqual(new Set(runPosts));
  });

  it("fills pattern_assignments on the mentions, keyed by pattern id, agreeing with the item expansions", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const { id } = await datasetWithRun(t, "kombucha", 50);
    const before = await mentionsOf(t, id);
    for (const m of before) expect(m.pattern_assignments).toEqual({});
    const { pattern } = await detect(t, id);
    const itemOf = new Map<string, { id: string; title: string }>();
    for (const item of pattern.items) {
      const detail = (await t.call("GET", `/v1/patterns/${pattern.id}/items/${item.item_id}`)).json.data;
      for (const r of detail.post_refs) itemOf.set(`${r.source}:${r.id}`, { id: item.item_id, title: item.title });
    }
    const after = await mentionsOf(t, id);
    for (const m of after) {
      const list = m.pattern_assignments[pattern.id];
      expect(Object.keys(m.pattern_assignments)).toEqual([pattern.id]);
      expect(list).toHaveLength(1);
      const expected = itemOf.get(`${m.source}:${m.id}`)!;
      expect(list[0]).toMatchObject({ pattern_item_id: expected.id, name: expected.title });
      expect(list[0].confidence).toBeGreaterThanOrEqual(0);
      expect(list[0].confidence).toBeLessThanOrEqual(1);
    }
    // A second detection adds its own key; the first stays.
    const second = await detect(t, id, "Which brands come up?");
    const again = await mentionsOf(t, id);
    for (const m of again)
      expect(Object.keys(m.pattern_assignments).sort()).toEqual([pattern.id, second.pattern.id].sort());
  });

  it("is deterministic for the same posts and question, and the question steers titles and summary", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const { id } = await datasetWithRun(t, "oat milk", 80);
    const a = await detect(t, id);
    const b = await detect(t, id);
    expect(b.pattern.items.map((i: any) => [i.title, i.post_count])).toEqual(
      a.pattern.items.map((i: any) => [i.title, i.post_count]),
    );
    // The question's words lead the titles of the items that use them.
    expect(a.pattern.items.some((i: any) => /^(Price|Taste)\b/.test(i.title))).toBe(true);
    expect(a.pattern.summary).toMatch(
      /use the question's words “price” and “taste”|use the question's words “taste” and “price”/,
    );
    const unrelated = await detect(t, id, "Zeppelins and volcanoes?");
    expect(unrelated.pattern.summary).toContain("None of the question's words recur");
  });
});

describe("pattern detection billing and errors", () => {
  it("reserves 0.5 units per post of the most recent completed run and settles to the posts clustered", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const id = await createDataset(t, "two runs");
    await runToCompletion(t, id, promptRun("oat milk", 60));
    const latest = await runToCompletion(t, id, promptRun("cold brew", 30));
    const before = t.ledger.balance("acc_demoA");
    const res = await t.call("POST", "/v1/pattern_detections", {
      body: { dataset_id: id, name: "n", research_question: "q?" },
    });
    // Reserved up front for the latest run's posts only.
    expect(before.sub(t.ledger.balance("acc_demoA")).eq(PRO_HALF_UNIT.mul(latest.mentions_count))).toBe(true);
    expect(t.ledger.held("acc_demoA").eq(PRO_HALF_UNIT.mul(latest.mentions_count))).toBe(true);
    await t.clock.runAll();
    const run = (await t.call("GET", `/v1/pattern_detections/${res.json.data.run_id}`)).json.data;
    const pattern = (await t.call("GET", `/v1/patterns/${run.pattern_id}`)).json.data;
    expect(pattern.items.reduce((s: number, i: any) => s + i.post_count, 0)).toBe(latest.mentions_count);
    expect(t.ledger.held("acc_demoA").isZero()).toBe(true);
    const history = (await t.call("GET", "/v1/me/usage_history")).json.data;
    expect(history[0].category).toBe("post_processing");
    expect(money(String(history[0].quantity)).eq(PRO_HALF_UNIT.mul(latest.mentions_count))).toBe(true);
    // Reading the run, the pattern and an item is free.
    const balance = t.ledger.balance("acc_demoA");
    await t.call("GET", `/v1/patterns/${run.pattern_id}/items/${pattern.items[0].item_id}`);
    expect(t.ledger.balance("acc_demoA").eq(balance)).toBe(true);
  });

  it("checks 404 dataset, then 400 nothing_to_analyze, then 402; nothing is created or charged on any of them", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const body = (dataset_id: string) => ({ dataset_id, name: "n", research_question: "q?" });
    const foreign = (await datasetWithRun(t, "vinyl", 40, KEYS.bOwner)).id;
    const empty = await createDataset(t, "no runs", KEYS.poor);
    t.ledger.open("acc_poor", "starter", money("5")); // fund the seeding run, then spend down below
    const full = (await datasetWithRun(t, "vinyl", 40, KEYS.poor)).id;
    t.ledger.open("acc_poor", "starter", money("0.01"));
    const cases: [string, number, string][] = [
      ["ds_doesnotexist", 404, "dataset_not_found"],
      [foreign, 404, "dataset_not_found"],
      [empty, 400, "nothing_to_analyze"],
      [full, 402, "insufficient_credits_pattern_detection"],
    ];
    for (const [dataset, status, code] of cases) {
      const res = await t.call("POST", "/v1/pattern_detections", { key: KEYS.poor, body: body(dataset) });
      expect([res.status, res.json.error_code]).toEqual([status, code]);
    }
    const shortfall = await t.call("POST", "/v1/pattern_detections", { key: KEYS.poor, body: body(full) });
    expect(shortfall.json.detail).toEqual({
      message: expect.any(String),
      required: "0.980000",
      available: "0.010000",
      top_up_url: expect.any(String),
    });
    expect(t.services.tables.patternDetections.live("acc_poor")).toEqual([]);
    expect(t.ledger.balance("acc_poor").toFixed(6)).toBe("0.010000");
    // A run still in flight is not "completed": nothing to analyse yet.
    const pendingOnly = await createDataset(t, "pending");
    await t.call("POST", `/v1/datasets/${pendingOnly}/runs`, { body: promptRun("oat milk", 20) });
    expect((await t.call("POST", "/v1/pattern_detections", { body: body(pendingOnly) })).json.error_code).toBe(
      "nothing_to_analyze",
    );
  });

  it("a dataset deleted before clustering fails the run and refunds it in full", async () => {
    const t = makeApp();
    const { id } = await datasetWithRun(t, "oat milk", 40);
    const before = t.ledger.balance("acc_demoA");
    const res = await t.call("POST", "/v1/pattern_detections", {
      body: { dataset_id: id, name: "n", research_question: "q?" },
    });
    expect(t.ledger.balance("acc_demoA").lt(before)).toBe(true);
    expect((await t.call("DELETE", `/v1/datasets/${id}`)).status).toBe(204);
    await t.clock.runAll();
    const run = (await t.call("GET", `/v1/pattern_detections/${res.json.data.run_id}`)).json.data;
    expect(run.status.type).toBe("failed");
    expect(run.status.error_message).toContain("deleted");
    expect(run).not.toHaveProperty("pattern_id");
    expect(t.ledger.balance("acc_demoA").eq(before)).toBe(true);
    expect(t.ledger.held("acc_demoA").isZero()).toBe(true);
  });

  it("404s: unknown or foreign run, pattern and item", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const { id } = await datasetWithRun(t, "oat milk", 30);
    const { run, pattern } = await detect(t, id);
    const cases: [string, string | undefined, number, string][] = [
      [`/v1/pattern_detections/pdr_unknown`, undefined, 404, "pattern_detection_run_not_found"],
      [`/v1/pattern_detections/${run.run_id}`, KEYS.bOwner, 404, "pattern_detection_run_not_found"],
      [`/v1/patterns/pt_unknown`, undefined, 404, "pattern_not_found"],
      [`/v1/patterns/${pattern.id}`, KEYS.bOwner, 404, "pattern_not_found"],
      [`/v1/patterns/${pattern.id}/items/pti_99`, undefined, 404, "pattern_not_found"],
      [`/v1/patterns/${pattern.id}/items/${pattern.items[0].item_id}`, KEYS.bOwner, 404, "pattern_not_found"],
      [`/v1/pattern_detections/${run.run_id}`, KEYS.aMember, 200, ""],
    ];
    for (const [path, key, status, code] of cases) {
      const res = await t.call("GET", path, { key });
      expect([path, res.status, res.json.error_code ?? ""]).toEqual([path, status, code]);
    }
  });

  it("rejects malformed bodies with 422 and charges nothing", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const { id } = await datasetWithRun(t, "oat milk", 20);
    const before = t.ledger.balance("acc_demoA");
    const bodies = [
      { dataset_id: id, name: "", research_question: "q" },
      { dataset_id: id, name: "n" },
      { dataset_id: id, name: "x".repeat(256), research_question: "q" },
      { dataset_id: id, name: "n", research_question: "" },
      { name: "n", research_question: "q" },
    ];
    for (const body of bodies) expect((await t.call("POST", "/v1/pattern_detections", { body })).status).toBe(422);
    expect((await t.call("POST", "/v1/pattern_detections", { raw: "{not json" })).status).toBe(422);
    expect(t.ledger.balance("acc_demoA").eq(before)).toBe(true);
  });
});

describe("seeded demo pattern", () => {
  it("account A boots with a completed detection over 'Oat milk launch', charged like any detection", async () => {
    const t = makeApp({ seedDatasets: true });
    const run = (await t.call("GET", "/v1/pattern_detections/pdr_demoOatMilk1")).json.data;
    expect(run.status.type).toBe("completed");
    expect(run.status.steps.map((s: any) => s.name)).toEqual(["clustering", "labeling", "assignment"]);
    expect(run.pattern_id).toBe("pt_demoOatMilk1");
    const dataset = (await t.call("GET", `/v1/datasets/${run.dataset_id}`)).json.data;
    expect(dataset.name).toBe("Oat milk launch");
    const pattern = (await t.call("GET", "/v1/patterns/pt_demoOatMilk1")).json.data;
    const latest = t.services.datasets.latestCompletedRun(t.services.datasets.find("acc_demoA", run.dataset_id))!;
    const posts = t.services.mentions("acc_demoA").byRun(latest).length;
    expect(pattern.items.reduce((s: number, i: any) => s + i.post_count, 0)).toBe(posts);
    const charged = t.ledger.rows("acc_demoA").filter((r) => r.category === "post_processing");
    expect(charged.length).toBe(1);
    expect(charged[0]!.amount.eq(PRO_HALF_UNIT.mul(posts))).toBe(true);
    expect((await t.call("GET", "/v1/patterns/pt_demoOatMilk1", { key: KEYS.bOwner })).status).toBe(404);
  });
});
