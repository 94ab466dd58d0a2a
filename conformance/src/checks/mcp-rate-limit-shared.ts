import { decision, defineCheck } from "../define-check.ts";
import { sleep } from "../http.ts";
import { callTool, requireMcp } from "../mcp/client.ts";

/**
 * One bucket per key for REST and MCP: a burst over REST exhausts it, and the
 * very next MCP call is an HTTP 429 transport error (not a tool error) with
 * Retry-After; after that wait MCP works again.
 */
export default defineCheck({
  id: "mcp-rate-limit-shared",
  phase: "mcp",
  // its burst spends the key's rate limit, so it runs after the other MCP checks
  after: ["mcp-*"],
  rule: "After a REST burst exhausts the key's bucket, an MCP tools/call with the same key answers HTTP 429 (a transport error, not a tool result) with Retry-After; after Retry-After seconds the call succeeds",
  section: "Limits › Request rate (1: shared by REST and MCP); Authentication › MCP (6: 429 is a transport error)",
  severity: "major",
  rules: {
    seed: "5 requests per second per API key, shared by REST and MCP",
    decisions: [decision("D-MCP-RATE-HEADERS", { title: /header/ }), decision("D-RATE-WINDOW", { title: /window/ })],
  },
  decisions: ["D-RATE-WINDOW", "D-MCP-RATE-HEADERS"],
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me"],
  async run(ctx) {
    await requireMcp(ctx);
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
    const retry = Number(call!.ex.headers["retry-after"]);
    ctx.expect(
      call!.ex.status === 429 && Number.isInteger(retry) && retry >= 0,
      {
        title: `an MCP call right after REST exhausted the key's bucket answered HTTP ${call!.ex.status}${call!.isError ? " (a tool error)" : ""}`,
        received: {
          status: call!.ex.status,
          "retry-after": call!.ex.headers["retry-after"] ?? "(absent)",
          toolError: call!.toolError,
        },
        expected: { status: 429, "retry-after": "<seconds>" },
      },
      call!.ex,
    );
    if (call!.ex.status !== 429) return;
    await sleep(Math.max(retry, 1) * 1000 + 100);
    const again = await callTool(ctx, "svc__get_me", {}, { key: "main" }, { burst: true, planned429: true });
    ctx.expect(
      again.ex.status === 200 && !again.problem,
      {
        title: `after Retry-After the MCP call answered ${again.ex.status}`,
        received: { status: again.ex.status },
        expected: { status: 200 },
      },
      again.ex,
    );
  },
});
