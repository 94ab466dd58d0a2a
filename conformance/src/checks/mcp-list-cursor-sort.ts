import { decision, defineCheck } from "../define-check.ts";
import { callTool, requireMcp } from "../mcp/client.ts";
import { payloadOf } from "./support/mcp.ts";

/** A page of svc__list_mentions: `{content, cursor}`. */
type ListResult = { content: unknown[]; cursor: string | null };

/** A cursor of a filtered MCP list encodes its sort: reused under another sort it is refused. */
export default defineCheck({
  id: "mcp-list-cursor-sort",
  phase: "mcp",
  rule: "svc__list_mentions: a cursor of a page sorted by likes, passed back with sort date, is a tool error (invalid_cursor / 400), not a page of the other sort",
  section: "Endpoints › MCP tool surface (a cursor of a filtered list encodes its sort); Endpoints › Mentions (cursor)",
  severity: "major",
  rules: {
    seed: "a cursor of a filtered list encodes its sort.",
    // the seed says the cursor is refused ("rejected by validation" for REST mentions); its code and status are D-CURSOR's
    decisions: [decision("D-CURSOR", { title: /^the cursor of another sort was refused as / })],
  },
  decisions: ["D-CURSOR"],
  profiles: ["readonly", "standard", "full"],
  requires: ["POST /v1/mentions"],
  async run(ctx) {
    await requireMcp(ctx);
    const first = await callTool(ctx, "svc__list_mentions", { sort: "likes", order: "desc", limit: 1 });
    const cursor = payloadOf<ListResult>(first)?.cursor;
    if (first.problem || first.isError || typeof cursor !== "string")
      return ctx.skip(
        `svc__list_mentions sorted by likes gave no cursor to reuse (${first.problem ?? (first.isError ? JSON.stringify(first.toolError) : `cursor ${JSON.stringify(cursor)}`)})`,
      );
    const other = await callTool(ctx, "svc__list_mentions", { sort: "date", order: "desc", limit: 1, cursor });
    if (
      !ctx.expect(
        !other.problem && other.isError,
        {
          title: `a likes cursor reused with sort date was accepted: ${other.problem ?? JSON.stringify(other.payload ?? other.result).slice(0, 200)}`,
          received: other.result ?? { status: other.ex.status },
          expected: { isError: true, error: { code: "invalid_cursor", status: 400 } },
        },
        other.ex,
      )
    )
      return;
    ctx.expect(
      other.toolError?.code === "invalid_cursor" && other.toolError?.status === 400,
      {
        title: `the cursor of another sort was refused as ${JSON.stringify(other.toolError)}`,
        received: other.toolError,
        expected: { error: { code: "invalid_cursor", status: 400 } },
      },
      other.ex,
    );
  },
});
