// MCP test harness: the SDK's own client speaking to the app in process
// (its fetch goes through app.request, no socket), and a raw JSON-RPC POST for
// the HTTP-level rules the SDK hides (it follows 307s and turns 401/429 into
// exceptions).
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "vitest";
import type { TestApp } from "./helpers.ts";

export const MCP_URL = "http://localhost/mcp/";

const demo = JSON.parse(readFileSync(new URL("../../fixtures/demo-keys.json", import.meta.url), "utf8")) as {
  bearer_tokens: { access_token: string; account_id: string; user_id: string }[];
};
const token = (account: string, user: string) =>
  demo.bearer_tokens.find((k) => k.account_id === account && k.user_id === user)!.access_token;

export const TOKENS = {
  aOwner: token("acc_demoA", "usr_a_owner"),
  aMember: token("acc_demoA", "usr_a_member"),
  bOwner: token("acc_demoB", "usr_b_owner"),
};

export interface Credentials {
  key?: string;
  bearer?: string;
}

function authHeaders(auth: Credentials): Record<string, string> {
  const h: Record<string, string> = {};
  if (auth.key !== undefined) h["x-api-key"] = auth.key;
  if (auth.bearer !== undefined) h.authorization = `Bearer ${auth.bearer}`;
  return h;
}

/** A connected SDK client (initialize + initialized + nothing else). */
export async function connect(t: TestApp, auth: Credentials, url = MCP_URL): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: async (input, init) => t.app.request(String(input), init),
    requestInit: { headers: authHeaders(auth) },
  });
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** The JSON of a tool result's single text content. */
export function textJson(result: unknown): any {
  const content = (result as { content: unknown }).content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe("text");
  return JSON.parse(content[0]!.text);
}

/** Assert a ToolError result and return its `error`. */
export function toolErrorOf(outcome: unknown): { code: string; message: string; status: number } {
  const result = outcome as { isError?: unknown; structuredContent?: unknown };
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const body = textJson(result);
  expect(Object.keys(body)).toEqual(["error"]);
  expect(Object.keys(body.error).sort()).toEqual(["code", "message", "status"]);
  return body.error;
}

/** Assert a successful result and return its structured content (equal to the text JSON). */
export function dataOf(outcome: unknown): any {
  const result = outcome as { content?: unknown; isError?: unknown; structuredContent?: unknown };
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  expect(textJson(result)).toEqual(result.structuredContent);
  return result.structuredContent;
}

let rpcId = 1;

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** JSON body, or the JSON-RPC message with our id from an SSE stream. */
  json: any;
}

/** One raw JSON-RPC POST (or any method) to the MCP endpoint. */
export async function raw(
  t: TestApp,
  opts: {
    method?: string;
    path?: string;
    auth?: Credentials;
    headers?: Record<string, string>;
    rpc?: { method: string; params?: unknown };
    body?: string;
    signal?: AbortSignal;
  } = {},
): Promise<RawAnswer> {
  const id = rpcId++;
  const headers: Record<string, string> = {
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2025-06-18",
    ...authHeaders(opts.auth ?? {}),
    ...opts.headers,
  };
  const method = opts.method ?? "POST";
  const body =
    method === "POST" || opts.body !== undefined
      ? (opts.body ?? JSON.stringify({ jsonrpc: "2.0", id, ...(opts.rpc ?? { method: "ping" }) }))
      : undefined;
  const res = await t.app.request(`http://localhost${opts.path ?? "/mcp/"}`, {
    method,
    headers,
    body,
    signal: opts.signal,
  });
  const text = await res.text();
  let json: any;
  if ((res.headers.get("content-type") ?? "").includes("text/event-stream")) {
    const events = text
      .split(/\n\n/)
      .map((e) =>
        e
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).trim())
          .join(""),
      )
      .filter(Boolean)
      .map((d) => JSON.parse(d));
    json = events.find((m) => m.id === id);
  } else {
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A raw tools/call and its result. */
export async function rawCall(
  t: TestApp,
  name: string,
  args: unknown,
  auth: Credentials,
  extra: { signal?: AbortSignal } = {},
) {
  return raw(t, { auth, rpc: { method: "tools/call", params: { name, arguments: args } }, signal: extra.signal });
}
