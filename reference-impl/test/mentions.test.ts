import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ALL_ACTIONS, createDataset, KEYS, makeApp, type TestApp } from "./helpers.ts";

// One account with three datasets: a rich multi-source run, a re-run a week
// later (so metrics change), and a sentiment-only dataset.
let t: TestApp;
let rich: string;
let lean: string;
let other: string;
let corpus: any[];

async function all(body: Record<string, unknown>, key = KEYS.aOwner): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 500; i++) {
    const res = await t.call("POST", "/v1/mentions", { key, body: { ...body, ...(cursor ? { cursor } : {}) } });
    if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
    out.push(...res.json.data);
    if (!res.json.has_next) {
      expect(res.json.cursor).toBeNull();
      return out;
    }
    cursor = res.json.cursor;
  }
  throw new Error("too many pages");
}

beforeAll(async () => {
  t = makeApp({ stepDelayMs: 0 });
  rich = await createDataset(t, "rich");
  lean = await createDataset(t, "lean");
  other = await createDataset(t, "b-side", KEYS.bOwner);
  const run = async (ds: string, body: unknown, key = KEYS.aOwner) => {
    expect((await t.call("POST", `/v1/datasets/${ds}/runs`, { key, body })).status).toBe(202);
    await t.clock.runAll();
  };
  await run(rich, {
    search_query: {
      type: "prompt",
      sources: ["reddit", "tiktok", "youtube", "instagram", "linkedin"],
      search_query: "oat milk",
    },
    count: 150,
    content_analysis_actions: ALL_ACTIONS,
  });
  await run(lean, {
    search_query: { type: "prompt", sources: ["tiktok", "instagram"], search_query: "oat milk" },
    count: 40,
    content_analysis_actions: ["sentiment"],
  });
  await run(lean, {
    search_query: { type: "prompt", sources: ["youtube"], search_query: "almond milk" },
    count: 20,
    country_code: "GB",
    content_analysis_actions: ["sentiment"],
  });
  await t.clock.advance(7 * 86_400_000);
  await run(rich, {
    search_query: { type: "prompt", sources: ["reddit", "tiktok"], search_query: "oat milk" },
    count: 40,
    content_analysis_actions: ALL_ACTIONS,
  });
  await run(
    other,
    { search_query: { type: "prompt", sources: ["reddit"], search_query: "oat milk" }, count: 20 },
    KEYS.bOwner,
  );
  corpus = await all({ limit: 100 });
}, 60_000);

// ---- The model: filters re-implemented on the public Mention JSON (plus the
// few stored facts the Mention does not expose: country, sentiment label,
// dominant emotion and the previous metrics).
const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .filter(Boolean);
function internal(m: any) {
  return t.services.mentions("acc_demoA").get(`${m.source}:${m.id}`)!;
}
function metric(m: any, name: string): number {
  return name === "likes"
    ? m.num_likes
    : name === "views"
      ? m.num_views
      : name === "comments"
        ? m.num_comments
        : Number(m.engagement_rate);
}
function modelMatch(m: any, f: any): boolean {
  const lc = (x: string) => x.toLowerCase();
  switch (f.type) {
    case "keyword": {
      const hay = words(`${m.title} ${m.text}`);
      const needle = words(f.value);
      let hit = false;
      for (let i = 0; i + needle.length <= hay.length && !hit; i++) hit = needle.every((w, j) => hay[i + j] === w);
      return f.operator === "is" ? hit : !hit;
    }
    case "sentiment":
      return m.sentiment !== null && f.values.includes(internal(m).analysis.sentiment!.label);
    case "metric_change": {
      const v = metric(m, f.metric);
      const op = f.operator;
      if (op.type === "greater_than") return v > op.value;
      if (op.type === "less_than") return v < op.value;
      if (op.type === "in_range") return v >= op.min && v <= op.max;
      const prev = internal(m).previous;
      const before = prev
        ? f.metric === "engagement_rate"
          ? prev.views
            ? Math.round(((prev.likes + prev.comments + prev.shares) / prev.views) * 10000) / 10000
            : 0
          : (prev as any)[f.metric]
        : v;
      const delta = v - before;
      return op.value >= 0 ? delta >= op.value : delta <= op.value;
    }
    case "source":
      return f.values.includes(m.source);
    case "content_topic":
      return (m.content_topics ?? []).some((x: any) => f.values.map(lc).includes(lc(x.text)));
    case "content_intention":
      return m.content_intention !== null && f.values.map(lc).includes(lc(m.content_intention));
    case "tone_of_voice":
      return m.tone_of_voice !== null && f.values.map(lc).includes(lc(m.tone_of_voice.text));
    case "hook":
      return m.hook !== null && f.values.some((v: string) => lc(m.hook.text).includes(lc(v)));
    case "cta":
      return m.cta !== null && f.values.some((v: string) => lc(m.cta.text).includes(lc(v)));
    case "mentioned_brands": {
      if (m.mentioned_brands === null) return false;
      const op = f.operator;
      if (op.type === "any_of") return m.mentioned_brands.some((b: string) => op.values.map(lc).includes(lc(b)));
      if (op.type === "equals") return m.mentioned_brands.some((b: string) => lc(b) === lc(op.value));
      return m.mentioned_brands.some((b: string) => lc(b).includes(lc(op.value)));
    }
    case "country_code":
      return f.values.includes(internal(m).post.country);
    case "has_media":
      return m.media.length > 0 === f.value;
    case "dominant_emotion":
      return m.emotions !== null && f.values.includes(internal(m).analysis.emotions!.dominant);
  }
  throw new Error(`unknown filter ${f.type}`);
}
function sortValue(m: any, sort: string): number {
  switch (sort) {
    case "date":
      return m.created_at;
    case "likes":
      return m.num_likes;
    case "views":
      return m.num_views;
    case "comments":
      return m.num_comments;
    case "shares":
      return m.num_shares;
    case "engagement_rate":
      return Number(m.engagement_rate);
    case "sentiment_score":
      return m.sentiment_score === null ? -2 : Number(m.sentiment_score);
    default:
      return m.dataset_run_at;
  }
}
function modelQuery(body: any): string[] {
  let rows = corpus.filter(
    (m) =>
      (!body.dataset_ids || m.datasets.some((d: any) => body.dataset_ids.includes(d.id))) &&
      (!body.sources || body.sources.includes(m.source)),
  );
  if (body.filters?.length)
    rows = rows.filter((m) => body.filters.some((g: any[]) => g.every((f) => modelMatch(m, f))));
  const key = (m: any) => `${m.source}:${m.id}`;
  rows.sort((a, b) => {
    const d = sortValue(a, body.sort) - sortValue(b, body.sort);
    return d !== 0 ? d : key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
  });
  if (body.order === "desc") rows.reverse();
  return rows.map(key);
}

const filterArb: fc.Arbitrary<any> = fc.oneof(
  fc.record({
    type: fc.constant("keyword"),
    operator: fc.constantFrom("is", "is_not"),
    value: fc.constantFrom("oat", "oat milk", "love", "price", "review", "terrible", "disappointment", "zebra"),
  }),
  fc.record({
    type: fc.constant("sentiment"),
    values: fc.subarray(["positive", "negative", "neutral"], { minLength: 1 }),
  }),
  fc.record({
    type: fc.constant("metric_change"),
    metric: fc.constantFrom("likes", "views", "comments", "engagement_rate"),
    operator: fc.oneof(
      fc.record({ type: fc.constant("greater_than"), value: fc.constantFrom(0, 0.03, 100, 5000, 100000) }),
      fc.record({ type: fc.constant("less_than"), value: fc.constantFrom(0.05, 50, 2000, 200000) }),
      // min <= max: a reversed range is a 422 (D-METRIC-CHANGE-OPERATOR), tested in hardening.test.ts.
      fc
        .tuple(fc.constantFrom(0, 0.1, 10, 500, 1000, 50000), fc.constantFrom(0, 0.1, 10, 500, 1000, 50000))
        .map(([a, b]) => ({ type: "in_range" as const, min: Math.min(a, b), max: Math.max(a, b) })),
      fc.record({ type: fc.constant("changed_by"), value: fc.constantFrom(-10, 0, 1, 100) }),
    ),
  }),
  fc.record({
    type: fc.constant("source"),
    values: fc.subarray(["reddit", "tiktok", "youtube", "instagram", "linkedin"], { minLength: 1 }),
  }),
  fc.record({
    type: fc.constant("content_topic"),
    operator: fc.constant("any_of"),
    values: fc.subarray(["oat", "milk", "price", "quality", "review"], { minLength: 1 }),
  }),
  fc.record({
    type: fc.constant("content_intention"),
    operator: fc.constant("any_of"),
    values: fc.subarray(["promote", "complain", "ask", "recommend", "inform"], { minLength: 1 }),
  }),
  fc.record({
    type: fc.constant("tone_of_voice"),
    operator: fc.constant("any_of"),
    values: fc.subarray(["promotional", "critical", "enthusiastic", "inquisitive", "informative"], { minLength: 1 }),
  }),
  fc.record({
    type: fc.constant("hook"),
    operator: fc.constant("any_of"),
    values: fc.subarray(["honestly", "oat milk", "tried"], { minLength: 1 }),
  }),
  fc.record({
    type: fc.constant("cta"),
    operator: fc.constant("any_of"),
    values: fc.subarray(["subscribe", "link in bio", "follow"], { minLength: 1 }),
  }),
  fc.record({
    type: fc.constant("mentioned_brands"),
    operator: fc.oneof(
      fc.record({
        type: fc.constant("any_of"),
        values: fc.subarray(["Oatly", "Starbucks", "Nike", "Costco"], { minLength: 1 }),
      }),
      fc.record({ type: fc.constant("equals"), value: fc.constantFrom("oatly", "Apple", "IKEA") }),
      fc.record({ type: fc.constant("contains"), value: fc.constantFrom("o", "star", "joe") }),
    ),
  }),
  fc.record({ type: fc.constant("country_code"), values: fc.subarray(["US", "GB", "DE"], { minLength: 1 }) }),
  fc.record({ type: fc.constant("has_media"), value: fc.boolean() }),
  fc.record({
    type: fc.constant("dominant_emotion"),
    values: fc.subarray(["joy", "sadness", "anger", "fear", "surprise", "disgust", "neutral"], { minLength: 1 }),
  }),
);

const sortArb = fc.constantFrom(
  "date",
  "likes",
  "engagement_rate",
  "views",
  "comments",
  "shares",
  "sentiment_score",
  "dataset_run_at",
);

describe("POST /v1/mentions", () => {
  it("the corpus is the account's mentions, deduplicated, with their datasets", () => {
    const keys = corpus.map((m) => `${m.source}:${m.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(corpus.length).toBeGreaterThan(150);
    const both = corpus.filter((m) => m.datasets.length === 2);
    expect(both.length).toBeGreaterThan(0);
    expect(corpus.every((m) => m.datasets.every((d: any) => d.id !== other))).toBe(true);
  });

  it("property: filters, sorts and cursors agree with a simple model", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(filterArb, { minLength: 1, maxLength: 3 }), { minLength: 0, maxLength: 3 }),
        sortArb,
        fc.constantFrom("asc", "desc"),
        fc.integer({ min: 7, max: 100 }),
        fc.option(fc.subarray(["reddit", "tiktok", "youtube", "instagram", "linkedin"], { minLength: 1 }), {
          nil: undefined,
        }),
        fc.option(fc.constantFrom("rich", "lean"), { nil: undefined }),
        async (filters, sort, order, limit, sources, scope) => {
          const body: any = { sort, order, limit, filters };
          if (sources) body.sources = sources;
          if (scope) body.dataset_ids = [scope === "rich" ? rich : lean];
          const got = (await all(body)).map((m) => `${m.source}:${m.id}`);
          expect(got).toEqual(modelQuery(body));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("each single filter variant agrees with the model, in both orders", async () => {
    const cases: any[] = [];
    for (const metricName of ["likes", "views", "comments", "engagement_rate"]) {
      for (const value of [-10, -1, 0, 1, 100])
        cases.push({ type: "metric_change", metric: metricName, operator: { type: "changed_by", value } });
      for (const value of [0, 0.03, 100, 5000]) {
        cases.push({ type: "metric_change", metric: metricName, operator: { type: "greater_than", value } });
        cases.push({ type: "metric_change", metric: metricName, operator: { type: "less_than", value } });
      }
      cases.push({ type: "metric_change", metric: metricName, operator: { type: "in_range", min: 10, max: 5000 } });
    }
    for (const value of ["oat", "oat milk", "love", "price", "milk was"])
      for (const operator of ["is", "is_not"]) cases.push({ type: "keyword", operator, value });
    for (const v of ["positive", "negative", "neutral"]) cases.push({ type: "sentiment", values: [v] });
    for (const v of ["reddit", "youtube"]) cases.push({ type: "source", values: [v] });
    for (const v of ["milk", "Oat"]) cases.push({ type: "content_topic", operator: "any_of", values: [v] });
    for (const v of ["promote", "complain", "ask", "recommend", "inform"])
      cases.push({ type: "content_intention", operator: "any_of", values: [v] });
    for (const v of ["promotional", "critical", "enthusiastic", "inquisitive", "informative"])
      cases.push({ type: "tone_of_voice", operator: "any_of", values: [v] });
    for (const v of ["honestly", "tried"]) cases.push({ type: "hook", operator: "any_of", values: [v] });
    for (const v of ["subscribe", "bio"]) cases.push({ type: "cta", operator: "any_of", values: [v] });
    cases.push({ type: "mentioned_brands", operator: { type: "any_of", values: ["Oatly", "Nike"] } });
    cases.push({ type: "mentioned_brands", operator: { type: "equals", value: "oatly" } });
    cases.push({ type: "mentioned_brands", operator: { type: "contains", value: "star" } });
    for (const v of ["US", "GB"]) cases.push({ type: "country_code", values: [v] });
    for (const v of [true, false]) cases.push({ type: "has_media", value: v });
    for (const v of ["joy", "sadness", "anger", "neutral"]) cases.push({ type: "dominant_emotion", values: [v] });
    for (const f of cases) {
      for (const order of ["asc", "desc"]) {
        const body = { filters: [[f]], sort: "likes", order, limit: 100 };
        expect(
          (await all(body)).map((m) => `${m.source}:${m.id}`),
          JSON.stringify(f),
        ).toEqual(modelQuery(body));
      }
    }
  });

  it("every filter type selects something and excludes something on this corpus", async () => {
    const samples: any[] = [
      { type: "keyword", operator: "is", value: "love" },
      { type: "sentiment", values: ["positive"] },
      { type: "metric_change", metric: "likes", operator: { type: "greater_than", value: 1000 } },
      { type: "metric_change", metric: "views", operator: { type: "changed_by", value: 1 } },
      { type: "source", values: ["reddit"] },
      { type: "content_topic", operator: "any_of", values: ["milk"] },
      { type: "content_intention", operator: "any_of", values: ["complain"] },
      { type: "tone_of_voice", operator: "any_of", values: ["critical"] },
      { type: "hook", operator: "any_of", values: ["honestly"] },
      { type: "cta", operator: "any_of", values: ["subscribe"] },
      { type: "mentioned_brands", operator: { type: "contains", value: "o" } },
      { type: "country_code", values: ["GB"] },
      { type: "has_media", value: false },
      { type: "dominant_emotion", values: ["joy"] },
    ];
    for (const f of samples) {
      const n = (await all({ filters: [[f]], limit: 100 })).length;
      expect(n, JSON.stringify(f)).toBeGreaterThan(0);
      expect(n, JSON.stringify(f)).toBeLessThan(corpus.length);
    }
  });

  it("a cursor is bound to its sort and filters", async () => {
    const first = await t.call("POST", "/v1/mentions", { body: { sort: "likes", limit: 5 } });
    expect(first.json.has_next).toBe(true);
    const cursor = first.json.cursor;
    expect((await t.call("POST", "/v1/mentions", { body: { sort: "likes", limit: 5, cursor } })).status).toBe(200);
    for (const change of [
      { sort: "views" },
      { order: "asc" },
      { filters: [[{ type: "has_media", value: true }]] },
      { sources: ["reddit"] },
      { q: "oat" },
      { dataset_ids: [rich] },
    ]) {
      const res = await t.call("POST", "/v1/mentions", { body: { sort: "likes", limit: 5, cursor, ...change } });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.json.error_code).toBe("invalid_cursor");
    }
  });

  it("q searches text through the index (semantic is fuzzy/prefix, keyword is exact)", async () => {
    const exact = await all({ q: "disappointment", search_mode: "keyword", limit: 100 });
    expect(exact.length).toBeGreaterThan(0);
    expect(exact.every((m) => /disappointment/i.test(`${m.title} ${m.text}`))).toBe(true);
    const fuzzy = await all({ q: "disapointment", search_mode: "semantic", limit: 100 });
    expect(fuzzy.length).toBeGreaterThanOrEqual(exact.length);
    expect(await all({ q: "disapointment", search_mode: "keyword", limit: 100 })).toEqual([]);
    expect(await all({ q: "xylophone", limit: 100 })).toEqual([]);
  });

  it("post_refs resolve specific posts; unknown refs are simply absent", async () => {
    const picks = [corpus[3], corpus[10]];
    const res = await all({
      post_refs: [...picks.map((m) => ({ source: m.source, id: m.id })), { source: "reddit", id: "t3_nothere" }],
      limit: 100,
    });
    expect(res.map((m) => m.id).sort()).toEqual(picks.map((m) => m.id).sort());
  });

  it("scoping: foreign dataset ids are 404; another account sees only its own mentions", async () => {
    const res = await t.call("POST", "/v1/mentions", { body: { dataset_ids: [other] } });
    expect(res.status).toBe(404);
    expect(res.json.error_code).toBe("dataset_not_found");
    const b = await all({ limit: 100 }, KEYS.bOwner);
    expect(b.length).toBe(20);
    expect(b.every((m) => m.datasets.length === 1 && m.datasets[0].id === other)).toBe(true);
  });

  it("parameter_ids only include requested parameters (none computed yet)", async () => {
    const res = await t.call("POST", "/v1/mentions", { body: { limit: 3, parameter_ids: ["cp_x"] } });
    expect(res.json.data.every((m: any) => JSON.stringify(m.parameters) === "{}")).toBe(true);
  });
});
