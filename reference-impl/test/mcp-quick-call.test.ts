// The quick tools/call path (mcp/quick-call.ts) must answer exactly
// what the SDK path answers. Both run on one app: a Content-Type with a
// charset parameter is one the SDK accepts but the quick path leaves to the
// SDK, so the same message is sent once each way and the answers compared
// byte for byte (status, body, headers that matter).
import { describe, expect, it } from "vitest";
import { asQuickCall } from "../src/mcp/quick-call.ts";
import { createDataset, KEYS, makeApp, type TestApp } from "./helpers.ts";
import { raw } from "./mcp-helpers.ts";

const QUICK = { "content-type": "application/json" };
const SDK = { "content-type": "application/json; charset=utf-8" };

async function both(t: TestApp, message: unknown, auth = { key: KEYS.aOwner }) {
  const body = JSON.stringify(message);
  const quick = await raw(t, { auth, headers: QUICK, body });
  const sdk = await raw(t, { auth, headers: SDK, body });
  return { quick, sdk };
}

function expectSame(a: Awaited<ReturnType<typeof raw>>, b: Awaited<ReturnType<typeof raw>>) {
  expect(a.status).toBe(b.status);
  expect(a.text).toBe(b.text);
  for (const h of ["content-type", "ratelimit-limit", "mcp-session-id", "cache-control"])
    expect(a.headers.get(h)).toBe(b.headers.get(h));
}

describe("MCP quick tools/call path", () => {
  it("answers read tools, tool errors and argument errors with the SDK's exact bytes", async () => {
    const t = makeApp();
    const datasetId = await createDataset(t);
    const calls: [string, unknown][] = [
      ["svc__get_dataset", { dataset_id: datasetId }],
      ["svc__get_dataset", { dataset_id: "ds_missing" }],
      ["svc__get_dataset", { dataset_id: 42 }],
      ["svc__get_dataset", {}],
      ["svc__list_datasets", { limit: 1 }],
      ["svc__list_datasets", undefined],
      ["svc__get_me", {}],
      ["svc__list_mentions", { q: "oat milk", limit: 2 }],
      ["svc__no_such_tool", {}],
    ];
    for (const [id, [name, args]] of calls.entries()) {
      const params = args === undefined ? { name } : { name, arguments: args };
      for (const rpcId of [id, `s-${id}`]) {
        const { quick, sdk } = await both(t, { jsonrpc: "2.0", id: rpcId, method: "tools/call", params });
        expect(quick.status, `${name} ${JSON.stringify(args)}`).toBe(200);
        expectSame(quick, sdk);
      }
    }
  });

  it("leaves to the SDK every message it does not fully vouch for", () => {
    const headers = {
      accept: "application/json, text/event-stream",
      contentType: "application/json",
      protocolVersion: "2025-06-18",
    };
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "svc__get_me", arguments: {} } };
    const poll = "svc__get_message";
    expect(asQuickCall(call, headers, poll)).toEqual({ id: 1, name: "svc__get_me", arguments: {} });
    const refused: [string, unknown, typeof headers][] = [
      ["batch", [call], headers],
      ["other method", { ...call, method: "tools/list" }, headers],
      ["extra key", { ...call, extra: 1 }, headers],
      ["_meta", { ...call, params: { ...call.params, _meta: { progressToken: 1 } } }, headers],
      ["task", { ...call, params: { ...call.params, task: {} } }, headers],
      ["float id", { ...call, id: 1.5 }, headers],
      ["null id", { ...call, id: null }, headers],
      ["no id (notification)", { jsonrpc: "2.0", method: "tools/call", params: call.params }, headers],
      ["array arguments", { ...call, params: { name: "svc__get_me", arguments: [] } }, headers],
      ["name not a string", { ...call, params: { name: 7 } }, headers],
      ["jsonrpc 1.0", { ...call, jsonrpc: "1.0" }, headers],
      ["long poll", { ...call, params: { name: poll, arguments: {} } }, headers],
      ["accept without SSE", call, { ...headers, accept: "application/json" }],
      ["content type with parameters", call, { ...headers, contentType: "application/json; charset=utf-8" }],
      ["unsupported protocol version", call, { ...headers, protocolVersion: "1999-01-01" }],
    ];
    for (const [why, message, h] of refused) expect(asQuickCall(message, h, poll), why).toBeUndefined();
  });

  it("keeps the transport's own refusals for headers the quick path would not check", async () => {
    const t = makeApp();
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "svc__get_me", arguments: {} },
    });
    const wrongAccept = await raw(t, {
      auth: { key: KEYS.aOwner },
      headers: { ...QUICK, accept: "application/json" },
      body,
    });
    expect(wrongAccept.status).toBe(406);
    const oldVersion = await raw(t, {
      auth: { key: KEYS.aOwner },
      headers: { ...QUICK, "mcp-protocol-version": "1999-01-01" },
      body,
    });
    expect(oldVersion.status).toBe(400);
  });
});
