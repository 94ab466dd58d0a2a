// The MCP endpoint on the app: `/mcp/` over stateless streamable HTTP, the
// 307 from `/mcp`, and the protected-resource metadata. Order of checks on
// `/mcp/`: Host/Origin (403) -> credentials (401) -> the REST rate-limit
// bucket (429, RateLimit-* on every answer after auth) -> method (405) ->
// body size and media type (413/415, the REST guards) -> the protocol.
import type { Hono } from "hono";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Services } from "../domain/services.ts";
import type { AccountDirectory } from "../platform/accounts.ts";
import { bodyGuards, MAX_BODY_BYTES } from "../platform/body-guards.ts";
import type { AppEnv } from "../platform/env.ts";
import type { ErrorLogger } from "../platform/errors.ts";
import { rateLimit, type RateLimiter } from "../platform/rate-limit.ts";
import { mcpAuth, protectedResourceMetadata } from "./auth.ts";
import { jsonRpcError } from "./json-rpc.ts";
import { originGuard } from "./origin-guard.ts";
import { createProtocolServer } from "./protocol-server.ts";
import { MCP_PATH, METADATA_PATH, type McpSettings } from "./settings.ts";

export interface McpDeps {
  services: Services;
  directory: AccountDirectory;
  limiter: RateLimiter;
  settings: McpSettings;
  log: ErrorLogger;
}

export function mountMcp(app: Hono<AppEnv>, deps: McpDeps): void {
  const bare = MCP_PATH.replace(/\/$/, "");

  // RFC 9728 puts the document at the well-known prefix plus the resource
  // path; the SDK client drops the trailing slash when it builds that path,
  // and some clients look at the root, so all three answer the same.
  for (const path of [`${METADATA_PATH}${MCP_PATH}`, `${METADATA_PATH}${bare}`, METADATA_PATH]) {
    app.get(path, (c) => c.json(protectedResourceMetadata(c)));
  }

  // Before authentication (D-MCP-307-FIRST): a client must learn the right
  // URL first. The Location is relative (`mcp/` resolved against `/mcp` is
  // `/mcp/`), so it stays right behind a proxy that adds a path prefix.
  app.all(bare, (c) => {
    const query = new URL(c.req.url).search;
    c.header("Location", `${bare.split("/").pop()}/${query}`);
    return c.body(null, 307);
  });

  app.use(MCP_PATH, originGuard(deps.settings.allowedHosts), mcpAuth(deps.directory), rateLimit(deps.limiter));

  // Stateless mode has no server-to-client stream to open and no session to
  // delete; the SDK would hold a GET stream open forever.
  app.on(["GET", "DELETE", "PUT", "PATCH"], MCP_PATH, (c) => jsonRpcError(c, 405, "Method not allowed: this endpoint takes JSON-RPC over POST.", { Allow: "POST" }));

  app.post(MCP_PATH, bodyGuards(MAX_BODY_BYTES), async (c) => {
    const principal = c.get("principal");
    const caller = { account: principal.account, seat: principal.seat };
    const server = createProtocolServer(deps, caller);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: MAX_BODY_BYTES });
    await server.connect(transport);
    // A client that goes away aborts its in-flight tool calls (the long poll
    // of svc__get_message listens to that signal): closing the server aborts
    // every handler it is running.
    c.req.raw.signal.addEventListener("abort", () => void server.close(), { once: true });
    return transport.handleRequest(c.req.raw);
  });
}
