import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { header, words } from "../grounding/facts.ts";
import { sleep } from "../http.ts";
import { callTool, requireMcp, toolPrefix } from "../mcp/client.ts";
import { isObject } from "../typed.ts";

/**
 * One bucket per key for REST and MCP: a burst over REST exhausts it, and the
 * very next MCP call with that key is throttled (the seed), as an HTTP 429
 * transport error, not a tool result (the seed); after Retry-After the call
 * works again. That the MCP 429 carries Retry-After is D-MCP-RATE-HEADERS's.
 */
export default defineCheck({
  id: "mcp-rate-limit-shared",
  phase: "mcp",
  // its burst spends the key's rate limit, so it runs after the other MCP checks
  after: ["mcp-*"],
  rule: "After a REST burst exhausts the key's bucket, an MCP tools/call with the same key is throttled, as HTTP 429 (a transport error, not a tool result); it carries Retry-After (D-MCP-RATE-HEADERS) and after that wait the call succeeds",
  section: "Limits › Request rate (1: shared by REST and MCP); Authentication › MCP (6: 429 is a transport error)",
  severity: "major",
  asserts: {
    shared: seed("rate-limit.per-key", words("per API key, shared by REST and MCP")),
    transport: seed(
      "mcp-auth.transport-vs-tool-errors",
      words("Transport errors (401, 429) surface as MCP transport errors"),
    ),
    "retry-after": decided("D-MCP-RATE-HEADERS"),
    recovers: seed(
      ["rate-limit.retry-after-works", "errors.retry-after"],
      header("Retry-After"),
      words("preferring Retry-After"),
    ),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me"],
  async run(ctx) {
    await requireMcp(ctx);
    // the tool names are read before the bucket is spent
    await toolPrefix(ctx);
    // learn the advertised limit, then wait for a fresh window so the burst counts from zero
    const probe = await ctx.req({ method: "GET", path: "/v1/prices" });
    const limit = Number(probe.headers["ratelimit-limit"]);
    if (!Number.isInteger(limit) || limit <= 0) ctx.skip("no RateLimit-Limit header to size the burst");
    if (limit > 250) ctx.skip(`RateLimit-Limit ${limit} is too high to exhaust cheaply`);
    // exhaust the bucket over REST, then call MCP at once; a window boundary falling between the
    // last REST 429 and the MCP call would refill the bucket, so one more attempt is allowed
    let call: Awaited<ReturnType<typeof callTool>> | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      await sleep(1100);
      const burst = await Promise.all(
        Array.from({ length: limit + 2 }, () =>
          ctx.req({ method: "GET", path: "/v1/prices", burst: true, meta: { planned429: true } }),
        ),
      );
      let limited = burst.some((e) => e.status === 429);
      for (let i = 0; !limited && i < limit; i++)
        limited =
          (await ctx.req({ method: "GET", path: "/v1/prices", burst: true, meta: { planned429: true } })).status ===
          429;
      if (!limited) {
        ctx.notExercised(`REST requests beyond RateLimit-Limit ${limit} got no 429 (rate-limit-burst-429 reports it)`);
        return;
      }
      call = await callTool(ctx, "svc__get_me", {}, { key: "main" }, { burst: true, planned429: true });
      if (call.ex.status === 429) break;
    }
    const c = call!;
    const error: unknown = isObject(c.payload) ? c.payload.error : undefined;
    const toolStatus = isObject(error) ? error.status : undefined;
    const throttled = c.ex.status === 429 || toolStatus === 429;
    if (
      !ctx.expect(
        throttled,
        {
          judges: "shared",
          title: `an MCP call right after REST exhausted the key's bucket answered HTTP ${c.ex.status}${c.isError ? ` (a tool error ${JSON.stringify(error)})` : ""}`,
          received: { status: c.ex.status, toolError: error },
          expected: { status: 429 },
        },
        c.ex,
      )
    )
      return;
    if (
      !ctx.expect(
        c.ex.status === 429,
        {
          judges: "transport",
          title: "the throttled MCP call came back as a tool result, not an HTTP 429",
          received: { status: c.ex.status, result: c.result },
          expected: { status: 429 },
        },
        c.ex,
      )
    )
      return;
    const retry = Number(c.ex.headers["retry-after"]);
    ctx.expect(
      Number.isInteger(retry) && retry >= 0,
      {
        judges: "retry-after",
        title: `the MCP 429 carries Retry-After ${c.ex.headers["retry-after"] ?? "(absent)"}`,
        received: { "retry-after": c.ex.headers["retry-after"] ?? "(absent)" },
        expected: { "retry-after": "<seconds>" },
      },
      c.ex,
    );
    await sleep(Math.max(Number.isFinite(retry) ? retry : 1, 1) * 1000 + 100);
    const again = await callTool(ctx, "svc__get_me", {}, { key: "main" }, { burst: true, planned429: true });
    ctx.expect(
      again.ex.status !== 429 && !again.problem,
      {
        judges: "recovers",
        title: `after Retry-After the MCP call answered ${again.ex.status}`,
        received: { status: again.ex.status },
        expected: { status: 200 },
      },
      again.ex,
    );
  },
});
