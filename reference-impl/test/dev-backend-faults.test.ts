// Faults on demand (D-REF-FAULTS): every kind a client can ask for with
// `Prefer: fault=KIND` (or get from seeded `--faults` rates) answers a failure
// the contract documents for that operation — code and status through the
// contract guard, body through the generated zod of that status — and leaves
// lists, balance and usage history exactly as they were (a failed run: the
// run exists, failed, with its reservation refunded in full).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Contract } from "../../conformance/src/contract.ts";
import { readConfig } from "../src/config.ts";
import { parseFaults } from "../src/platform/faults.ts";
import { startServer, type RunningServer } from "../src/server.ts";
import { assertDocumentedError } from "./contract-guard.ts";
import { createDataset, KEYS, makeApp, runToCompletion, type TestApp } from "./helpers.ts";

const contract = Contract.load();

/** One request with extra headers, checked by the contract guard and the generated zod of its status. */
async function send(t: TestApp, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const h: Record<string, string> = { "x-api-key": KEYS.aOwner, ...headers };
  if (body !== undefined) h["content-type"] = "application/json";
  const res = await t.app.request(path, {
    method,
    headers: h,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : undefined;
  assertDocumentedError(method, path, res.status, json);
  const op = contract.match(method, path);
  if (!op) throw new Error(`no operation for ${method} ${path}`);
  const spec = op.responses.get(String(res.status));
  if (!spec) throw new Error(`${op.operationId} documents no ${res.status}`);
  if (spec.zod) {
    const parsed = spec.zod.safeParse(json);
    if (!parsed.success)
      throw new Error(`${op.operationId} ${res.status} body breaks the contract: ${parsed.error.message}\n${text}`);
  }
  return { status: res.status, headers: res.headers, json };
}

/** Everything a fault must not change: lists, balance, usage history. */
async function observe(t: TestApp, datasetId: string) {
  const get = async (path: string) => (await t.call("GET", path)).json;
  return {
    datasets: await get("/v1/datasets?limit=100"),
    runs: await get(`/v1/datasets/${datasetId}/runs?limit=100`),
    me: (await get("/v1/me")).data.usage,
    usage: await get("/v1/me/usage_history?limit=100"),
    previews: t.services.tables.previews.live("acc_demoA").length,
    chats: t.services.assistant.chats.live("acc_demoA").length,
    patterns: t.services.tables.patternDetections.live("acc_demoA").length,
  };
}

const RUN_BODY = {
  search_query: { type: "prompt", sources: ["reddit"], search_query: "oat milk" },
  count: 20,
  num_comments_per_post: 0,
};

describe("Prefer: fault=KIND answers a documented failure and leaves no trace", () => {
  let t: TestApp;
  let datasetId: string;
  beforeAll(async () => {
    t = makeApp();
    datasetId = await createDataset(t, "Fault target");
    await runToCompletion(t, datasetId, RUN_BODY);
  });

  const cases: {
    name: string;
    method: string;
    path: () => string;
    body?: () => unknown;
    fault: string;
    status: number;
    code: string;
  }[] = [
    {
      name: "429 on a list",
      method: "GET",
      path: () => "/v1/datasets",
      fault: "429",
      status: 429,
      code: "too_many_requests",
    },
    {
      name: "429 on a run",
      method: "POST",
      path: () => `/v1/datasets/${datasetId}/runs`,
      body: () => RUN_BODY,
      fault: "429",
      status: 429,
      code: "too_many_requests",
    },
    {
      name: "500 on a create",
      method: "POST",
      path: () => "/v1/datasets",
      body: () => ({ name: "never" }),
      fault: "500",
      status: 500,
      code: "internal_server_error",
    },
    {
      name: "5xx on a run (its 500)",
      method: "POST",
      path: () => `/v1/datasets/${datasetId}/runs`,
      body: () => RUN_BODY,
      fault: "5xx",
      status: 500,
      code: "internal_server_error",
    },
    {
      name: "5xx on ask (its 503)",
      method: "POST",
      path: () => "/v1/ask",
      body: () => ({ message: "What do people say?" }),
      fault: "5xx",
      status: 503,
      code: "ai_assistant_unavailable",
    },
    {
      name: "503 on ask",
      method: "POST",
      path: () => "/v1/ask",
      body: () => ({ message: "What do people say?" }),
      fault: "503",
      status: 503,
      code: "ai_assistant_unavailable",
    },
    {
      name: "504 on ask",
      method: "POST",
      path: () => "/v1/ask",
      body: () => ({ message: "What do people say?" }),
      fault: "504",
      status: 504,
      code: "ai_assistant_timeout",
    },
    {
      name: "timeout on ask (its 504)",
      method: "POST",
      path: () => "/v1/ask",
      body: () => ({ message: "What do people say?" }),
      fault: "timeout",
      status: 504,
      code: "ai_assistant_timeout",
    },
    {
      name: "402 on a dataset run",
      method: "POST",
      path: () => `/v1/datasets/${datasetId}/runs`,
      body: () => RUN_BODY,
      fault: "402",
      status: 402,
      code: "insufficient_credits_dataset_run",
    },
    {
      name: "402 on ask",
      method: "POST",
      path: () => "/v1/ask",
      body: () => ({ message: "What do people say?" }),
      fault: "402",
      status: 402,
      code: "insufficient_credits_ask",
    },
    {
      name: "402 on a research preview",
      method: "POST",
      path: () => "/v1/research_previews",
      body: () => ({
        type: "prompt",
        sources: ["reddit", "tiktok"],
        search_query: "oat milk",
        time_filter: "past_month",
      }),
      fault: "402",
      status: 402,
      code: "insufficient_credits_research_preview",
    },
    {
      name: "402 on a pattern detection",
      method: "POST",
      path: () => "/v1/pattern_detections",
      body: () => ({ dataset_id: datasetId, name: "p", research_question: "Why oat milk?" }),
      fault: "402",
      status: 402,
      code: "insufficient_credits_pattern_detection",
    },
  ];

  for (const c of cases) {
    it(`${c.name}: ${c.status} ${c.code}, state and ledger untouched`, async () => {
      const before = await observe(t, datasetId);
      const res = await send(t, c.method, c.path(), { prefer: `fault=${c.fault}` }, c.body?.());
      expect(res.status).toBe(c.status);
      expect(res.json.error_code).toBe(c.code);
      expect(res.headers.get("preference-applied")).toBe(`fault=${c.fault}`);
      if (c.status === 429) {
        expect(res.headers.get("retry-after")).toBe("1");
        expect(res.json.retry_after_seconds).toBe(1);
        expect(res.headers.get("ratelimit-remaining")).toBe("0");
      }
      if (c.status === 402) {
        // The real amounts: what this request would reserve, and the real balance.
        expect(Number(res.json.detail.available)).toBe(Number(before.me.balance));
        expect(Number(res.json.detail.required)).toBeGreaterThan(0);
      }
      await t.clock.runAll();
      expect(await observe(t, datasetId)).toEqual(before);
    });
  }

  it("run-failed: the run this request starts fails with error_message and a full refund", async () => {
    const before = await observe(t, datasetId);
    const res = await send(t, "POST", `/v1/datasets/${datasetId}/runs`, { prefer: "fault=run-failed" }, RUN_BODY);
    expect(res.status).toBe(202);
    expect(res.headers.get("preference-applied")).toBe("fault=run-failed");
    await t.clock.runAll();
    const run = await send(t, "GET", `/v1/datasets/${datasetId}/runs/${res.json.data.id}`, {});
    expect(run.json.data.status.type).toBe("failed");
    expect(run.json.data.status.error_message).toMatch(/Injected fault/);
    expect(run.json.data.mentions_count).toBe(0);
    const after = await observe(t, datasetId);
    expect(after.me).toEqual(before.me);
    expect(after.usage).toEqual(before.usage);
    expect(after.runs.data).toHaveLength(before.runs.data.length + 1);
    // The next request without the header runs normally.
    const next = await send(t, "POST", `/v1/datasets/${datasetId}/runs`, {}, RUN_BODY);
    await t.clock.runAll();
    expect(
      (await send(t, "GET", `/v1/datasets/${datasetId}/runs/${next.json.data.id}`, {})).json.data.status.type,
    ).toBe("completed");
  });

  it("run-failed on ask: the turn fails, nothing is charged", async () => {
    const before = await observe(t, datasetId);
    const res = await send(
      t,
      "POST",
      "/v1/ask",
      { prefer: "fault=run-failed" },
      { message: "What do people say about oat milk?" },
    );
    expect(res.status).toBe(202);
    await t.clock.runAll();
    const { chat_id, message_id } = res.json.data;
    const reply = await send(t, "GET", `/v1/chats/${chat_id}/messages/${message_id}`, {});
    expect(reply.json.data.status).toBe("failed");
    const after = await observe(t, datasetId);
    expect(after.me).toEqual(before.me);
    expect(after.usage).toEqual(before.usage);
  });

  it("the injected work ends with its request: a timer the handler set does not inherit it", async () => {
    const { Hono } = await import("hono");
    const { faults, injectedRunFailure } = await import("../src/platform/faults.ts");
    const app = new Hono();
    const seen: (string | undefined)[] = [];
    let later: Promise<void> | undefined;
    app.use("*", faults({}));
    app.post("/v1/datasets/:id/runs", (c) => {
      seen.push(injectedRunFailure());
      later = new Promise((resolve) => setTimeout(() => resolve(void seen.push(injectedRunFailure())), 20));
      return c.json({}, 202);
    });
    await app.request("/v1/datasets/ds_1/runs", { method: "POST", headers: { prefer: "fault=run-failed" } });
    await later;
    expect(seen).toEqual([expect.stringMatching(/Injected fault/), undefined]);
  });

  it("a kind the operation does not document is ignored: the normal answer, no Preference-Applied", async () => {
    const res = await send(t, "GET", "/v1/datasets", { prefer: "fault=503" });
    expect(res.status).toBe(200);
    expect(res.headers.get("preference-applied")).toBeNull();
    const unknown = await send(t, "GET", "/v1/datasets", { prefer: "fault=teapot" });
    expect(unknown.status).toBe(200);
  });

  it("a real 401 still wins over an asked fault", async () => {
    const res = await t.app.request("/v1/datasets", { headers: { prefer: "fault=500", "x-api-key": "nope" } });
    expect(res.status).toBe(401);
  });
});

describe("every operation of the contract, every kind it documents", () => {
  it("answers the documented failure, conforming to the generated zod, and changes nothing", async () => {
    const t = makeApp();
    const { tablesOf } = await import("../src/persistence/image.ts");
    const fingerprint = () =>
      JSON.stringify({
        ledger: t.services.ledger.snapshot(),
        tables: Object.fromEntries(
          Object.entries(tablesOf(t.services)).map(([name, table]) => [name, table.everyRow().length]),
        ),
        mentions: [...t.services.directory.all()].map((a) => t.services.mentions(a.id).size),
      });
    const before = fingerprint();
    let answered = 0;
    for (const op of contract.operations) {
      if (!op.path.startsWith("/v1")) continue;
      const path = op.path.replace(/\{[^}]+\}/g, "x_1");
      for (const kind of ["429", "500", "503", "504", "5xx"]) {
        const status = kind === "5xx" ? undefined : Number(kind);
        const documented = [...op.responses.keys()].map(Number);
        if (status !== undefined && !documented.includes(status)) continue;
        const res = await send(
          t,
          op.method,
          path,
          { prefer: `fault=${kind}` },
          ["POST", "PATCH"].includes(op.method) ? {} : undefined,
        );
        expect(res.status, `${op.operationId} fault=${kind}`).toBe(status ?? (documented.includes(503) ? 503 : 500));
        expect(res.headers.get("preference-applied")).toBe(`fault=${kind}`);
        answered++;
      }
    }
    expect(answered).toBeGreaterThan(49 * 3);
    expect(fingerprint()).toEqual(before);
  });
});

describe("seeded --faults rates", () => {
  const statuses = async (seed: number) => {
    const t = makeApp({ faults: { rates: { "429": 0.3, "500": 0.2 }, seed } });
    const out: number[] = [];
    for (let i = 0; i < 40; i++) out.push((await send(t, "GET", "/v1/datasets", {})).status);
    return out;
  };

  it("the same seed gives the same sequence; only the configured kinds appear", async () => {
    const a = await statuses(7);
    expect(await statuses(7)).toEqual(a);
    expect(await statuses(8)).not.toEqual(a);
    expect(new Set(a)).toEqual(new Set([200, 429, 500]));
  });

  it("kinds an operation does not document are never injected into it", async () => {
    const t = makeApp({ faults: { rates: { "503": 1, "402": 1 }, seed: 1 } });
    for (let i = 0; i < 10; i++) expect((await send(t, "GET", "/v1/datasets", {})).status).toBe(200);
    // Both apply to ask; the first drawn that hits wins.
    expect([402, 503]).toContain((await send(t, "POST", "/v1/ask", {}, { message: "hello there" })).status);
  });

  it("parses and rejects rate lists with one clear line", () => {
    expect(parseFaults("429:0.02,503:0.01,timeout:0.005")).toEqual({
      ok: true,
      rates: { "429": 0.02, "503": 0.01, timeout: 0.005 },
    });
    expect(parseFaults("418:0.1")).toMatchObject({ ok: false, error: expect.stringMatching(/unknown kind 418/) });
    expect(parseFaults("429:2")).toMatchObject({ ok: false, error: expect.stringMatching(/between 0 and 1/) });
    expect(readConfig({ FAULTS: "429" })).toMatchObject({ ok: false, errors: [expect.stringMatching(/^FAULTS=/)] });
  });

  it("the assistant's #simulate: phrase answers through the same mechanism", async () => {
    const t = makeApp();
    const res = await send(t, "POST", "/v1/ask", {}, { message: "hello #simulate:ai_assistant_timeout" });
    expect(res.status).toBe(504);
    expect(res.json.detail).toMatch(/Injected fault/);
  });
});

describe("timeout on a real socket", () => {
  let server: RunningServer;
  beforeAll(async () => {
    const read = readConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_REQUESTS: "false",
      LOG_LEVEL: "silent",
      FAULT_TIMEOUT_MS: "200",
      SCENARIO: "empty",
    });
    if (!read.ok) throw new Error(read.errors.join("; "));
    server = await startServer(read.config);
  });
  afterAll(() => server.close());

  it("holds the request, then drops the connection without an answer or a change", async () => {
    const started = Date.now();
    await expect(
      fetch(`${server.url}/v1/datasets`, {
        method: "POST",
        headers: { "x-api-key": KEYS.aOwner, prefer: "fault=timeout", "content-type": "application/json" },
        body: JSON.stringify({ name: "x" }),
      }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    const list = await fetch(`${server.url}/v1/datasets`, { headers: { "x-api-key": KEYS.aOwner } });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { data: { name: string }[] }).data.some((d) => d.name === "x")).toBe(false);
  });
});
