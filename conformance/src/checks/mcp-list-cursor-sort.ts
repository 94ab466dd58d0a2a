import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { callTool, isToolError, requireMcp } from "../mcp/client.ts";
import { bodyOf, isObject } from "../typed.ts";
import { payloadOf } from "./support/mcp.ts";

/** A page of svc__list_mentions: `{content, cursor}`. */
type ListResult = { content: unknown[]; cursor: string | null };

/**
 * A cursor of a filtered MCP list encodes its sort: reused under another sort
 * it is refused inside the tool result (the seed; REST mentions reject such a
 * cursor by validation), and the ToolError's status mirrors what REST answers
 * the same reuse. Its code and status invalid_cursor / 400 are D-CURSOR's.
 */
export default defineCheck({
  id: "mcp-list-cursor-sort",
  phase: "mcp",
  rule: "svc__list_mentions: a cursor of a page sorted by likes, passed back with sort date, is a tool error (not a page of the other sort) whose status is what REST answers the same reuse; its code and status are invalid_cursor / 400 (D-CURSOR)",
  section: "Endpoints › MCP tool surface (a cursor of a filtered list encodes its sort); Endpoints › Mentions (cursor)",
  severity: "major",
  asserts: {
    refused: seed(
      ["mcp.list-cursor-sort", "mentions.cursor-sort"],
      words("a cursor of a filtered list encodes its sort"),
      words("a cursor from another sort is rejected by validation"),
    ),
    mirrors: seed("mcp.tool-errors", words("status mirrors the equivalent REST status")),
    code: decided("D-CURSOR"),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["POST /v1/mentions"],
  async run(ctx) {
    await requireMcp(ctx);
    const first = await callTool(ctx, "svc__list_mentions", { sort: "likes", order: "desc", limit: 1 });
    const cursor = payloadOf<ListResult>(first)?.cursor;
    if (first.problem || first.isError || typeof cursor !== "string")
      return ctx.skip(
        `svc__list_mentions sorted by likes gave no cursor to reuse (${first.problem ?? (first.isError ? JSON.stringify(first.toolError) : `cursor ${JSON.stringify(cursor)}`)}): the account holds fewer than two mentions`,
      );
    const other = await callTool(ctx, "svc__list_mentions", { sort: "date", order: "desc", limit: 1, cursor });
    const error: unknown = isObject(other.payload) ? other.payload.error : undefined;
    if (
      !ctx.expect(
        !other.problem && (other.isError || error !== undefined),
        {
          judges: "refused",
          title: `a likes cursor reused with sort date was accepted: ${other.problem ?? JSON.stringify(other.payload ?? other.result).slice(0, 200)}`,
          received: other.result ?? { status: other.ex.status },
          expected: { isError: true, error: { code: "invalid_cursor", status: 400 } },
        },
        other.ex,
      )
    )
      return;
    // the same reuse over REST: a likes cursor of POST /v1/mentions passed back with sort date
    const restFirst = await ctx.req({
      method: "POST",
      path: "/v1/mentions",
      body: { sort: "likes", order: "desc", limit: 1 },
    });
    const restCursor = bodyOf<{ cursor: unknown }>(restFirst)?.cursor;
    if (typeof restCursor === "string" && isToolError(error)) {
      const rest = await ctx.req({
        method: "POST",
        path: "/v1/mentions",
        body: { sort: "date", order: "desc", limit: 1, cursor: restCursor },
        meta: { negative: "a likes cursor reused with sort date (the REST twin)" },
      });
      if (rest.status >= 400 && rest.status < 500)
        ctx.expect(
          error.status === rest.status,
          {
            judges: "mirrors",
            title: `the tool refused the cursor with status ${error.status}, REST with ${rest.status}`,
            received: error,
            expected: { status: rest.status },
          },
          other.ex,
        );
    }
    ctx.expect(
      isToolError(error) && error.code === "invalid_cursor" && error.status === 400,
      {
        judges: "code",
        title: `the cursor of another sort was refused as ${JSON.stringify(error)}`,
        received: error,
        expected: { error: { code: "invalid_cursor", status: 400 } },
      },
      other.ex,
    );
  },
});
