import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDataset, makeApp, promptRun } from "./helpers.ts";

const issue = { loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) };

describe("validation (generated zod, 422 validation body)", () => {
  it("malformed JSON is a 422 with loc [body]", async () => {
    const t = makeApp();
    const res = await t.call("POST", "/v1/datasets", { raw: '{"name": ' });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ detail: [{ loc: ["body"], msg: expect.any(String), type: "json_invalid" }] });
  });

  it("missing and out-of-bounds fields name their location", async () => {
    const t = makeApp();
    const missing = await t.call("POST", "/v1/datasets", { body: {} });
    expect(missing.status).toBe(422);
    expect(missing.json.detail).toEqual([{ loc: ["body", "name"], msg: expect.any(String), type: "missing" }]);
    const long = await t.call("POST", "/v1/datasets", { body: { name: "x".repeat(256) } });
    expect(long.status).toBe(422);
    expect(long.json.detail[0]).toMatchObject({ loc: ["body", "name"], type: "too_big" });
    expect((await t.call("POST", "/v1/datasets", { body: { name: "" } })).status).toBe(422);
    expect((await t.call("POST", "/v1/datasets", { body: { name: "x".repeat(255) } })).status).toBe(201);
  });

  it("query strings are coerced by the OpenAPI parameter types before zod", async () => {
    const t = makeApp();
    for (let i = 0; i < 3; i++) {
      await createDataset(t, `d${i}`);
      await t.clock.advance(10);
    }
    const ok = await t.call("GET", "/v1/datasets?limit=2&order=asc");
    expect(ok.status).toBe(200);
    expect(ok.json.data.map((d: any) => d.name)).toEqual(["d0", "d1"]);
    for (const q of ["limit=0", "limit=101", "limit=abc", "limit=2.5", "order=sideways", "limit=1&limit=2"]) {
      const res = await t.call("GET", `/v1/datasets?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.json.detail[0]).toEqual(issue);
      expect(res.json.detail[0].loc[0]).toBe("query");
    }
  });

  it("dataset run bounds come from the generated schema", async () => {
    const t = makeApp();
    const id = await createDataset(t);
    const cases: [string, unknown][] = [
      ["count 19", promptRun("oat milk", 19)],
      ["count 1001", promptRun("oat milk", 1001)],
      ["comments 101", promptRun("oat milk", 20, { num_comments_per_post: 101 })],
      ["query 5001", { search_query: { type: "prompt", sources: ["reddit"], search_query: "x".repeat(5001) } }],
      ["unknown source", { search_query: { type: "prompt", sources: ["myspace"], search_query: "x" } }],
      [
        "101 urls",
        {
          search_query: {
            type: "url",
            source_urls: Array.from({ length: 101 }, (_, i) => ({
              source: "reddit",
              url: `https://www.reddit.com/r/a/comments/${i}/`,
            })),
          },
        },
      ],
      ["unknown action", promptRun("oat milk", 20, { content_analysis_actions: ["mind_reading"] })],
      ["reversed date_range", promptRun("oat milk", 20, { date_range: { from: "2026-05-01", to: "2026-04-01" } })],
      ["impossible date", promptRun("oat milk", 20, { date_range: { from: "2026-02-30", to: "2026-04-01" } })],
      ["unknown type", { search_query: { type: "vibes" } }],
    ];
    for (const [name, body] of cases) {
      const res = await t.call("POST", `/v1/datasets/${id}/runs`, { body });
      expect(res.status, name).toBe(422);
      expect(Array.isArray(res.json.detail), name).toBe(true);
      expect(res.json.detail[0].loc[0], name).toBe("body");
    }
    // Nothing was created or reserved by any of them.
    expect((await t.call("GET", `/v1/datasets/${id}/runs`)).json.data).toEqual([]);
  });

  it("a date range longer than the plan allows is 422 date_filter_unavailable", async () => {
    const t = makeApp();
    const id = await createDataset(t);
    const res = await t.call("POST", `/v1/datasets/${id}/runs`, {
      body: promptRun("oat milk", 20, { date_range: { from: "2020-01-01", to: "2026-01-01" } }),
    });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ status: "client_error", error_code: "date_filter_unavailable", transient: false });
  });

  it("mentions: more than 10 filters in total is a 422; bad filter shapes too", async () => {
    const t = makeApp();
    const f = { type: "has_media", value: true };
    const eleven = await t.call("POST", "/v1/mentions", { body: { filters: [Array(6).fill(f), Array(5).fill(f)] } });
    expect(eleven.status).toBe(422);
    expect(eleven.json.detail[0].loc).toEqual(["body", "filters"]);
    expect(
      (await t.call("POST", "/v1/mentions", { body: { filters: [Array(5).fill(f), Array(5).fill(f)] } })).status,
    ).toBe(200);
    expect(
      (
        await t.call("POST", "/v1/mentions", {
          body: { filters: [[{ type: "keyword", operator: "is", value: "three word phrase" }]] },
        })
      ).status,
    ).toBe(422);
    expect((await t.call("POST", "/v1/mentions", { body: { filters: [[{ type: "telepathy" }]] } })).status).toBe(422);
    expect((await t.call("POST", "/v1/mentions", { body: { sort: "vibes" } })).status).toBe(422);
    expect((await t.call("POST", "/v1/mentions", { body: { limit: 101 } })).status).toBe(422);
  });

  it("no client input produces a 5xx", async () => {
    const t = makeApp();
    const id = await createDataset(t);
    const junk = [
      "null",
      "[]",
      "1",
      '"s"',
      '{"name": {}}',
      '{"search_query": null}',
      "\u0000",
      '{"filters": [[null]]}',
    ];
    for (const path of ["/v1/datasets", `/v1/datasets/${id}/runs`, "/v1/mentions"]) {
      for (const raw of junk) {
        const res = await t.call("POST", path, { raw });
        expect(res.status, `${path} ${raw}`).toBeLessThan(500);
      }
    }
    for (const raw of junk) expect((await t.call("PATCH", `/v1/datasets/${id}`, { raw })).status).toBeLessThan(500);
  });

  it("property: arbitrary JSON bodies and query strings never produce a 5xx", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const id = await createDataset(t);
    const filterish = fc.record(
      {
        type: fc.constantFrom("keyword", "sentiment", "metric_change", "mentioned_brands", "has_media", "source"),
        operator: fc.jsonValue(),
        value: fc.jsonValue(),
        values: fc.jsonValue(),
        metric: fc.jsonValue(),
      },
      { requiredKeys: ["type"] },
    );
    const bodies = fc.oneof(
      fc.jsonValue(),
      fc.record({ name: fc.jsonValue() }),
      fc.record(
        {
          search_query: fc.oneof(
            fc.jsonValue(),
            fc.record({
              type: fc.constantFrom("prompt", "url"),
              sources: fc.jsonValue(),
              search_query: fc.jsonValue(),
              source_urls: fc.jsonValue(),
            }),
          ),
          count: fc.jsonValue(),
          date_range: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          filters: fc.oneof(fc.jsonValue(), fc.array(fc.array(filterish, { maxLength: 3 }), { maxLength: 3 })),
          sort: fc.jsonValue(),
          cursor: fc.oneof(fc.string(), fc.jsonValue()),
          q: fc.jsonValue(),
          post_refs: fc.jsonValue(),
          dataset_ids: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        bodies,
        fc.constantFrom("/v1/datasets", `/v1/datasets/${id}/runs`, "/v1/mentions", `/v1/datasets/${id}`),
        async (body, path) => {
          const res = await t.call(path.endsWith(id) ? "PATCH" : "POST", path, { raw: JSON.stringify(body) });
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom("limit", "cursor", "order", "x"), fc.string()),
        fc.constantFrom("/v1/datasets", `/v1/datasets/${id}/runs`, "/v1/me/usage_history"),
        async (query, path) => {
          const res = await t.call("GET", `${path}?${new URLSearchParams(query).toString()}`);
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 200 },
    );
  });
});
