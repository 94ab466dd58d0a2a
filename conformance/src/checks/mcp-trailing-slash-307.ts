import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { status, words } from "../grounding/facts.ts";
import { mcpUrl, requireMcp } from "../mcp/client.ts";

/**
 * The MCP URL without its trailing slash answers 307 (the seed; a raw request:
 * SDK clients follow it silently). That its Location resolves to the slashed
 * URL is D-MCP-307-FIRST's.
 */
export default defineCheck({
  id: "mcp-trailing-slash-307",
  phase: "mcp",
  rule: "A POST to the MCP URL without its trailing slash answers 307, with a Location that resolves to the MCP URL with the slash (D-MCP-307-FIRST)",
  section: "Authentication › MCP (1: the trailing slash is required; the form without it answers 307)",
  severity: "minor",
  asserts: {
    redirect: seed(
      "mcp-auth.trailing-slash-307",
      words("the trailing slash is required; the form without it answers 307"),
      status(307),
    ),
    location: decided("D-MCP-307-FIRST"),
  },
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    await requireMcp(ctx);
    const slashed = mcpUrl(ctx);
    const bare = slashed.replace(/\/+$/, "");
    const ex = await ctx.req({
      method: "POST",
      path: new URL(bare).pathname,
      url: bare,
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      rawBody: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      redirect: "manual",
      meta: { mcp: true },
    });
    const location = ex.headers["location"];
    const target = location ? new URL(location, bare).toString() : undefined;
    if (
      !ctx.expect(
        ex.status === 307,
        {
          judges: "redirect",
          title: `${new URL(bare).pathname} answered ${ex.status}`,
          received: { status: ex.status, location: location ?? "(none)" },
          expected: { status: 307, location: slashed },
        },
        ex,
      )
    )
      return;
    ctx.expect(
      target === slashed,
      {
        judges: "location",
        title: `${new URL(bare).pathname} answered 307 → ${location ?? "(no Location)"}`,
        received: { status: ex.status, location: location ?? "(none)" },
        expected: { status: 307, location: slashed },
      },
      ex,
    );
  },
});
