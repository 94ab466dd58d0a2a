// DNS rebinding protection for the MCP endpoint. A page on evil.example whose
// name resolves to 127.0.0.1 makes the browser send `Host: evil.example` and
// `Origin: http://evil.example`; comparing the two would let it through, so
// both are checked against the names this server answers to: the loopback
// names plus the configured ones (MCP_ALLOWED_HOSTS). The SDK's own options
// for this are deprecated in 1.32, hence this middleware.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../platform/env.ts";
import { jsonRpcError } from "./json-rpc.ts";
import { requestHeader } from "../platform/request-headers.ts";

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]", "::1"];

function hostnameOf(hostHeader: string): string {
  // `[::1]:3000` keeps its brackets; `name:3000` loses the port.
  const m = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(hostHeader.trim());
  return (m?.[1] ?? hostHeader).toLowerCase();
}

export function originGuard(allowedHosts: string[]): MiddlewareHandler<AppEnv> {
  const allowed = new Set([...LOOPBACK, ...allowedHosts.map((h) => h.toLowerCase())]);
  return async function checkOrigin(c, next) {
    const host = hostnameOf(requestHeader(c, "host") ?? new URL(c.req.url).host);
    if (!allowed.has(host)) return jsonRpcError(c, 403, `Forbidden: host ${host} is not one this server answers to.`);
    const origin = requestHeader(c, "origin");
    if (origin !== undefined && origin !== "null") {
      let originHost: string;
      try {
        originHost = hostnameOf(new URL(origin).host);
      } catch {
        return jsonRpcError(c, 403, "Forbidden: malformed Origin header.");
      }
      if (!allowed.has(originHost))
        return jsonRpcError(c, 403, `Forbidden: origin ${origin} may not call this server.`);
    }
    await next();
  };
}
