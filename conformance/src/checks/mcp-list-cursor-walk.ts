import { decision, defineCheck } from "../define-check.ts";
import { callTool, requireMcp, type ToolCall } from "../mcp/client.ts";
import { isObject, type Untrusted } from "../typed.ts";
import { payloadOf } from "./support/mcp.ts";

/** A page of any list tool: `{content, cursor}` (D-MCP-PAGING). */
type ListResult = { content: unknown[]; cursor: string | null };

const LIST_TOOLS: Array<{ tool: string; needs: string; args?: Record<string, unknown> }> = [
  { tool: "svc__list_datasets", needs: "GET /v1/datasets" },
  { tool: "svc__list_mentions", needs: "POST /v1/mentions", args: { sort: "likes", order: "desc" } },
  { tool: "svc__list_audience_datasets", needs: "GET /v1/audience_datasets" },
  { tool: "svc__list_audience_profiles", needs: "POST /v1/audience_profiles" },
  { tool: "svc__list_tracking_agents", needs: "GET /v1/tracking_agents" },
];

/** Following each list tool's cursor returns every item once and ends on a null cursor; a garbage cursor is invalid_cursor. */
export default defineCheck({
  id: "mcp-list-cursor-walk",
  phase: "mcp",
  rule: "Each list tool, walked with limit 2 by passing cursor back, returns {content, cursor} pages with at most 2 items, no item twice, and ends with cursor null; a garbage cursor is ToolError invalid_cursor/400",
  section: "Endpoints › MCP tool surface (lists return cursor; null means the end)",
  severity: "major",
  rules: {
    seed: "Lists return `cursor`; a null cursor means the end",
    decisions: [
      decision("D-MCP-PAGING", { title: /^a garbage cursor/ }),
      // "optional paging": the `limit` argument of the three paging tools is the contract's (the search tools take REST's, a seed rule)
      decision("D-MCP-PAGING", {
        title: /^svc__list_(datasets|audience_datasets|tracking_agents) page \d+ holds \d+ items for limit 2/,
      }),
    ],
  },
  decisions: ["D-MCP-PAGING"],
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    await requireMcp(ctx);
    for (const l of LIST_TOOLS) {
      if (!ctx.contract.op(l.needs)) {
        ctx.notExercised(`${l.tool}: its REST twin is outside the contract scope`);
        continue;
      }
      const seen = new Map<unknown, number>();
      let cursor: string | null | undefined = null;
      let pages = 0;
      let ended = false;
      for (; pages < 8; pages++) {
        const call: ToolCall = await callTool(ctx, l.tool, {
          ...(l.args ?? {}),
          limit: 2,
          ...(cursor ? { cursor } : {}),
        });
        const page: Untrusted<ListResult> | undefined = payloadOf<ListResult>(call);
        const content: unknown = page?.content;
        if (
          !ctx.expect(
            !call.problem &&
              !call.isError &&
              Array.isArray(content) &&
              content.length <= 2 &&
              (page?.cursor === null || typeof page?.cursor === "string"),
            {
              title: `${l.tool} page ${pages + 1} ${call.problem ?? (call.isError ? `returned ${JSON.stringify(call.toolError)}` : Array.isArray(content) && content.length > 2 && (page?.cursor === null || typeof page?.cursor === "string") ? `holds ${content.length} items for limit 2` : "is not {content (≤ 2 items), cursor}")}`,
              received: call.result ?? { status: call.ex.status },
              expected: { content: "≤ 2 items", cursor: "string | null" },
            },
            call.ex,
          ) ||
          !Array.isArray(content)
        )
          break;
        for (const item of content as unknown[]) {
          const id = (isObject(item) ? item.id : undefined) ?? JSON.stringify(item);
          if (seen.has(id))
            ctx.fail(
              {
                title: `${l.tool} returned ${id} twice (pages ${seen.get(id)} and ${pages + 1})`,
                received: id,
                expected: "each item once",
              },
              call.ex,
            );
          seen.set(id, pages + 1);
        }
        cursor = page?.cursor;
        if (cursor === null) {
          ended = true;
          break;
        }
      }
      if (ended) ctx.expect(true, { title: `${l.tool} walk ended` });
      else if (pages >= 8) ctx.notExercised(`${l.tool}: more than 16 items, walk stopped after 8 pages`);
    }
    const bad = await callTool(ctx, "svc__list_datasets", { cursor: "Zm9vYmFy" });
    ctx.expect(
      bad.isError && bad.toolError?.code === "invalid_cursor" && bad.toolError?.status === 400,
      {
        title: `a garbage cursor returned ${bad.problem ?? JSON.stringify(bad.toolError ?? bad.payload)}`,
        received: bad.result ?? { status: bad.ex.status },
        expected: { isError: true, error: { code: "invalid_cursor", status: 400 } },
      },
      bad.ex,
    );
  },
});
