// The quick path for the commonest MCP message: one plain `tools/call` of a
// tool that answers at once (MCP throughput at least half of REST's). The SDK
// path builds a protocol server and a transport per POST (stateless mode
// refuses reuse), re-parses the message with its zod schemas and goes through
// a web Request and Response; for a message that is already known to be valid
// none of that changes the answer, only its cost.
//
// So a message takes this path only when the SDK would accept it as it is and
// answer it with a single JSON body: exactly the keys jsonrpc/id/method/params
// and name/arguments, a string or safe-integer id, headers the transport
// accepts. Anything else (batches, initialize, notifications, `_meta`, tasks,
// odd ids or headers, the get_message long poll) goes to the SDK unchanged,
// so every error keeps the SDK's own wording. The result goes through the
// SDK's CallToolResultSchema as on the SDK path, so the bytes are the same;
// test/mcp-quick-call.test.ts compares both paths message by message.
import {
  CallToolResultSchema,
  ErrorCode,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import type { Caller } from "../platform/env.ts";
import { callTool, type ToolCallDeps } from "./protocol-server.ts";

export interface QuickCall {
  id: string | number;
  name: string;
  arguments: Record<string, unknown> | undefined;
}

export interface TransportHeaders {
  accept: string | undefined;
  contentType: string | undefined;
  protocolVersion: string | undefined;
}

// The quick path only serves tools that never wait, so nothing listens to
// this signal; the long poll that does keeps the SDK path and its abort.
const NEVER_ABORTED = new AbortController().signal;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const k in value) if (!allowed.has(k)) return false;
  return true;
}

const MESSAGE_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const PARAM_KEYS = new Set(["name", "arguments"]);

/** The headers the SDK transport checks before it reads a message, judged as it judges them. */
function transportAccepts(h: TransportHeaders): boolean {
  if (!h.accept?.includes("application/json") || !h.accept.includes("text/event-stream")) return false;
  // The SDK parses the media type; only its own fast case is taken here.
  if (h.contentType !== "application/json") return false;
  return h.protocolVersion === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(h.protocolVersion);
}

/** The call, when the message and headers qualify for the quick path; otherwise undefined (use the SDK). */
export function asQuickCall(message: unknown, headers: TransportHeaders, longPollTool: string): QuickCall | undefined {
  if (!isPlainObject(message) || !onlyKeys(message, MESSAGE_KEYS)) return undefined;
  if (message.jsonrpc !== "2.0" || message.method !== "tools/call") return undefined;
  const id = message.id;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)))) return undefined;
  const params = message.params;
  if (!isPlainObject(params) || !onlyKeys(params, PARAM_KEYS)) return undefined;
  if (typeof params.name !== "string" || params.name === longPollTool) return undefined;
  const args = params.arguments;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  if (!transportAccepts(headers)) return undefined;
  return { id, name: params.name, arguments: args };
}

/** The JSON-RPC response the SDK would send for this call. */
export async function answerQuickCall(deps: ToolCallDeps, caller: Caller, call: QuickCall): Promise<object> {
  const parsed = CallToolResultSchema.safeParse(await callTool(deps, caller, call.name, call.arguments, NEVER_ABORTED));
  if (!parsed.success) {
    // What the SDK's server answers for a result that breaks the schema.
    const error = new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${parsed.error.message}`);
    return { jsonrpc: "2.0", id: call.id, error: { code: error.code, message: error.message } };
  }
  return { result: parsed.data, jsonrpc: "2.0", id: call.id };
}
