// The MCP endpoint on the app: `/mcp/` over stateless streamable HTTP, the
// 307 from `/mcp`, and the protected-resource metadata. Order of checks on
// `/mcp/`: Host/Origin (403) -> credentials (401) -> the REST rate-limit
// bucket (429, RateLimit-* on every answer after auth) -> method (405) ->
// body size and media type (413/415, the REST guards) -> the JSON-RPC gate
// (json-rpc-gate.ts: -32600/-32601/-32602 before the SDK) -> the protocol.
// Batches follow batch.ts.
import type { Hono } from "hono";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Services } from "../compose.ts";
import type { AccountDirectory } from "../platform/accounts.ts";
import { bodyGuards, MAX_BODY_BYTES } from "../platform/body-guards.ts";
import type { AppEnv } from "../platform/env.ts";
import { ApiError, type ErrorLogger } from "../platform/errors.ts";
import { rateLimit, type RateLimiter } from "../platform/rate-limit.ts";
import { mcpAuth, protectedResourceMetadata } from "./auth.ts";
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { Context } from "hono";
import type { Caller } from "../platform/env.ts";
import { TooManyRequestsError } from "../platform/errors.ts";
import { answerBatch, BatchRateLimited, versionOf } from "./batch.ts";
import { callsTool, jsonRpcError } from "./json-rpc.ts";
import { judgeMessage } from "./json-rpc-gate.ts";
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
    const headers = {
      accept: requestHeader(c, "accept"),
      contentType: requestHeader(c, "content-type"),
      protocolVersion: requestHeader(c, "mcp-protocol-version"),
    };
    // The transport's own refusals (406 for Accept, 400 for an unknown
    // protocol version) come first, in its words.
    if (!transportReady(headers)) return sdkAnswer(c, deps, caller, message, false);
    if (Array.isArray(message)) return batchAnswer(c, deps, caller, message, headers);
    const judged = judgeMessage(message);
    if (judged.kind === "error") return c.json(judged.response, judged.invalid ? 400 : 200);
    // A notification is never answered; one whose params MCP would not
    // accept is dropped here (the SDK would call it a parse error).
    if (judged.kind === "silent" && !JSONRPCMessageSchema.safeParse(message).success) return c.body(null, 202);
    const longPollTool = `${deps.settings.toolPrefix}get_message`;
    if (deps.settings.quickCalls) {
      const quick = asQuickCall(message, headers, longPollTool);
      if (quick) return c.json(await answerQuickCall(deps, caller, quick));
    }
    return sdkAnswer(c, deps, caller, message, callsTool(message, longPollTool));
  });
}

interface PostHeaders {
  accept: string | undefined;
  contentType: string | undefined;
  protocolVersion: string | undefined;
}

/** Whether the SDK transport would read the message at all (its Accept and version rules). */
function transportReady(h: PostHeaders): boolean {
  if (!h.accept?.includes("application/json") || !h.accept.includes("text/event-stream")) return false;
  return h.protocolVersion === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(h.protocolVersion);
}

/** One message through a fresh SDK protocol server and transport (stateless mode refuses reuse). */
async function sdkAnswer(
  c: Context<AppEnv>,
  deps: McpDeps,
  caller: Caller,
  message: unknown,
  streaming: boolean,
): Promise<Response> {
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
}

/** A JSON-RPC batch (batch.ts): each request answered as a single message would be, in one JSON array. */
async function batchAnswer(
  c: Context<AppEnv>,
  deps: McpDeps,
  caller: Caller,
  batch: unknown[],
  headers: PostHeaders,
): Promise<Response> {
  const principal = c.get("principal");
  const limit = deps.limiter.limitFor(principal);
  let last: ReturnType<RateLimiter["take"]> | undefined;
  const longPollTool = `${deps.settings.toolPrefix}get_message`;
  try {
    const answer = await answerBatch(batch, versionOf(headers.protocolVersion), {
      countMessages(extra) {
        for (let i = 0; i < extra; i++) {
          last = deps.limiter.take(principal.keyDigest, limit);
          if (!last.allowed) return false;
        }
        return true;
      },
      async answerRequest(message) {
        const quick = deps.settings.quickCalls ? asQuickCall(message, headers, longPollTool) : undefined;
        if (quick) return answerQuickCall(deps, caller, quick);
        // In a batch even the long poll answers as JSON, once every answer is ready.
        const res = await sdkAnswer(c, deps, caller, message, false);
        return (await res.json()) as object;
      },
    });
    if (last) for (const [k, v] of Object.entries(last.headers)) c.header(k, v);
    return answer.status === 202 ? c.body(null, 202) : c.json(answer.body, answer.status);
  } catch (error) {
    if (error instanceof BatchRateLimited && last) throw new TooManyRequestsError(last.retryAfterSeconds, last.headers);
    throw error;
  }
}
