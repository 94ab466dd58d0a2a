// Transport-level answers the MCP endpoint writes itself (403, 405) in the
// shape the SDK's transport uses for its own (406, 415): a JSON-RPC error
// with no id, since no request was read.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export function jsonRpcError(
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): Response {
  for (const [k, v] of Object.entries(headers)) c.header(k, v);
  return c.json({ jsonrpc: "2.0", error: { code, message }, id: null }, status);
}

/** Whether a JSON-RPC message (or batch) calls the named tool. */
export function callsTool(message: unknown, tool: string): boolean {
  const messages = Array.isArray(message) ? message : [message];
  return messages.some((m) => {
    const msg = m as { method?: unknown; params?: { name?: unknown } } | null;
    return msg?.method === "tools/call" && msg.params?.name === tool;
  });
}
