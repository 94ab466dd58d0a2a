import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";
import { callTool, requireMcp, type ToolCall } from "../mcp/client.ts";
import { isObject, type Untrusted } from "../typed.ts";
import { payloadOf } from "./support/mcp.ts";
import { createDataset, listOf } from "./support/util.ts";

/** A page of any list tool: `{content, cursor}` (the seed). */
type ListResult = { content: unknown[]; cursor: string | null };

type SizeRule = "search-page" | "paging";

const LIST_TOOLS: Array<{ tool: string; needs: string; size: SizeRule; args?: Record<string, unknown> }> = [
  { tool: "svc__list_datasets", needs: "GET /v1/datasets", size: "paging" },
  {
    tool: "svc__list_mentions",
    needs: "POST /v1/mentions",
    size: "search-page",
    args: { sort: "likes", order: "desc" },
  },
  { tool: "svc__list_audience_datasets", needs: "GET /v1/audience_datasets", size: "paging" },
  { tool: "svc__list_audience_profiles", needs: "POST /v1/audience_profiles", size: "search-page" },
  { tool: "svc__list_tracking_agents", needs: "GET /v1/tracking_agents", size: "paging" },
];

const LIMIT = 2;
const MAX_PAGES = 8;

const keyOf = (item: unknown) => JSON.stringify((isObject(item) ? item.id : undefined) ?? item);

/**
 * Why a walk that stopped at its page cap never reached the end the seed
 * promises: a page that held no item, repeated an earlier page, or carried no
 * new item. Undefined when every page brought new items (a long list).
 */
function stuck(pages: unknown[][]): string | undefined {
  const seenKeys = new Set<string>();
  const seenPages = new Set<string>();
  for (const [i, items] of pages.entries()) {
    const keys = items.map(keyOf);
    if (keys.length === 0) return `page ${i + 1} is empty, its cursor not null`;
    if (seenPages.has(JSON.stringify(keys))) return `page ${i + 1} repeats an earlier page`;
    if (keys.every((k) => seenKeys.has(k))) return `page ${i + 1} carries no new item`;
    seenPages.add(JSON.stringify(keys));
    for (const k of keys) seenKeys.add(k);
  }
  return undefined;
}

/**
 * Each list tool, walked by passing its cursor back, answers `{content,
 * cursor}` pages and ends on a null cursor (the seed: "a null cursor means
 * the end"); a walk that reaches its cap on pages that are empty, repeat or
 * bring nothing new never reaches that end. The search tools take `limit` as
 * REST mentions (the seed), and no item comes twice (cursor-based paging);
 * the paging tools' limit and a garbage cursor's ToolError are D-MCP-PAGING's.
 */
export default defineCheck({
  id: "mcp-list-cursor-walk",
  phase: "mcp",
  rule: "Each list tool, walked with limit 2 by passing cursor back, answers {content, cursor} pages and ends with cursor null (a walk stuck on empty, repeated or stale pages fails); svc__list_mentions and svc__list_audience_profiles pages hold at most 2 items; no item comes twice; the paging tools' page size and a garbage cursor's ToolError invalid_cursor/400 are D-MCP-PAGING's",
  section: "Endpoints › MCP tool surface (lists return cursor; a null cursor means the end)",
  severity: "major",
  asserts: {
    page: seed(
      [
        "mcp.list-datasets",
        "mcp.list-audience-datasets",
        "mcp.list-audience-profiles",
        "mcp.list-mentions",
        "mcp.list-tracking-agents",
      ],
      field("content"),
      field("cursor"),
    ),
    end: seed("mcp.list-cursor", words("Lists return cursor; a null cursor means the end")),
    // cursor-based paging (the REST convention the tools' cursors follow) gives each item once
    once: seed(["mcp.list-cursor", "pagination.cursor-walk"], words("Cursor based"), words("Lists return cursor")),
    "search-page": seed(
      ["mcp.list-mentions", "mcp.list-audience-profiles"],
      words("limit as REST mentions"),
      words("mirrors the REST profiles endpoint"),
    ),
    paging: decided("D-MCP-PAGING"),
  },
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    await requireMcp(ctx);
    // more datasets than one page, so the walk of svc__list_datasets crosses a cursor
    if (ctx.settings.profile !== "readonly" && ctx.contract.op("POST /v1/datasets")) {
      const have = listOf(await ctx.req({ method: "GET", path: `/v1/datasets?limit=${LIMIT + 1}` }))?.length ?? 0;
      for (let i = have; i < LIMIT + 1; i++) await createDataset(ctx, `mcp-walk-${i}`);
    }
    for (const l of LIST_TOOLS) {
      if (!ctx.contract.op(l.needs)) {
        ctx.notExercised(`${l.tool}: its REST twin is outside the contract scope`);
        continue;
      }
      const seen = new Map<string, number>();
      const pages: unknown[][] = [];
      let cursor: string | null | undefined = null;
      let last: ToolCall | undefined;
      let ended = false;
      for (let p = 0; p < MAX_PAGES; p++) {
        last = await callTool(ctx, l.tool, { ...(l.args ?? {}), limit: LIMIT, ...(cursor ? { cursor } : {}) });
        const page: Untrusted<ListResult> | undefined = payloadOf<ListResult>(last);
        const content: unknown = page?.content;
        if (
          !ctx.expect(
            !last.problem &&
              !last.isError &&
              Array.isArray(content) &&
              (page?.cursor === null || typeof page?.cursor === "string"),
            {
              // a cursor the tool gave that leads to no page: the list never reaches its end
              judges: p > 0 && (last.isError || !!last.problem) ? "end" : "page",
              title: `${l.tool} page ${p + 1} ${last.problem ?? (last.isError ? `returned ${JSON.stringify(last.toolError)}` : "is not {content, cursor}")}`,
              received: last.result ?? { status: last.ex.status },
              expected: { content: "[…]", cursor: "string | null" },
            },
            last.ex,
          ) ||
          !Array.isArray(content)
        )
          break;
        ctx.expect(
          content.length <= LIMIT,
          {
            judges: l.size,
            title: `${l.tool} page ${p + 1} holds ${content.length} items for limit ${LIMIT}`,
            received: content.length,
            expected: `at most ${LIMIT}`,
          },
          last.ex,
        );
        pages.push(content as unknown[]);
        for (const item of content as unknown[]) {
          const id = keyOf(item);
          if (seen.has(id))
            ctx.fail(
              {
                judges: "once",
                title: `${l.tool} returned ${id} twice (pages ${seen.get(id)} and ${p + 1})`,
                received: id,
                expected: "each item once",
              },
              last.ex,
            );
          seen.set(id, p + 1);
        }
        cursor = page?.cursor;
        if (cursor === null) {
          ended = true;
          break;
        }
      }
      if (ended) {
        ctx.pass(last!.ex);
        if (pages.length === 1)
          ctx.notExercised(`${l.tool}: ${pages[0]!.length} item(s), one page: no cursor followed`);
        continue;
      }
      if (pages.length < MAX_PAGES) continue; // the walk broke on a page already reported
      const why = stuck(pages);
      if (why)
        ctx.fail(
          {
            judges: "end",
            title: `${l.tool} walk never reaches a null cursor: ${why}`,
            received: pages.map((xs) => xs.map(keyOf)),
            expected: "pages of new items, ending with cursor null",
          },
          last!.ex,
        );
      else ctx.notExercised(`${l.tool}: more than ${LIMIT * MAX_PAGES} items, walk stopped after ${MAX_PAGES} pages`);
    }
    const bad = await callTool(ctx, "svc__list_datasets", { cursor: "Zm9vYmFy" });
    ctx.expect(
      bad.isError && bad.toolError?.code === "invalid_cursor" && bad.toolError?.status === 400,
      {
        judges: "paging",
        title: `a garbage cursor returned ${bad.problem ?? JSON.stringify(bad.toolError ?? bad.payload)}`,
        received: bad.result ?? { status: bad.ex.status },
        expected: { isError: true, error: { code: "invalid_cursor", status: 400 } },
      },
      bad.ex,
    );
  },
});
