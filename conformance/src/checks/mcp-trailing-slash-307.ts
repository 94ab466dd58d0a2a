import { decision, defineCheck } from "../define-check.ts";
import { mcpUrl, requireMcp } from "../mcp/client.ts";

/** The MCP URL without its trailing slash answers 307 to the slashed form (raw request: SDK clients follow it silently). */
export default defineCheck({
  id: "mcp-trailing-slash-307",
  phase: "mcp",
  rule: "A POST to the MCP URL without its trailing slash answers 307 with a Location that resolves to the MCP URL with the slash",
  decisions: ["D-MCP-307-FIRST"],
  section: "Authentication › MCP (1: the trailing slash is required; the form without it answers 307)",
  severity: "minor",
  rules: {
    seed: "the trailing slash is required; the form without it answers 307",
    decisions: [decision("D-MCP-307-FIRST", { title: /before|credential|host/i })],
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
    ctx.expect(
      ex.status === 307 && target === slashed,
      {
        title: `${new URL(bare).pathname} answered ${ex.status}${location ? ` → ${location}` : ""}`,
        received: { status: ex.status, location: location ?? "(none)" },
        expected: { status: 307, location: slashed },
      },
      ex,
    );
  },
});
