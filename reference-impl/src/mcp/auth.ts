// Who is calling the MCP endpoint (seed › Authentication › MCP 2-3):
// `x-api-key` first, through the same directory lookup REST uses; when it is
// missing or does not resolve, `Authorization: Bearer <token>`; when neither
// resolves, 401 with `WWW-Authenticate: Bearer resource_metadata="<url>"`
// naming the RFC 9728 document below. A bearer token acts as the seat that
// granted it (D-MCP-BEARER-SEAT) and has its own rate-limit bucket keyed on
// its digest (D-MCP-BEARER-BUCKET). A plan without `mcp` is 401 like a plan
// without `api_access` on REST (D-MCP-PLAN-GATE).
import type { Context, MiddlewareHandler } from "hono";
import type { McpProtectedResourceMetadata } from "../../../generated/client/types.gen.ts";
import type { AccountDirectory } from "../platform/accounts.ts";
import type { AppEnv } from "../platform/env.ts";
import { UnauthorizedError } from "../platform/errors.ts";
import { hasFeature } from "../platform/plan-features.ts";
import { MCP_PATH, METADATA_PATH } from "./settings.ts";
import { requestHeader } from "../platform/request-headers.ts";

const BEARER = /^Bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i;

export function metadataUrl(c: Context): string {
  return `${new URL(c.req.url).origin}${METADATA_PATH}${MCP_PATH}`;
}

/**
 * The protected-resource metadata (D-MCP-OAUTH-METADATA). The reference has no
 * OAuth authorization server (D-MCP-OAUTH-OUT); it names its own origin, and
 * its demo tokens are minted in fixtures/.
 */
export function protectedResourceMetadata(c: Context): McpProtectedResourceMetadata {
  const origin = new URL(c.req.url).origin;
  return {
    resource: `${origin}${MCP_PATH}`,
    authorization_servers: [origin],
    bearer_methods_supported: ["header"],
    scopes_supported: ["mcp"],
  };
}

export function mcpAuth(directory: AccountDirectory): MiddlewareHandler<AppEnv> {
  // Not async: handing back next()'s promise spares an async frame per call
  // (MCP throughput); a throw here still reaches onError through Hono's compose.
  return function authenticateMcp(c, next) {
    const challenge = () => ({ "WWW-Authenticate": `Bearer resource_metadata="${metadataUrl(c)}"` });
    const key = requestHeader(c, "x-api-key");
    let found = key ? directory.resolve(key) : undefined;
    if (!found) {
      const token = BEARER.exec(requestHeader(c, "authorization") ?? "")?.[1];
      found = token ? directory.resolveBearer(token) : undefined;
    }
    if (!found) throw new UnauthorizedError("Missing or invalid x-api-key or bearer token.", challenge());
    if (!hasFeature(found.account, "mcp"))
      throw new UnauthorizedError("The plan does not include MCP access.", challenge());
    c.set("principal", { account: found.account, seat: found.seat, keyDigest: found.digest });
    return next();
  };
}
