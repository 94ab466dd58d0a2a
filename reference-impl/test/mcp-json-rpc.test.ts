// JSON-RPC 2.0 on the MCP endpoint (D-REF-MCP-JSONRPC, D-REF-MCP-BATCH): a
// client mistake is -32700, -32600, -32601 or -32602 with a short message
// naming the field, never -32603 with a zod dump; batches follow JSON-RPC 2.0
// under MCP 2025-03-26 (or no version header) and are one Invalid Request
// under the versions that removed them. Property runs print their seed
// (replay with FC_SEED).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KEYS, makeApp, type TestApp } from "./helpers.ts";
import { raw } from "./mcp-helpers.ts";

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`mcp-json-rpc properties: fast-check seed ${SEED} (rerun with FC_SEED=${SEED})`);

const auth = { key: KEYS.aOwner };
const post = (t: TestApp, body: unknown, headers: Record<string, string> = {}) =>
  raw(t, { auth, body: typeof body === "string" ? body : JSON.stringify(body), headers });
const v0326 = { "mcp-protocol-version": "2025-03-26" };
const call = (id: unknown, name: unknown, args?: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: args === undefined ? { name } : { name, arguments: args },
});
const init = (params: unknown) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  ...(params === undefined ? {} : { params }),
});
const goodInit = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } };

describe("JSON-RPC errors of single messages", () => {
  it("a broken envelope is -32600 Invalid Request with HTTP 400", async () => {
    const t = makeApp({ rateLimitPerSecond: 10_000 });
    const cases: [unknown, string][] = [
      [42, "object"],
      [{ id: 1, method: "ping" }, "jsonrpc"],
      [{ jsonrpc: "1.0", id: 1, method: "ping" }, "jsonrpc"],
      [{ jsonrpc: "2.0", id: 1.5, method: "ping" }, "id"],
      [{ jsonrpc: "2.0", id: { x: 1 }, method: "ping" }, "id"],
      [{ jsonrpc: "2.0", id: 1, method: 7 }, "method"],
      [{ jsonrpc: "2.0", id: 1 }, "method"],
    ];
    for (const [body, field] of cases) {
      const res = await post(t, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code, JSON.stringify(body)).toBe(-32600);
      expect(res.json.error.message).toContain(field);
    }
    // The id is echoed when it could be read.
    expect((await post(t, { jsonrpc: "1.0", id: "x1", method: "ping" })).json.id).toBe("x1");
  });

  it("an unknown method is -32601 naming it", async () => {
    const t = makeApp();
    const res = await post(t, { jsonrpc: "2.0", id: 9, method: "resources/list" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      jsonrpc: "2.0",
      id: 9,
      error: { code: -32601, message: "Method not found: resources/list" },
    });
  });

  it("params the method refuses are -32602 naming the field, never -32603", async () => {
    const t = makeApp({ rateLimitPerSecond: 10_000 });
    const cases: [unknown, string][] = [
      [call(1, "svc__get_me", []), "params.arguments"],
      [call(2, 42, {}), "params.name"],
      [{ jsonrpc: "2.0", id: 3, method: "tools/call" }, "params"],
      [init(undefined), "params"],
      [init({ ...goodInit, capabilities: [] }), "params.capabilities"],
      [init({ ...goodInit, clientInfo: "me" }), "params.clientInfo"],
      [init({ ...goodInit, protocolVersion: 20250618 }), "params.protocolVersion"],
      [{ jsonrpc: "2.0", id: 4, method: "tools/list", params: { cursor: 5 } }, "params.cursor"],
    ];
    for (const [body, field] of cases) {
      const res = await post(t, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.json.error.code, JSON.stringify(body)).toBe(-32602);
      expect(res.json.error.message.startsWith(`Invalid params: ${field}`), res.json.error.message).toBe(true);
      expect(res.json.error.message.length).toBeLessThan(300);
    }
  });

  it("valid messages still reach the protocol: initialize, tools/call, a notification", async () => {
    const t = makeApp();
    expect((await post(t, init(goodInit))).json.result.serverInfo.name).toBeTruthy();
    expect((await post(t, call(5, "svc__get_me", {}))).json.result.isError).toBeUndefined();
    expect((await post(t, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
    // A notification is never answered, whatever its params.
    expect((await post(t, { jsonrpc: "2.0", method: "notifications/initialized", params: [1] })).status).toBe(202);
  });

  it("property: any JSON body gets a JSON-RPC answer or a 202, never -32603 nor a 5xx", async () => {
    const t = makeApp({ rateLimitPerSecond: 1_000_000 });
    const message = fc.oneof(
      fc.jsonValue(),
      fc.record({
        jsonrpc: fc.oneof(fc.constant("2.0"), fc.jsonValue()),
        id: fc.oneof(fc.integer(), fc.string(), fc.jsonValue()),
        method: fc.oneof(fc.constantFrom("initialize", "ping", "tools/list", "tools/call", "nope"), fc.jsonValue()),
        params: fc.oneof(fc.jsonValue(), fc.record({ name: fc.jsonValue(), arguments: fc.jsonValue() })),
      }),
    );
    await fc.assert(
      fc.asyncProperty(message, fc.boolean(), async (body, batch) => {
        const res = await post(t, batch ? [body] : body, batch ? v0326 : {});
        expect(res.status).toBeLessThan(500);
        const answers = Array.isArray(res.json) ? res.json : res.json ? [res.json] : [];
        for (const a of answers) if (a.error) expect(a.error.code).not.toBe(-32603);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});

describe("JSON-RPC batches", () => {
  it("under MCP 2025-06-18 and 2025-11-25 a batch is one -32600 Invalid Request", async () => {
    const t = makeApp();
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const res = await post(t, [call(1, "svc__get_me", {})], { "mcp-protocol-version": version });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
      expect(res.json.error.message).toContain(version);
    }
  });

  it("under 2025-03-26 (or no version header) every request is answered in one array, notifications are not", async () => {
    const t = makeApp({ rateLimitPerSecond: 10_000 });
    const batch = [{ jsonrpc: "2.0", method: "notifications/initialized" }, call("a", "svc__get_me", {})];
    const withHeader = await post(t, batch, v0326);
    // Without MCP-Protocol-Version the transport rules say to assume 2025-03-26.
    const withoutHeader = await t.app.request("http://localhost/mcp/", {
      method: "POST",
      headers: {
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        "x-api-key": KEYS.aOwner,
      },
      body: JSON.stringify(batch),
    });
    for (const [status, json] of [
      [withHeader.status, withHeader.json],
      [withoutHeader.status, await withoutHeader.json()],
    ]) {
      expect(status).toBe(200);
      expect(Array.isArray(json)).toBe(true);
      expect(json).toHaveLength(1);
      expect(json[0].id).toBe("a");
    }
    const dupes = await post(t, [call(7, "svc__get_me", {}), call(7, "svc__list_datasets", {})], v0326);
    expect(dupes.json).toHaveLength(2);
    expect(dupes.json.map((a: any) => a.id)).toEqual([7, 7]);
    const onlyNotes = await post(t, [{ jsonrpc: "2.0", method: "notifications/initialized" }], v0326);
    expect(onlyNotes.status).toBe(202);
    expect(onlyNotes.text).toBe("");
  });

  it("an empty batch is one Invalid Request; broken entries and initialize get their own errors", async () => {
    const t = makeApp({ rateLimitPerSecond: 10_000 });
    const empty = await post(t, [], v0326);
    expect(empty.status).toBe(400);
    expect(empty.json).toMatchObject({ id: null, error: { code: -32600 } });
    const mixed = await post(
      t,
      [1, init(goodInit), call(3, "svc__get_me", []), { jsonrpc: "2.0", id: 4, method: "ping" }],
      v0326,
    );
    expect(mixed.status).toBe(200);
    expect(mixed.json.map((a: any) => [a.id, a.error?.code ?? "ok"])).toEqual([
      [null, -32600],
      [1, -32600],
      [3, -32602],
      [4, "ok"],
    ]);
  });

  it("a batch counts once per message against the key's bucket", async () => {
    const t = makeApp({ rateLimitPerSecond: 5 });
    const ok = await post(
      t,
      [1, 2, 3, 4, 5].map((i) => call(i, "svc__get_me", {})),
      v0326,
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get("ratelimit-remaining")).toBe("0");
    await t.clock.advance(1000);
    const over = await post(
      t,
      [1, 2, 3, 4, 5, 6].map((i) => call(i, "svc__get_me", {})),
      v0326,
    );
    expect(over.status).toBe(429);
    expect(over.json).toMatchObject({ error_code: "too_many_requests" });
    expect(over.headers.get("retry-after")).not.toBeNull();
  });
});
