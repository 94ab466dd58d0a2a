import { describe, expect, it } from "vitest";
import { ALL_ACTIONS, createDataset, KEYS, makeApp, promptRun, runToCompletion } from "./helpers.ts";
import { money } from "../src/platform/billing/money.ts";

const PRO_MENTION = money("0.0356");

describe("dataset runs", () => {
  it("202 pending, then pending -> working -> completed with the three steps", async () => {
    const t = makeApp({ stepDelayMs: 300 });
    const id = await createDataset(t);
    const created = await t.call("POST", `/v1/datasets/${id}/runs`, { body: promptRun("oat milk", 30) });
    expect(created.status).toBe(202);
    expect(Object.keys(created.json.data).sort()).toEqual([
      "count",
      "created_at",
      "dataset_id",
      "id",
      "requested_count",
      "status",
    ]);
    expect(created.json.data).toMatchObject({
      dataset_id: id,
      count: 30,
      requested_count: 30,
      status: { type: "pending" },
    });
    expect(created.json.data.id).toMatch(/^dsr_/);
    const runPath = `/v1/datasets/${id}/runs/${created.json.data.id}`;
    const seen: string[] = [];
    const steps: string[][] = [];
    for (let i = 0; i < 6; i++) {
      const r = (await t.call("GET", runPath)).json.data;
      seen.push(r.status.type);
      steps.push((r.status.steps ?? []).map((s: any) => s.name));
      await t.clock.advance(300);
    }
    expect(seen).toEqual(["pending", "working", "working", "working", "completed", "completed"]);
    expect(steps[2]).toEqual(["scraping"]);
    expect(steps[3]).toEqual(["scraping", "enrichment"]);
    expect(steps[4]).toEqual(["scraping", "enrichment", "analysis"]);
    const done = (await t.call("GET", runPath)).json.data;
    for (const s of done.status.steps) expect(Number.isInteger(s.completed_at)).toBe(true);
    expect(done.mentions_count).toBe(30);
    expect(done.params).toMatchObject({
      count: 30,
      num_comments_per_post: 10,
      country_code: "US",
      date_range: null,
      language: null,
      content_analysis_actions: [],
    });
  });

  it("reserves count x price up front and settles to the mentions collected", async () => {
    const t = makeApp({ stepDelayMs: 100 });
    const before = t.ledger.balance("acc_demoA");
    const id = await createDataset(t);
    // A url run with 3 URLs, one of which (a removed post) fails to resolve.
    const res = await t.call("POST", `/v1/datasets/${id}/runs`, {
      body: {
        search_query: {
          type: "url",
          source_urls: [
            { source: "reddit", url: "https://www.reddit.com/r/tea/comments/1/matcha/" },
            { source: "tiktok", url: "https://www.tiktok.com/@someone/video/123" },
            { source: "instagram", url: "https://www.instagram.com/p/removed-post/" },
          ],
        },
      },
    });
    expect(res.json.data.count).toBe(3);
    expect(res.json.data.requested_count).toBe(200);
    // Reserved: 3 x 0.0356.
    expect(t.ledger.balance("acc_demoA").toFixed(6)).toBe(before.sub(PRO_MENTION.mul(3)).toFixed(6));
    await t.clock.runAll();
    const run = (await t.call("GET", `/v1/datasets/${id}/runs/${res.json.data.id}`)).json.data;
    expect(run.status.type).toBe("completed");
    expect(run.mentions_count).toBe(2);
    // Settled: 2 x 0.0356, the third refunded.
    expect(t.ledger.balance("acc_demoA").toFixed(6)).toBe(before.sub(PRO_MENTION.mul(2)).toFixed(6));
    const me = (await t.call("GET", "/v1/me")).json.data;
    expect(me.usage.balance).toBe(Number(before.sub(PRO_MENTION.mul(2)).toFixed(6)));
    expect(me.usage.balance_used).toBe(0.0712);
    const history = (await t.call("GET", "/v1/me/usage_history")).json.data;
    expect(history[0]).toMatchObject({
      category: "mention",
      quantity: 0.0712,
      quantity_credits: 2,
      credit_rate_usd: 0.0356,
      credit_value_basis: "snapshot",
    });
  });

  it("a url run whose every URL fails ends failed with error_message and a full refund", async () => {
    const t = makeApp({ stepDelayMs: 50 });
    const before = t.ledger.balance("acc_demoA").toFixed(6);
    const id = await createDataset(t);
    const res = await t.call("POST", `/v1/datasets/${id}/runs`, {
      body: {
        search_query: {
          type: "url",
          source_urls: [
            { source: "reddit", url: "https://example.com/not-reddit" },
            { source: "youtube", url: "https://www.youtube.com/watch/deleted" },
          ],
        },
      },
    });
    expect(res.status).toBe(202);
    expect(t.ledger.balance("acc_demoA").toFixed(6)).not.toBe(before);
    await t.clock.runAll();
    const run = (await t.call("GET", `/v1/datasets/${id}/runs/${res.json.data.id}`)).json.data;
    expect(run.status.type).toBe("failed");
    expect(run.status.error_message).toMatch(/URLs/);
    expect(t.ledger.balance("acc_demoA").toFixed(6)).toBe(before);
    expect((await t.call("GET", "/v1/me/usage_history")).json.data).toEqual([]);
  });

  it("402 insufficient_credits_dataset_run with decimal strings, creating and charging nothing", async () => {
    const t = makeApp();
    const id = await createDataset(t, "Poor", KEYS.poor);
    const res = await t.call("POST", `/v1/datasets/${id}/runs`, { key: KEYS.poor, body: promptRun("oat milk", 1000) });
    expect(res.status).toBe(402);
    expect(res.json).toEqual({
      status: "client_error",
      error_code: "insufficient_credits_dataset_run",
      detail: {
        message: expect.any(String),
        required: "49.000000",
        available: "0.010000",
        top_up_url: expect.stringMatching(/^https:\/\//),
      },
      transient: false,
    });
    expect((await t.call("GET", `/v1/datasets/${id}/runs`, { key: KEYS.poor })).json.data).toEqual([]);
    expect(t.ledger.balance("acc_poor").toFixed(6)).toBe("0.010000");
    expect(t.pipeline.running).toBe(0);
    // Even the smallest run (20 x 0.049 = 0.98) does not fit the spent balance; a top-up makes it fit.
    expect(
      (await t.call("POST", `/v1/datasets/${id}/runs`, { key: KEYS.poor, body: promptRun("oat milk", 20) })).status,
    ).toBe(402);
    t.ledger.open("acc_poor", "starter", money("0.98"));
    expect(
      (await t.call("POST", `/v1/datasets/${id}/runs`, { key: KEYS.poor, body: promptRun("oat milk", 20) })).status,
    ).toBe(202);
  });

  it("several runs may be in flight on one dataset; list pages newest first", async () => {
    const t = makeApp({ stepDelayMs: 300 });
    const id = await createDataset(t);
    const ids: string[] = [];
    for (const q of ["tea", "coffee", "cocoa"]) {
      const r = await t.call("POST", `/v1/datasets/${id}/runs`, { body: promptRun(q, 20) });
      expect(r.status).toBe(202);
      ids.push(r.json.data.id);
      await t.clock.advance(1);
    }
    const page1 = await t.call("GET", `/v1/datasets/${id}/runs?limit=2`);
    expect(page1.json.data.map((r: any) => r.id)).toEqual([ids[2], ids[1]]);
    const page2 = await t.call("GET", `/v1/datasets/${id}/runs?limit=2&cursor=${page1.json.cursor}`);
    expect(page2.json.data.map((r: any) => r.id)).toEqual([ids[0]]);
    await t.clock.runAll();
    const all = await t.call("GET", `/v1/datasets/${id}/runs`);
    expect(all.json.data.every((r: any) => r.status.type === "completed")).toBe(true);
    // Another dataset's cursor scope is different.
    const other = await createDataset(t, "other");
    expect((await t.call("GET", `/v1/datasets/${other}/runs?cursor=${page1.json.cursor}`)).json.error_code).toBe(
      "invalid_cursor",
    );
  });

  it("honours sources, country, language, date_range and num_comments_per_post", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const id = await createDataset(t);
    await runToCompletion(t, id, {
      search_query: { type: "prompt", sources: ["youtube"], search_query: "espresso machine" },
      count: 20,
      country_code: "DE",
      language: "de",
      num_comments_per_post: 2,
      date_range: { from: "2026-03-01", to: "2026-03-31" },
    });
    const ms = (await t.call("POST", "/v1/mentions", { body: { dataset_ids: [id], limit: 100 } })).json.data;
    expect(ms.length).toBe(20);
    const from = Date.UTC(2026, 2, 1) / 1000;
    const to = Date.UTC(2026, 3, 1) / 1000;
    for (const m of ms) {
      expect(m.source).toBe("youtube");
      expect(m.language).toBe("de");
      expect(m.comments.length).toBeLessThanOrEqual(2);
      expect(m.created_at).toBeGreaterThanOrEqual(from);
      expect(m.created_at).toBeLessThan(to);
    }
    // Without a date range a prompt covers the past 365 days.
    const id2 = await createDataset(t);
    await runToCompletion(t, id2, promptRun("matcha", 30));
    const now = t.clock.now() / 1000;
    for (const m of (await t.call("POST", "/v1/mentions", { body: { dataset_ids: [id2], limit: 100 } })).json.data) {
      expect(m.created_at).toBeGreaterThanOrEqual(now - 365 * 86400);
      expect(m.created_at).toBeLessThanOrEqual(now);
    }
  });

  it("content_analysis_actions decide which analysis fields are filled", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const none = await createDataset(t, "none");
    await runToCompletion(t, none, promptRun("protein bar", 20));
    const bare = (await t.call("POST", "/v1/mentions", { body: { dataset_ids: [none] } })).json.data[0];
    for (const f of [
      "sentiment",
      "sentiment_score",
      "emotions",
      "tone_of_voice",
      "hook",
      "cta",
      "content_topics",
      "questions",
      "mentioned_brands",
      "entities",
      "category",
      "content_intention",
      "summary",
    ]) {
      expect(bare[f], f).toBeNull();
    }
    const all = await createDataset(t, "all");
    await runToCompletion(t, all, promptRun("granola", 20, { content_analysis_actions: ALL_ACTIONS }));
    const rich = (await t.call("POST", "/v1/mentions", { body: { dataset_ids: [all], limit: 20 } })).json.data;
    for (const m of rich) {
      expect(m.sentiment).not.toBeNull();
      expect(Number(m.sentiment.positive) + Number(m.sentiment.negative) + Number(m.sentiment.neutral)).toBeCloseTo(
        1,
        6,
      );
      expect(m.emotions).not.toBeNull();
      expect(m.hook.text.length).toBeGreaterThan(0);
      expect(Array.isArray(m.content_topics)).toBe(true);
      expect(Array.isArray(m.mentioned_brands)).toBe(true);
      expect(typeof m.category).toBe("string");
    }
  });

  it("enable_visual_recognition fills media descriptions", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const plain = await createDataset(t, "plain");
    await runToCompletion(t, plain, {
      search_query: { type: "prompt", sources: ["tiktok"], search_query: "latte art" },
      count: 20,
    });
    const seen = await createDataset(t, "seen");
    await runToCompletion(t, seen, {
      search_query: { type: "prompt", sources: ["youtube"], search_query: "latte art" },
      count: 20,
      enable_visual_recognition: true,
    });
    const a = (await t.call("POST", "/v1/mentions", { body: { dataset_ids: [plain] } })).json.data;
    const b = (await t.call("POST", "/v1/mentions", { body: { dataset_ids: [seen] } })).json.data;
    expect(a.flatMap((m: any) => m.media).every((x: any) => x.description === null)).toBe(true);
    expect(b.flatMap((m: any) => m.media).every((x: any) => typeof x.description === "string")).toBe(true);
  });

  it("analysis is computed from the text, not drawn at random", async () => {
    const { analyse } = await import("../src/simulators/analysis.ts");
    const pos = analyse("I love this, it is amazing and excellent!", ["sentiment", "emotions"]);
    const neg = analyse("Terrible, awful and the worst purchase. I hate it.", ["sentiment", "emotions"]);
    expect(pos.sentiment!.label).toBe("positive");
    expect(neg.sentiment!.label).toBe("negative");
    expect(pos.emotions!.dominant).toBe("joy");
    expect(neg.emotions!.dominant).toBe("anger");
    expect(
      analyse("Has anyone tried Oatly? Check out my review.", ["questions", "cta", "mentioned_brands"]),
    ).toMatchObject({
      questions: ["Has anyone tried Oatly?"],
      cta: "Check out my review.",
      mentioned_brands: ["Oatly"],
    });
    expect(analyse("Same text twice.", ["sentiment"])).toEqual(analyse("Same text twice.", ["sentiment"]));
  });

  it("the provider is deterministic: the same query yields the same posts", async () => {
    const { searchPosts } = await import("../src/simulators/provider.ts");
    const req = {
      source: "tiktok" as const,
      query: "oat milk",
      count: 25,
      window: { fromMs: 0, toMs: 1e12 },
      country: "US",
      language: null,
      numComments: 3,
    };
    const a = searchPosts(req);
    const b = searchPosts(req);
    expect(a).toEqual(b);
    expect(new Set(a.map((p) => p.id)).size).toBe(25);
    expect(searchPosts({ ...req, query: "almond milk" }).map((p) => p.id)).not.toEqual(a.map((p) => p.id));
    for (const p of a) {
      expect(p.author.followers).toBeGreaterThan(0);
      expect(p.media.length).toBeGreaterThan(0);
      expect(p.url).toContain("tiktok.com");
    }
  });

  it("runs of a soft-deleted dataset are not readable; a foreign run id is 404", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const a = await createDataset(t, "a");
    const b = await createDataset(t, "b");
    const run = await runToCompletion(t, a, promptRun("chai", 20));
    expect((await t.call("GET", `/v1/datasets/${b}/runs/${run.id}`)).status).toBe(404);
    expect((await t.call("GET", `/v1/datasets/${a}/runs/${run.id}`, { key: KEYS.bOwner })).status).toBe(404);
  });
});

describe("URL resolution words", () => {
  it("a path word says gone or private; an id that merely contains 404 resolves", async () => {
    const { resolveUrl } = await import("../src/simulators/provider.ts");
    expect(
      resolveUrl("reddit", "https://www.reddit.com/r/x/comments/20261122-a404b3_src_0/oat_milk", undefined, 0).ok,
    ).toBe(true);
    expect(resolveUrl("reddit", "https://www.reddit.com/r/x/comments/404/oat_milk", undefined, 0)).toEqual({
      ok: false,
      reason: "not_found",
    });
    expect(resolveUrl("reddit", "https://www.reddit.com/r/x/comments/deleted_1/x", undefined, 0)).toEqual({
      ok: false,
      reason: "not_found",
    });
    expect(resolveUrl("instagram", "https://www.instagram.com/a_private_kitchen/", undefined, 0)).toEqual({
      ok: false,
      reason: "private",
    });
  });
});
