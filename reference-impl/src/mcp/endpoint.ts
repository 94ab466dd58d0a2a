// The MCP endpoint on the app: `/mcp/` over stateless streamable HTTP, the
// 307 from `/mcp`, and the protected-resource metadata. Order of checks on
// `/mcp/`: Host/Origin (403) -> credentials (401) -> the REST rate-limit
// bucket (429, RateLimit-* on every answer after auth) -> method (405) ->
// body size and media type (413/415, the REST guards) -> the protocol.
import type { Hono } from "hono";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Services } from "../compose.ts";
import type { AccountDirectory } from "../platform/accounts.ts";
import { bodyGuards, MAX_BODY_BYTES } from "../platform/body-guards.ts";
import type { AppEnv } from "../platform/env.ts";
import { ApiError, type ErrorLogger } from "../platform/errors.ts";
import { rateLimit, type RateLimiter } from "../platform/rate-limit.ts";
import { mcpAuth, protectedResourceMetadata } from "./auth.ts";
import { callsTool, jsonRpcError } from "./json-rpc.ts";
import { originGuard } from "./origin-guard.ts";
import { answerQuickCall, asQuickCall } from "./quick-call.ts";
import { createProtocolServer } from "./protocol-server.ts";
import { MCP_PATH, METADATA_PATH, type McpSettings } from "./settings.ts";
import { requestHeader } from "../platform/request-headers.ts";

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
  app.on(["GET", "DELETE", "PUT", "PATCH"], MCP_PATH, (c) =>
    jsonRpcError(c, 405, "Method not allowed: this endpoint takes JSON-RPC over POST.", { Allow: "POST" }),
  );

  app.post(MCP_PATH, bodyGuards(MAX_BODY_BYTES), async (c) => {
    const principal = c.get("principal");
    const caller = { account: principal.account, seat: principal.seat };
    // The body is read here (the guards above bounded a declared length) so
    // the answer's form can follow what is called: one JSON body for every
    // call, cheaper than an SSE stream, except for the long poll of
    // get_message, whose stream carries keep-alives while it waits (a silent
    // 45 s JSON response looks dead to proxies and clients).
    const text = await c.req.text();
    if (Buffer.byteLength(text, "utf8") > MAX_BODY_BYTES)
      throw new ApiError("payload_too_large", `Request body exceeds ${MAX_BODY_BYTES} bytes.`);
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return jsonRpcError(c, 400, "Parse error: Invalid JSON", {}, -32700);
    }
    const longPollTool = `${deps.settings.toolPrefix}get_message`;
    if (deps.settings.quickCalls) {
      const headers = {
        accept: requestHeader(c, "accept"),
        contentType: requestHeader(c, "content-type"),
        protocolVersion: requestHeader(c, "mcp-protocol-version"),
      };
      const quick = asQuickCall(message, headers, longPollTool);
      if (quick) return c.json(await answerQuickCall(deps, caller, quick));
    }
    const streaming = callsTool(message, longPollTool);
    const server = createProtocolServer(deps, caller);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !streaming,
    });
    await server.connect(transport);
    // A client that goes away during the long poll ends it: closing the
    // server aborts the signal the poll listens to. Quick calls skip this:
    // reading `signal` makes the node adapter build a full Request.
    if (streaming) c.req.raw.signal.addEventListener("abort", () => void server.close(), { once: true });
    return transport.handleRequest(c.req.raw, { parsedBody: message });
  });
}
