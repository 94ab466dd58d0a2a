// Research previews through app.request(): bodies and windows, the sample
// and estimate from the same provider as dataset runs, persistence with free
// re-reads, and the charging rules (per source; per URL that returned data;
// full refund when the scrape fails; 402 before any scraping).
import { describe, expect, it } from "vitest";
import { zResearchPreviewsCreateResponse, zResearchPreviewsReadResponse } from "../../generated/client/zod.gen.ts";
import { providerScraper, type PreviewScraper } from "../src/domain/previews/service.ts";
import { money } from "../src/platform/billing/money.ts";
import { createDataset, KEYS, makeApp, runToCompletion, type TestApp } from "./helpers.ts";

const PRO_UNIT = money("0.0356");
const DAY = 86_400_000;

const prompt = (extra: Record<string, unknown> = {}) => ({
  type: "prompt",
  search_query: "oat milk barista",
  sources: ["reddit", "tiktok"],
  time_filter: "past_month",
  ...extra,
});

/** A scraper that counts provider calls and can be told to fail. */
function spyScraper(t: TestApp, fail = false) {
  const calls = { search: 0, profile: 0 };
  const scraper: PreviewScraper = {
    search: (r) => {
      calls.search++;
      if (fail) throw new Error("provider timed out");
      return providerScraper.search(r);
    },
    volume: providerScraper.volume,
    profile: (s, u) => {
      calls.profile++;
      if (fail) throw new Error("provider timed out");
      return providerScraper.profile(s, u);
    },
  };
  t.services.previews.scraper = scraper;
  return calls;
}

describe("prompt previews", () => {
  it("samples every source, stores the result, and charges one preview_generation per source", async () => {
    const t = makeApp();
    const before = t.ledger.balance("acc_demoA");
    const res = await t.call("POST", "/v1/research_previews", { body: prompt() });
    expect(res.status).toBe(201);
    zResearchPreviewsCreateResponse.parse(res.json);
    const data = res.json.data;
    expect(data.type).toBe("prompt");
    expect(data.posts.map((p: any) => p.position)).toEqual(data.posts.map((_: unknown, i: number) => i + 1));
    expect(new Set(data.posts.map((p: any) => p.source))).toEqual(new Set(["reddit", "tiktok"]));
    expect(data.posts.length).toBe(20);
    // Interleaved: the first two positions show both platforms.
    expect(new Set(data.posts.slice(0, 2).map((p: any) => p.source)).size).toBe(2);
    for (const p of data.posts) {
      expect(p.headline === null).toBe(p.source === "tiktok");
      if (p.source === "reddit") expect(p.author_display_name.startsWith("u/")).toBe(true);
    }
    expect(data.estimated_number_of_results).toBeGreaterThan(0);
    expect(before.sub(t.ledger.balance("acc_demoA")).eq(PRO_UNIT.mul(2))).toBe(true);
    expect(t.ledger.held("acc_demoA").isZero()).toBe(true);
    const history = (await t.call("GET", "/v1/me/usage_history")).json.data;
    expect(history[0]).toMatchObject({ category: "preview_generation", quantity: 0.0712 });
  });

  it("a repeated source is sampled and charged once", async () => {
    const t = makeApp();
    const before = t.ledger.balance("acc_demoA");
    const res = await t.call("POST", "/v1/research_previews", {
      body: prompt({ sources: ["reddit", "reddit", "reddit"] }),
    });
    expect(res.status).toBe(201);
    expect(res.json.data.posts.length).toBe(10);
    expect(before.sub(t.ledger.balance("acc_demoA")).eq(PRO_UNIT)).toBe(true);
  });

  it("re-reading is free, scoped to the account, and never scrapes again", async () => {
    const t = makeApp();
    const created = (await t.call("POST", "/v1/research_previews", { body: prompt() })).json.data;
    // From here on the provider would fail: a re-read must not touch it.
    const calls = spyScraper(t, true);
    const balance = t.ledger.balance("acc_demoA");
    await t.clock.advance(40 * DAY);
    const again = await t.call("GET", `/v1/research_previews/${created.preview_id}`);
    expect(again.status).toBe(200);
    zResearchPreviewsReadResponse.parse(again.json);
    expect(again.json.data).toEqual(created);
    expect(calls).toEqual({ search: 0, profile: 0 });
    expect(t.ledger.balance("acc_demoA").eq(balance)).toBe(true);
    // Another seat of the same account sees it; another account does not.
    expect((await t.call("GET", `/v1/research_previews/${created.preview_id}`, { key: KEYS.aMember })).status).toBe(
      200,
    );
    const foreign = await t.call("GET", `/v1/research_previews/${created.preview_id}`, { key: KEYS.bOwner });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toMatchObject({ error_code: "not_found", status: "client_error", transient: false });
    expect((await t.call("GET", "/v1/research_previews/not-a-preview")).json.error_code).toBe("not_found");
  });

  it("a later dataset run over the same query collects the previewed posts, and the estimate matches its extrapolation", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const body = prompt({
      search_query: "kombucha fridge",
      sources: ["reddit", "instagram"],
      time_filter: "past_year",
    });
    const preview = (await t.call("POST", "/v1/research_previews", { body })).json.data;
    const id = await createDataset(t, "after preview");
    const run = await runToCompletion(t, id, {
      search_query: { type: "prompt", sources: ["reddit", "instagram"], search_query: "kombucha fridge" },
      count: 40,
    });
    expect(run.status.type).toBe("completed");
    const mentions = (await t.call("POST", "/v1/mentions", { body: { dataset_ids: [id], limit: 100 } })).json.data;
    const collected = new Set(mentions.map((m: any) => m.url));
    for (const p of preview.posts) expect(collected.has(p.url)).toBe(true);
    const dataset = (await t.call("GET", `/v1/datasets/${id}`)).json.data;
    // The run's extrapolation (sum of stored coefficients) estimates the same volume.
    expect(Math.abs(dataset.estimated_mentions_count - preview.estimated_number_of_results)).toBeLessThanOrEqual(
      Math.ceil(preview.estimated_number_of_results * 0.01),
    );
  });

  it("an absolute window samples posts inside it; relative windows end now", async () => {
    const t = makeApp();
    const abs = await t.call("POST", "/v1/research_previews", {
      body: prompt({ time_filter: undefined, date_since: "2026-03-01", date_until: "2026-03-31" }),
    });
    expect(abs.status).toBe(201);
    // Today is 2026-11-02: March 1 is 246 days back (8 months), March 31 is 216 (7 months).
    for (const p of abs.json.data.posts) expect(p.relative_date).toMatch(/^(7|8) months ago$/);
    const day = await t.call("POST", "/v1/research_previews", { body: prompt({ time_filter: "past_day" }) });
    for (const p of day.json.data.posts) expect(p.relative_date).toBe("today");
    const week = await t.call("POST", "/v1/research_previews", { body: prompt({ time_filter: "past_week" }) });
    for (const p of week.json.data.posts) expect(p.relative_date).toMatch(/^(today|[1-7] days? ago)$/);
  });

  it("exactly one window: both, neither, or half a pair is 422; a reversed pair is 422 on date_since", async () => {
    const t = makeApp();
    const before = t.ledger.balance("acc_demoA");
    const bodies = [
      prompt({ date_since: "2026-01-01", date_until: "2026-02-01" }),
      prompt({ time_filter: undefined }),
      prompt({ time_filter: undefined, date_since: "2026-01-01" }),
      prompt({ time_filter: "past_week", date_until: "2026-01-01" }),
      prompt({ time_filter: "past_decade" }),
      prompt({ sources: [] }),
      prompt({ search_query: "" }),
    ];
    for (const body of bodies) {
      const res = await t.call("POST", "/v1/research_previews", { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Array.isArray(res.json.detail)).toBe(true);
    }
    const reversed = await t.call("POST", "/v1/research_previews", {
      body: prompt({ time_filter: undefined, date_since: "2026-05-02", date_until: "2026-05-01" }),
    });
    expect(reversed.status).toBe(422);
    expect(reversed.json.detail[0].loc).toEqual(["body", "date_since"]);
    const sameDay = await t.call("POST", "/v1/research_previews", {
      body: prompt({ time_filter: undefined, date_since: "2026-05-01", date_until: "2026-05-01" }),
    });
    expect(sameDay.status).toBe(201);
    // Today is 2026-11-02: a window starting tomorrow is refused, one ending next year stops now.
    const future = await t.call("POST", "/v1/research_previews", {
      body: prompt({ time_filter: undefined, date_since: "2026-11-03", date_until: "2026-12-01" }),
    });
    expect([future.status, future.json.detail[0].loc]).toEqual([422, ["body", "date_since"]]);
    const open = await t.call("POST", "/v1/research_previews", {
      body: prompt({ time_filter: undefined, date_since: "2026-11-01", date_until: "2027-01-01" }),
    });
    for (const p of open.json.data.posts) expect(p.relative_date).toMatch(/^(today|1 day ago)$/);
    expect(before.sub(t.ledger.balance("acc_demoA")).eq(PRO_UNIT.mul(4))).toBe(true);
  });

  it("402 before any scraping, with nothing charged or stored", async () => {
    const t = makeApp();
    t.ledger.open("acc_poor", "starter", money("0.05"));
    const calls = spyScraper(t);
    const res = await t.call("POST", "/v1/research_previews", { key: KEYS.poor, body: prompt() });
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({
      error_code: "insufficient_credits_research_preview",
      transient: false,
      detail: { required: "0.098000", available: "0.050000" },
    });
    expect(calls.search).toBe(0);
    expect(t.ledger.balance("acc_poor").toFixed(6)).toBe("0.050000");
    expect(t.ledger.rows("acc_poor")).toEqual([]);
    expect(t.services.tables.previews.live("acc_poor")).toEqual([]);
    // One source fits.
    expect(
      (await t.call("POST", "/v1/research_previews", { key: KEYS.poor, body: prompt({ sources: ["reddit"] }) })).status,
    ).toBe(201);
  });

  it("a failed scrape refunds in full, stores nothing and answers a transient 500", async () => {
    const t = makeApp();
    const before = t.ledger.balance("acc_demoA");
    spyScraper(t, true);
    const res = await t.call("POST", "/v1/research_previews", { body: prompt() });
    expect(res.status).toBe(500);
    expect(res.json).toMatchObject({ error_code: "internal_server_error", transient: true, status: "server_error" });
    expect(t.ledger.balance("acc_demoA").eq(before)).toBe(true);
    expect(t.ledger.held("acc_demoA").isZero()).toBe(true);
    expect(t.ledger.rows("acc_demoA")).toEqual([]);
    expect(t.services.tables.previews.live("acc_demoA")).toEqual([]);
  });
});

describe("URL previews", () => {
  const urls = [
    { source: "instagram", url: "https://www.instagram.com/minimalistbaker/" },
    { source: "instagram", url: "https://www.instagram.com/a_private_kitchen/" },
    { source: "tiktok", url: "https://www.tiktok.com/@no_such_creator_9981" },
    { source: "youtube", url: "https://www.youtube.com/@deleted_channel_404" },
    { source: "tiktok", url: "https://www.instagram.com/wrong_platform/" },
    { source: "reddit", url: "https://www.reddit.com/user/crema_kid" },
    { source: "linkedin", url: "https://www.linkedin.com/feed/" },
  ];

  it("partitions every URL into profiles or one refund list and charges only the profiles", async () => {
    const t = makeApp();
    const before = t.ledger.balance("acc_demoA");
    const res = await t.call("POST", "/v1/research_previews", { body: { type: "url", source_urls: urls } });
    expect(res.status).toBe(201);
    zResearchPreviewsCreateResponse.parse(res.json);
    const d = res.json.data;
    expect(d.profiles.map((p: any) => p.url)).toEqual([urls[0]!.url, urls[5]!.url]);
    expect(d.profiles[0]).toMatchObject({
      source: "instagram",
      username: "minimalistbaker",
      display_name: "Minimalistbaker",
    });
    expect(d.profiles[1]).toMatchObject({
      source: "reddit",
      username: "crema_kid",
      follower_count: null,
      is_verified: false,
    });
    expect(d.private_profiles).toEqual([urls[1]!.url]);
    expect(d.non_existing_profiles).toEqual([urls[2]!.url, urls[3]!.url]);
    expect(d.failed_to_retrieve_profiles).toEqual([urls[4]!.url, urls[6]!.url]);
    const listed = [
      ...d.profiles.map((p: any) => p.url),
      ...d.private_profiles,
      ...d.non_existing_profiles,
      ...d.failed_to_retrieve_profiles,
    ];
    expect(listed.sort()).toEqual(urls.map((u) => u.url).sort());
    // Two profiles returned data: two units charged, five refunded.
    expect(before.sub(t.ledger.balance("acc_demoA")).eq(PRO_UNIT.mul(2))).toBe(true);
    expect(t.ledger.held("acc_demoA").isZero()).toBe(true);
  });

  it("the same profile reads the same; a URL listed twice is looked up and charged once", async () => {
    const t = makeApp();
    const before = t.ledger.balance("acc_demoA");
    const one = urls[0]!;
    const a = (await t.call("POST", "/v1/research_previews", { body: { type: "url", source_urls: [one, one] } })).json
      .data;
    expect(a.profiles.length).toBe(1);
    const b = (await t.call("POST", "/v1/research_previews", { body: { type: "url", source_urls: [one] } })).json.data;
    expect(b.profiles).toEqual(a.profiles);
    expect(b.preview_id).not.toBe(a.preview_id);
    expect(before.sub(t.ledger.balance("acc_demoA")).eq(PRO_UNIT.mul(2))).toBe(true);
    // The same URL string under two sources: its first entry decides, and it is listed once.
    const twice = (
      await t.call("POST", "/v1/research_previews", {
        body: { type: "url", source_urls: [{ source: "tiktok", url: one.url }, one] },
      })
    ).json.data;
    expect(twice.failed_to_retrieve_profiles).toEqual([one.url]);
    expect(twice.profiles).toEqual([]);
  });

  it("no profile returned data: nothing charged, the preview is still stored", async () => {
    const t = makeApp();
    const res = await t.call("POST", "/v1/research_previews", {
      body: { type: "url", source_urls: [urls[1], urls[2]] },
    });
    expect(res.status).toBe(201);
    expect(res.json.data.profiles).toEqual([]);
    expect(t.ledger.rows("acc_demoA")).toEqual([]);
    expect((await t.call("GET", `/v1/research_previews/${res.json.data.preview_id}`)).status).toBe(200);
  });

  it("402 is sized by every URL requested, before any lookup; a failed lookup refunds in full", async () => {
    const t = makeApp();
    t.ledger.open("acc_poor", "starter", money("0.1"));
    const calls = spyScraper(t);
    const res = await t.call("POST", "/v1/research_previews", {
      key: KEYS.poor,
      body: { type: "url", source_urls: urls.slice(0, 3) },
    });
    expect(res.status).toBe(402);
    expect(res.json.detail.required).toBe("0.147000");
    expect(calls.profile).toBe(0);
    spyScraper(t, true);
    const failed = await t.call("POST", "/v1/research_previews", {
      key: KEYS.poor,
      body: { type: "url", source_urls: urls.slice(0, 2) },
    });
    expect(failed.status).toBe(500);
    expect(t.ledger.balance("acc_poor").toFixed(6)).toBe("0.100000");
    expect(t.ledger.rows("acc_poor")).toEqual([]);
  });

  it("rejects a reversed date filter, more than 100 URLs and a non-URL with 422", async () => {
    const t = makeApp();
    const reversed = await t.call("POST", "/v1/research_previews", {
      body: { type: "url", source_urls: [urls[0]], date_filter_since: "2026-02-02", date_filter_until: "2026-02-01" },
    });
    expect(reversed.status).toBe(422);
    expect(reversed.json.detail[0].loc).toEqual(["body", "date_filter_since"]);
    const many = Array.from({ length: 101 }, (_, i) => ({
      source: "instagram",
      url: `https://www.instagram.com/user${i}/`,
    }));
    expect((await t.call("POST", "/v1/research_previews", { body: { type: "url", source_urls: many } })).status).toBe(
      422,
    );
    expect(
      (
        await t.call("POST", "/v1/research_previews", {
          body: { type: "url", source_urls: [{ source: "reddit", url: "not a url" }] },
        })
      ).status,
    ).toBe(422);
    expect((await t.call("POST", "/v1/research_previews", { body: { type: "url", source_urls: [] } })).status).toBe(
      422,
    );
    expect(t.ledger.rows("acc_demoA")).toEqual([]);
  });
});
