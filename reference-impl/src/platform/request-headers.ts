// Reading a request header cheaply. On @hono/node-server, `c.req.header()`
// builds a WHATWG Headers object from every raw header (validating each one)
// the first time it is called; Node's parser already holds the same headers,
// lower-cased, in `incoming.headers`. The platform's per-request reads (key,
// origin, body headers) go through here (throughput). Elsewhere
// (`app.request` in tests) the Request's own headers are all there is.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context } from "hono";

interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

/** Node's request and response when served by @hono/node-server, else undefined. */
export function nodeBindings(c: Context): NodeBindings {
  return (c.env as NodeBindings | undefined) ?? {};
}

/** The header's value (names are case-insensitive), or undefined when absent. */
export function requestHeader(c: Context, lowerCaseName: string): string | undefined {
  const incoming = nodeBindings(c).incoming;
  if (!incoming) return c.req.header(lowerCaseName);
  const value = incoming.headers[lowerCaseName];
  // Node joins repeated headers with ", " (set-cookie aside), as Headers.get does.
  return Array.isArray(value) ? value.join(", ") : value;
}
