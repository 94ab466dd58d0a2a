import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import type { CheckContext } from "../types.ts";
import { failStuckWalk, itemKey, listJudge, otherLists, smallPageWalk } from "./support/pagination.ts";
import { listOf, seen, walk, type Walk } from "./support/util.ts";

type Judge = "walk" | "walkParameters" | "walkAgents";
const NAMES = { seed: "walk", "D-CP-LIST": "walkParameters", "D-TA-LIST": "walkAgents" } as const;

/**
 * Following cursors visits every item once: the dataset list in pages of 2
 * past the datasets the kit created (each created one found, none twice),
 * every other parameterless list in pages of 2 (none twice). A walk that
 * stops at its cap while its pages are stuck (empty, repeated, nothing new)
 * fails; a list merely longer than the cap is walked as far as it goes.
 */
export default defineCheck({
  id: "pagination-full-walk",
  phase: "lists",
  rule: "Following cursors page by page returns every item exactly once (no overlap, no gap), and the pages move on",
  section: "Resources › Conventions › Pagination",
  severity: "critical",
  asserts: {
    walk: seed("pagination.cursor-walk", words("Cursor based")),
    walkParameters: decided("D-CP-LIST"),
    walkAgents: decided("D-TA-LIST"),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    const { ids, walk: main, items } = await smallPageWalk(ctx);
    judgeWalk(ctx, main, "walk", "GET /v1/datasets");
    const missing = ids.filter((id) => !items.some((x) => x?.id === id));
    ctx.expect(
      missing.length === 0,
      {
        judges: "walk",
        title: `${missing.length} created item(s) never returned by the walk`,
        received: items.map((y) => y?.id),
        expected: `includes ${missing.join(", ")}`,
      },
      main.pages.at(-1),
    );
    // every other parameterless list of the contract: no item twice across pages of 2
    for (const op of otherLists(ctx)) {
      const w = await walk<unknown>(ctx, op.path, { limit: 2, maxPages: 6 });
      judgeWalk(ctx, w, listJudge<Judge>(op.path, NAMES), op.operationId);
    }
  },
});

/** A walk's pages: each answered, no item twice, and not stuck at its cap. */
function judgeWalk(ctx: CheckContext<Judge>, w: Walk<unknown>, judges: Judge, what: string): void {
  if (w.error) {
    ctx.fail(
      {
        judges,
        title: `${what}: a page of the walk answered ${w.error.status} without a page or a cursor to follow`,
        received: seen(w.error),
        expected: "200 with a page (and a cursor while has_next is true)",
      },
      w.error,
    );
    return;
  }
  const keys = w.items.map(itemKey);
  const dup = keys.findIndex((k, i) => keys.indexOf(k) !== i);
  ctx.expect(
    dup < 0,
    {
      judges,
      title: `${what}: item ${keys[dup]} returned twice (positions ${keys.indexOf(keys[dup]!)} and ${dup})`,
      received: keys,
      expected: "each item once",
    },
    pageOf(w, dup),
  );
  if (dup < 0) failStuckWalk(ctx, w, judges, what);
}

/** The page an item position of the walk came from. */
function pageOf(w: Walk<unknown>, index: number): Exchange | undefined {
  let seenItems = 0;
  for (const p of w.pages) {
    const n = listOf(p)?.length ?? 0;
    if (index < seenItems + n) return p;
    seenItems += n;
  }
  return w.pages.at(-1);
}
