// The JSON-RPC 2.0 rules a message must meet before the SDK sees it
// (D-REF-MCP-JSONRPC). The SDK's transport calls every malformed message a
// parse error (-32700) and its request handlers turn a params mistake into
// -32603 "Internal error" carrying a zod dump; a client cannot act on either.
// Here a broken envelope is -32600 Invalid Request, an unknown method -32601,
// params the method's schema refuses -32602, each with a short message naming
// the field. Params are judged with the SDK's own request schemas, so what
// passes here is exactly what the SDK accepts.
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

export type RequestId = string | number;

export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: { code: number; message: string };
}

/** What the gate made of one message. */
export type Judged =
  /** A request the SDK will answer as it is. */
  | { kind: "request"; id: RequestId; method: string }
  /** A notification or a client's response: nothing is answered. */
  | { kind: "silent" }
  /** Answered here; `invalid` when the envelope itself was broken (-32600). */
  | { kind: "error"; response: JsonRpcErrorResponse; invalid: boolean };

interface ParamsSchema {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
  };
}

/** The methods this server answers (the low-level Server's own and the two tool methods). */
const SERVED: ReadonlyMap<string, ParamsSchema> = new Map<string, ParamsSchema>([
  ["initialize", InitializeRequestSchema],
  ["ping", PingRequestSchema],
  ["tools/list", ListToolsRequestSchema],
  ["tools/call", CallToolRequestSchema],
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is RequestId =>
  typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v));

export function errorResponse(id: RequestId | null, code: number, message: string): JsonRpcErrorResponse {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

function invalid(id: RequestId | null, why: string): Judged {
  return {
    kind: "error",
    response: errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: ${why}`),
    invalid: true,
  };
}

/** "params.arguments: expected an object…" for the first few issues. */
function describeParams(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const shown = issues.slice(0, 3).map((i) => `${i.path.map(String).join(".") || "params"}: ${i.message}`);
  const more = issues.length > 3 ? `; and ${issues.length - 3} more` : "";
  return `Invalid params: ${shown.join("; ")}${more}`;
}

/** Judge one JSON-RPC message (a whole body, or one entry of a batch). */
export function judgeMessage(message: unknown): Judged {
  if (!isObject(message)) return invalid(null, "a JSON-RPC message is a JSON object");
  const hasId = "id" in message;
  const id = isId(message.id) ? message.id : null;
  if (message.jsonrpc !== "2.0") return invalid(id, 'jsonrpc must be "2.0"');
  if (hasId && !isId(message.id)) return invalid(null, "id must be a string or an integer");
  if (!("method" in message)) {
    // A client's answer to a server request; stateless, so nothing awaits it.
    if (hasId && ("result" in message || "error" in message)) return { kind: "silent" };
    return invalid(id, "method must be a string");
  }
  if (typeof message.method !== "string") return invalid(id, "method must be a string");
  // JSON-RPC never answers a notification, whatever its params.
  if (!hasId) return { kind: "silent" };
  const schema = SERVED.get(message.method);
  if (!schema) {
    return {
      kind: "error",
      response: errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${message.method}`),
      invalid: false,
    };
  }
  const parsed = schema.safeParse({ method: message.method, params: message.params });
  if (!parsed.success) {
    return {
      kind: "error",
      response: errorResponse(id, ErrorCode.InvalidParams, describeParams(parsed.error?.issues ?? [])),
      invalid: false,
    };
  }
  return { kind: "request", id: id!, method: message.method };
}
