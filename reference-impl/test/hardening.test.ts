// Hardening in process (app.request, ManualClock): bounded input, body size and
// media type, accurate edge answers, CORS, health, the served document's
// origin, the request log, and a body the client abandons.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readConfig } from "../src/config.ts";
import { MAX_BODY_BYTES } from "../src/platform/body-guards.ts";
import { createLogger } from "../src/platform/request-log.ts";
import { zMentionsSearchBody } from "../../generated/client/zod.gen.ts";
import { ALL_ACTIONS, createDataset, KEYS, makeApp, promptRun, runToCompletion } from "./helpers.ts";

const json = { "x-api-key": KEYS.aOwner, "content-type": "application/json" };

function captureLog() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ destination }) };
}

describe("bounded input", () => {
  it("refuses a q longer than 500 characters with 422 on q", async () => {
    const t = makeApp();
    const res = await t.call("POST", "/v1/mentions", { body: { q: "oat milk ".repeat(116_000) } });
    expect(res.status).toBe(422);
    expect(res.json.detail[0].loc).toEqual(["body", "q"]);
  });

  it("refuses a one-word keyword filter of 1 MiB-ish and more than 20 fragments", async () => {
    const t = makeApp();
    const keyword = await t.call("POST", "/v1/mentions", {
      body: { filters: [[{ type: "keyword", operator: "is", value: "x".repeat(100_000) }]] },
    });
    expect(keyword.status).toBe(422);
    const ds = await createDataset(t);
    const run = promptRun("oat milk");
    const fragments = await t.call("POST", `/v1/datasets/${ds}/runs`, {
      body: { ...run, search_query: { ...run.search_query, fragments: Array.from({ length: 21 }, (_, i) => `f${i}`) } },
    });
    expect(fragments.status).toBe(422);
    expect(fragments.json.detail[0].loc.slice(0, 3)).toEqual(["body", "search_query", "fragments"]);
  });

  it("keeps a run's fragments out of the stored posts (bounded and stored once)", async () => {
    const t = makeApp();
    const ds = await createDataset(t);
    const fragment = (i: number) => `fragment${i} ${"lorem ".repeat(32)}`.slice(0, 200);
    const run = promptRun("oat milk", 40);
    const fragments = Array.from({ length: 20 }, (_, i) => fragment(i));
    await runToCompletion(t, ds, { ...run, search_query: { ...run.search_query, fragments } });
    const res = await t.call("POST", "/v1/mentions", { body: { dataset_ids: [ds], limit: 100 } });
    expect(res.json.data.length).toBeGreaterThan(0);
    for (const m of res.json.data) {
      const stored = JSON.stringify([m.title, m.text, m.comments]);
      expect(stored).not.toContain("fragment3");
      expect(stored.length).toBeLessThan(6000);
    }
  });

  it("answers a reversed metric_change in_range with 422 naming the operator", async () => {
    const t = makeApp();
    const filters = [[{ type: "metric_change", metric: "likes", operator: { type: "in_range", min: 10, max: 1 } }]];
    const res = await t.call("POST", "/v1/mentions", { body: { filters } });
    expect(res.status).toBe(422);
    expect(res.json.detail[0].loc).toEqual(["body", "filters", "0", "0", "operator"]);
    const ok = await t.call("POST", "/v1/mentions", {
      body: { filters: [[{ ...filters[0]![0]!, operator: { type: "in_range", min: 1, max: 1 } }]] },
    });
    expect(ok.status).toBe(200);
  });

  it("refuses a date that does not exist (2026-02-30) in a run's date_range", async () => {
    const t = makeApp();
    const ds = await createDataset(t);
    const res = await t.call("POST", `/v1/datasets/${ds}/runs`, {
      body: promptRun("oat milk", 40, { date_range: { from: "2026-02-01", to: "2026-02-30" } }),
    });
    expect(res.status).toBe(422);
    expect(res.json.detail[0].loc).toEqual(["body", "date_range", "to"]);
  });

  it("accepts a missing body where the contract marks it optional", async () => {
    const t = makeApp();
    const ds = await createDataset(t);
    const search = await t.app.request("/v1/mentions", { method: "POST", headers: { "x-api-key": KEYS.aOwner } });
    expect(search.status).toBe(200);
    const patch = await t.app.request(`/v1/datasets/${ds}`, { method: "PATCH", headers: { "x-api-key": KEYS.aOwner } });
    expect(patch.status).toBe(200);
  });
});

describe("sliced search (no tenant stalls another)", () => {
  it("answers exactly what the one-piece search answers, page after page", async () => {
    const t = makeApp();
    const ds = await createDataset(t);
    await runToCompletion(t, ds, promptRun("oat milk barista", 200, { content_analysis_actions: ALL_ACTIONS }));
    await runToCompletion(t, ds, promptRun("running shoes review", 200, { content_analysis_actions: ALL_ACTIONS }));
    const caller = { account: t.directory.account("acc_demoA")!, seat: t.directory.account("acc_demoA")!.seats[0]! };
    const bodies = [
      { q: "oat milk", search_mode: "semantic" },
      { q: "running shoes", search_mode: "keyword" },
      { q: "barsta foam", search_mode: "semantic", sort: "likes" },
      { q: "zzzz unknownword", search_mode: "keyword" },
      {
        filters: [[{ type: "sentiment", values: ["positive"] }], [{ type: "has_media", value: true }]],
        sort: "views",
        order: "asc",
      },
      { filters: [[{ type: "keyword", operator: "is_not", value: "milk" }]], sort: "engagement_rate" },
      { sort: "comments", order: "desc" },
    ];
    for (const raw of bodies) {
      let body: any = zMentionsSearchBody.parse({ ...raw, limit: 7 });
      for (let page = 0; page < 4; page++) {
        const whole = t.services.mentionSearch.search(caller, body);
        const sliced = await t.services.mentionSearch.searchSliced(caller, body);
        expect(sliced, JSON.stringify(raw)).toEqual(whole);
        if (!whole.cursor) break;
        body = { ...body, cursor: whole.cursor };
      }
    }
  });
});

describe("body size and media type", () => {
  it("answers 413 from Content-Length before reading, with the envelope and RateLimit headers", async () => {
    const t = makeApp();
    let pulled = 0;
    const body = new ReadableStream({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const res = await t.app.request("/v1/mentions", {
      method: "POST",
      headers: { ...json, "content-length": String(50 * 1024 * 1024) },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      status: "client_error",
      error_code: "payload_too_large",
      detail: expect.any(String),
      transient: false,
    });
    expect(res.headers.get("ratelimit-limit")).toBeTruthy();
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("answers 413 for a chunked body once it passes 1 MiB", async () => {
    const t = makeApp();
    const chunk = new Uint8Array(256 * 1024).fill(32);
    let sent = 0;
    const body = new ReadableStream({
      pull(controller) {
        if (sent++ > 8) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const res = await t.app.request("/v1/mentions", {
      method: "POST",
      headers: { ...json, "transfer-encoding": "chunked" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error_code).toBe("payload_too_large");
    expect(sent).toBeLessThanOrEqual(Math.ceil(MAX_BODY_BYTES / chunk.length) + 2);
  });

  it("answers 415 for a body that is not declared as JSON, and accepts +json and charset", async () => {
    const t = makeApp();
    const send = (contentType: string | undefined) =>
      t.app.request("/v1/mentions", {
        method: "POST",
        headers: {
          "x-api-key": KEYS.aOwner,
          "content-length": "2",
          ...(contentType ? { "content-type": contentType } : {}),
        },
        body: "{}",
      });
    for (const bad of ["text/plain", "application/x-www-form-urlencoded", "application/jsonp"]) {
      const res = await send(bad);
      expect(res.status, bad).toBe(415);
      expect((await res.json()).error_code).toBe("unsupported_media_type");
    }
    for (const good of ["application/json", "application/json; charset=utf-8", "application/vnd.api+json"]) {
      expect((await send(good)).status, good).toBe(200);
    }
  });

  it("turns a body the client abandons into one 400, not a 500 with a stack", async () => {
    const errors: unknown[] = [];
    const t = makeApp({ logger: (e) => errors.push(e) });
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"q":"oat'));
        controller.error(new Error("aborted"));
      },
    });
    const res = await t.app.request("/v1/mentions", {
      method: "POST",
      headers: { ...json, "content-length": "40" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(400);
    expect((await res.json()).error_code).toBe("bad_request");
    expect(errors).toEqual([]);
  });
});

describe("edge answers", () => {
  it("says why limit=2.5 is refused (an integer is expected, a number was given)", async () => {
    const t = makeApp();
    const res = await t.call("GET", "/v1/datasets?limit=2.5");
    expect(res.status).toBe(422);
    expect(res.json.detail[0].loc).toEqual(["query", "limit"]);
    expect(res.json.detail[0].msg).not.toMatch(/received string/);
    expect(res.json.detail[0].msg).toMatch(/int/);
  });
});

describe("browser clients and operators", () => {
  it("answers a CORS preflight without a key and exposes the rate-limit headers", async () => {
    const t = makeApp({ corsOrigins: ["https://app.example.com"] });
    const res = await t.app.request("/v1/mentions", {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example.com",
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-api-key, content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(res.headers.get("access-control-allow-headers")).toMatch(/x-api-key/);
    const get = await t.app.request("/v1/prices", {
      headers: { "x-api-key": KEYS.aOwner, origin: "https://app.example.com" },
    });
    expect(get.headers.get("access-control-expose-headers")).toMatch(/RateLimit-Remaining/);
    const other = await t.app.request("/v1/prices", {
      headers: { "x-api-key": KEYS.aOwner, origin: "https://evil.example" },
    });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("serves /health without a key", async () => {
    const t = makeApp();
    const res = await t.app.request("/health");
    expect(res.status).toBe(200);
    expect((await res.json()).status).toBe("ok");
  });

  it("names the origin it was fetched from in /openapi.json (D-SERVERS)", async () => {
    const t = makeApp();
    const res = await t.app.request("http://localhost:4567/openapi.json");
    expect((await res.json()).servers).toEqual([expect.objectContaining({ url: "http://localhost:4567" })]);
  });

  it("logs one line per request with method, path, status, duration and account, never the key", async () => {
    const { lines, logger } = captureLog();
    const t = makeApp({ requestLogger: logger });
    await t.call("GET", "/v1/prices");
    await t.call("GET", "/v1/nowhere");
    await t.call("GET", "/v1/prices", { key: "sl_test_not_a_key" });
    logger.flush();
    const requests = lines.filter((l) => l.msg === "request");
    expect(requests).toHaveLength(3);
    expect(requests[0]).toMatchObject({
      method: "GET",
      path: "/v1/prices",
      status: 200,
      account: "acc_demoA",
      ms: expect.any(Number),
    });
    expect(requests[1]).toMatchObject({ status: 404 });
    expect(requests[2]).toMatchObject({ status: 401 });
    expect(requests[2]!.account).toBeUndefined();
    expect(JSON.stringify(lines)).not.toContain(KEYS.aOwner);
    expect(JSON.stringify(lines)).not.toContain("sl_test_not_a_key");
  });
});

describe("/v1/me usage adds up (D-ME-USAGE)", () => {
  const addsUp = (u: { balance: number; balance_used: number; balance_total: number }) =>
    Math.round((u.balance + u.balance_used) * 1e6) === Math.round(u.balance_total * 1e6);

  it("holds for every demo account, and while a reservation is held", async () => {
    const t = makeApp();
    for (const key of Object.values(KEYS)) {
      const me = await t.call("GET", "/v1/me", { key });
      expect(addsUp(me.json.data.usage), key).toBe(true);
    }
    const ds = await createDataset(t);
    const before = (await t.call("GET", "/v1/me")).json.data.usage;
    const run = await t.call("POST", `/v1/datasets/${ds}/runs`, { body: promptRun("oat milk", 200) });
    expect(run.status).toBe(202);
    const held = (await t.call("GET", "/v1/me")).json.data.usage;
    expect(addsUp(held)).toBe(true);
    expect(held.balance).toBeLessThan(before.balance);
    expect(held.balance_used).toBeGreaterThan(before.balance_used);
    await t.clock.runAll();
    const after = (await t.call("GET", "/v1/me")).json.data.usage;
    expect(addsUp(after)).toBe(true);
    expect(after.balance_total).toBeCloseTo(before.balance_total, 6);
  });
});

describe("configuration", () => {
  it("names each mistake on one line", () => {
    const read = readConfig({
      RATE_LIMIT_RPS: "abc",
      STEP_DELAY_MS: "-5",
      PORT: "70000",
      LOG_LEVEL: "loud",
      CORS_ORIGINS: "https://a.example/path",
    });
    expect(read.ok).toBe(false);
    const errors = read.ok ? [] : read.errors;
    expect(errors).toHaveLength(5);
    expect(errors.find((e) => e.startsWith("RATE_LIMIT_RPS=abc"))).toBeTruthy();
    expect(errors.find((e) => e.startsWith("STEP_DELAY_MS=-5"))).toBeTruthy();
    expect(errors.find((e) => e.startsWith("PORT=70000"))).toBeTruthy();
    for (const e of errors) expect(e).not.toContain("\n");
  });

  it("refuses a zero rate limit and takes --port and --quiet", () => {
    expect(readConfig({ RATE_LIMIT_RPS: "0" }).ok).toBe(false);
    const read = readConfig({}, ["--port", "4011", "--quiet"]);
    expect(read.ok && read.config.port).toBe(4011);
    expect(read.ok && read.config.logRequests).toBe(false);
    expect(readConfig({}, ["--bogus"]).ok).toBe(false);
  });
});
