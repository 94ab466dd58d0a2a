// The kit's MCP client: JSON-RPC over streamable HTTP sent through the kit's
// own HTTP client, so every MCP call shares the key's rate-limit budget, is
// counted and recorded, and can be reproduced with curl. Raw HTTP rather than
// the SDK's transport because the rules checked live at the HTTP level (the
// SDK follows the 307 silently and turns 401/429 into exceptions); the SDK's
// zod schemas still validate the protocol messages.
import {
  CallToolResultSchema,
  JSONRPCMessageSchema,
  ListToolsResultSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { Exchange, KeyRole } from "../http.ts";
import { isObject, type Untrusted } from "../typed.ts";
import type { CheckContext } from "../types.ts";

export const PROTOCOL_VERSION = "2025-06-18";

/** The MCP endpoint: --mcp-url, else the same path under the REST host (seed › Authentication › MCP 1). */
export function mcpUrl(ctx: Pick<CheckContext, "settings">): string {
  const u = ctx.settings.mcpUrl ?? `${ctx.settings.baseUrl.replace(/\/+$/, "")}/mcp/`;
  return u.endsWith("/") ? u : `${u}/`;
}

/** How a call authenticates: a key role, a bearer token, both, an invalid key, or nothing. */
export interface McpAuth {
  key?: KeyRole | { invalid: string };
  bearer?: string;
}

/** A JSON-RPC error object (its shape checked by the SDK's JSONRPCMessageSchema). */
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface RpcAnswer {
  ex: Exchange;
  /** the JSON-RPC response to our id (from a JSON body or an SSE stream), as sent */
  message?: unknown;
  /** its `result`, as sent (callTool and listTools validate it with the SDK's schema) */
  result?: unknown;
  error?: RpcError;
  /** why no JSON-RPC response could be read */
  unreadable?: string;
}

let nextId = 1;

/** The JSON-RPC messages of a response body: a JSON object/array, or the `data:` events of an SSE stream. */
export function messagesOf(ex: Pick<Exchange, "text" | "headers">): unknown[] {
  const ct = ex.headers["content-type"] ?? "";
  if (/text\/event-stream/i.test(ct)) {
    const out: unknown[] = [];
    for (const event of ex.text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).replace(/^ /, ""))
        .join("\n");
      if (!data) continue;
      try {
        out.push(JSON.parse(data));
      } catch {
        /* a keep-alive or a partial event */
      }
    }
    return out;
  }
  try {
    const j: unknown = JSON.parse(ex.text);
    return Array.isArray(j) ? j : [j];
  } catch {
    return [];
  }
}

/** One JSON-RPC request (or notification when `notify`) to the MCP endpoint. */
export async function rpc(
  ctx: CheckContext,
  method: string,
  params: unknown,
  auth: McpAuth = { key: "main" },
  o: { notify?: boolean; burst?: boolean; planned429?: boolean; url?: string } = {},
): Promise<RpcAnswer> {
  const id = nextId++;
  const headers: Record<string, string> = {
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": PROTOCOL_VERSION,
  };
  if (auth.bearer !== undefined) headers.authorization = `Bearer ${auth.bearer}`;
  const msg = o.notify
    ? { jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) }
    : { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
  const url = o.url ?? mcpUrl(ctx);
  const ex = await ctx.req({
    method: "POST",
    path: new URL(url).pathname,
    url,
    key: auth.key ?? "none",
    headers,
    rawBody: JSON.stringify(msg),
    burst: o.burst,
    meta: { mcp: true, planned429: o.planned429 },
  });
  if (o.notify || ex.status !== 200) return { ex };
  const message = messagesOf(ex).find((m) => isObject(m) && m.id === id);
  if (!isObject(message))
    return {
      ex,
      unreadable: `no JSON-RPC response with id ${id} in the ${ex.headers["content-type"] ?? "untyped"} body`,
    };
  if (!JSONRPCMessageSchema.safeParse(message).success)
    return { ex, message, unreadable: "the response is not a JSON-RPC 2.0 message" };
  // a valid JSON-RPC message: its error, when it has one, has the schema's shape
  return { ex, message, result: message.result, error: message.error as RpcError | undefined };
}

/** initialize + notifications/initialized, as a client connects (stateless servers accept calls without it). */
export async function initialize(ctx: CheckContext, auth: McpAuth = { key: "main" }): Promise<RpcAnswer> {
  const init = await rpc(
    ctx,
    "initialize",
    { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "sl-conformance", version: "1" } },
    auth,
  );
  return init;
}

/** The ToolError of an isError result: `{error: {code, message, status}}` (D-MCP-TOOL-ERROR). */
export interface ToolError {
  code: string;
  message: string;
  status: number;
}

/** One tools/call; `R` is the tool's documented result (generated `Mcp…Result`), read as sent. */
export interface ToolCall<R = unknown> {
  ex: Exchange;
  answer: RpcAnswer;
  /** the CallToolResult, when the call got one */
  result?: CallToolResult;
  isError: boolean;
  /** structuredContent, else the JSON of the single text content */
  payload?: Untrusted<R>;
  /** the `error` object of an isError result, as sent (isToolError tells whether it is a ToolError) */
  toolError?: Untrusted<ToolError>;
  /** why the call has no usable result (transport error, JSON-RPC error, unreadable body) */
  problem?: string;
}

function textJson(result: CallToolResult): unknown {
  const texts = Array.isArray(result.content)
    ? result.content.filter(
        (c): c is { type: "text"; text: string } => c?.type === "text" && typeof c.text === "string",
      )
    : [];
  if (texts.length !== 1) return undefined;
  try {
    return JSON.parse(texts[0].text);
  } catch {
    return undefined;
  }
}

/** The seed's stand-in for the service-specific prefix of tool names ("In tool names, the prefix `svc__` is a neutral stand-in"). */
export const SEED_PREFIX = "svc__";

/**
 * The deployment's own tool prefix, discovered once from tools/list: the
 * part before a documented tool's name (`acme__` of `acme__get_me`) that the
 * most served tools share; the seed's `svc__` when the deployment serves it,
 * or when nothing can be read.
 */
export function toolPrefix(ctx: CheckContext): Promise<string> {
  return ctx.shared("mcp-tool-prefix", async () => {
    const { tools } = await listTools(ctx);
    const served = (tools ?? []).map((t) => t.name).filter((n): n is string => typeof n === "string");
    if (served.some((n) => (TOOL_NAMES as readonly string[]).includes(n))) return SEED_PREFIX;
    const counts = new Map<string, number>();
    for (const n of served)
      for (const t of TOOL_NAMES) {
        const suffix = t.slice(SEED_PREFIX.length);
        if (n.length > suffix.length && n.endsWith(suffix)) {
          const prefix = n.slice(0, -suffix.length);
          counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
        }
      }
    const best = [...counts].sort((a, b) => b[1] - a[1])[0];
    return best && best[1] >= 3 ? best[0] : SEED_PREFIX;
  });
}

/** A documented tool name (`svc__get_me`) as this deployment serves it. */
export async function servedName(ctx: CheckContext, name: string): Promise<string> {
  if (!name.startsWith(SEED_PREFIX)) return name;
  const prefix = await toolPrefix(ctx);
  return prefix + name.slice(SEED_PREFIX.length);
}

/** tools/call and its result, unpacked; `R` names the tool's documented result type (`name` as documented, `svc__…`). */
export async function callTool<R = unknown>(
  ctx: CheckContext,
  name: string,
  args: Record<string, unknown> | undefined,
  auth: McpAuth = { key: "main" },
  o: { burst?: boolean; planned429?: boolean } = {},
): Promise<ToolCall<R>> {
  const answer = await rpc(ctx, "tools/call", { name: await servedName(ctx, name), arguments: args ?? {} }, auth, o);
  const base = { ex: answer.ex, answer, isError: false };
  if (answer.ex.status !== 200) return { ...base, problem: `transport answered HTTP ${answer.ex.status}` };
  if (answer.unreadable) return { ...base, problem: answer.unreadable };
  if (answer.error) return { ...base, problem: `JSON-RPC error ${answer.error.code}: ${answer.error.message}` };
  const parsed = CallToolResultSchema.safeParse(answer.result);
  if (!parsed.success) return { ...base, problem: "the result is not an MCP CallToolResult" };
  // the result as sent (the schema passed it), not the schema's copy of it
  const result = answer.result as CallToolResult;
  const isError = result.isError === true;
  const payload = result.structuredContent ?? textJson(result);
  const e = isObject(payload) ? payload.error : undefined;
  const toolError = isError && e && typeof e === "object" ? (e as Untrusted<ToolError>) : undefined;
  return { ...base, result, isError, payload: payload as Untrusted<R> | undefined, toolError };
}

export async function listTools(
  ctx: CheckContext,
  auth: McpAuth = { key: "main" },
): Promise<{ answer: RpcAnswer; tools?: Tool[]; problem?: string }> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  let answer: RpcAnswer | undefined;
  for (let i = 0; i < 10; i++) {
    answer = await rpc(ctx, "tools/list", cursor ? { cursor } : {}, auth);
    if (answer.ex.status !== 200 || answer.unreadable || answer.error)
      return {
        answer,
        problem:
          answer.unreadable ??
          (answer.error ? `JSON-RPC error ${answer.error.code}: ${answer.error.message}` : `HTTP ${answer.ex.status}`),
      };
    const page = ListToolsResultSchema.safeParse(answer.result);
    if (!page.success) return { answer, problem: "tools/list result is not an MCP ListToolsResult" };
    // the tools as sent (the schema passed them), not the schema's copy of them
    const sent = answer.result as { tools: Tool[]; nextCursor?: string };
    tools.push(...sent.tools);
    cursor = sent.nextCursor;
    if (!cursor) break;
  }
  return { answer: answer!, tools };
}

/**
 * Whether the deployment serves MCP at all: an unknown route (404) means the
 * MCP checks have nothing to exercise and skip, saying so.
 */
export async function requireMcp(ctx: CheckContext): Promise<void> {
  const served = await ctx.shared("mcp-served", async () => {
    // unauthenticated, so the anonymous lane can ask too: a served endpoint answers 401, an unserved one 404
    const a = await rpc(ctx, "tools/list", {}, {});
    return a.ex.status !== 404 && a.ex.status !== 405
      ? undefined
      : `${mcpUrl(ctx)} answered ${a.ex.status}: the deployment serves no MCP endpoint there (set --mcp-url)`;
  });
  if (served) ctx.skip(served);
}

/** A ToolError has {error: {code: string, message: string, status: 400-599}} (D-MCP-TOOL-ERROR). */
export function isToolError(e: unknown): e is ToolError {
  return (
    isObject(e) &&
    typeof e.code === "string" &&
    typeof e.message === "string" &&
    typeof e.status === "number" &&
    Number.isInteger(e.status) &&
    e.status >= 400 &&
    e.status <= 599
  );
}

/** The fifteen documented tool names, with the seed's stand-in prefix (servedName gives the deployment's). */
export const TOOL_NAMES = [
  "svc__ask",
  "svc__get_message",
  "svc__render",
  "svc__list_datasets",
  "svc__get_dataset",
  "svc__get_dataset_run",
  "svc__list_audience_datasets",
  "svc__get_audience_dataset",
  "svc__get_audience_dataset_run",
  "svc__list_audience_profiles",
  "svc__list_mentions",
  "svc__get_pattern_detection_run",
  "svc__list_tracking_agents",
  "svc__get_tracking_agent",
  "svc__get_me",
] as const;
