import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import type { CheckContext } from "../types.ts";
import { DATASETS, seen, walk, type Walk } from "./support/util.ts";
import { bodyOf } from "../typed.ts";
import { failStuckWalk, listJudge, otherLists, paginationFixture, type Page } from "./support/pagination.ts";

type Judge = "end" | "cursor" | "endParameters" | "endAgents";
const NAMES = { seed: "end", "D-CP-LIST": "endParameters", "D-TA-LIST": "endAgents" } as const;

/**
 * has_next true carries a cursor to follow; the last page has has_next false
 * and cursor null. A walk that stops at its page cap without reaching that end
 * fails when its pages are stuck (empty, repeated, nothing new), and is not
 * exercised when the list is merely long.
 */
export default defineCheck({
  id: "pagination-end-cursor-null",
  phase: "lists",
  rule: "Every page with has_next true carries a cursor; the last page has has_next false and cursor null; a walk does reach that end",
  section: "Resources › Conventions › Pagination (stop when has_next is false, then cursor is null)",
  severity: "major",
  asserts: {
    end: seed("pagination.end-cursor-null", words("Stop when `has_next` is false"), words("then `cursor` is null")),
    cursor: seed("pagination.cursor-walk", words("Cursor based")),
    endParameters: decided("D-CP-LIST"),
    endAgents: decided("D-TA-LIST"),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    await paginationFixture(ctx);
    // only the pages are judged here, never the items; pages of 5 so the kit's datasets span several
    const w = await walk<unknown>(ctx, DATASETS, { limit: 5, order: "asc", maxPages: 40 });
    for (const p of w.pages) judgePage(ctx, p, "end", "a page");
    judgeCap(ctx, w, "end", "GET /v1/datasets");
    for (const op of otherLists(ctx)) {
      const judges = listJudge<Judge>(op.path, NAMES);
      const o = await walk<unknown>(ctx, op.path, { limit: 100, maxPages: 5 });
      for (const p of o.pages) judgePage(ctx, p, judges, op.operationId);
      judgeCap(ctx, o, judges, op.operationId);
    }
  },
});

/** One page: 200 with a page; has_next true with a string cursor, else has_next false with cursor null. */
function judgePage(ctx: CheckContext<Judge>, p: Exchange, judges: Judge, what: string): void {
  const b = bodyOf<Page>(p);
  if (p.status !== 200 || !Array.isArray(b?.data)) {
    ctx.fail(
      { judges, title: `${what} answered ${p.status} without a page`, received: seen(p), expected: "200 with a page" },
      p,
    );
    return;
  }
  if (b.has_next === true)
    ctx.expect(
      typeof b.cursor === "string" && b.cursor.length > 0,
      {
        judges: judges === "end" ? "cursor" : judges,
        title: `${what}: has_next true without a cursor`,
        received: { has_next: b.has_next, cursor: b.cursor },
        expected: { has_next: true, cursor: "<string>" },
      },
      p,
    );
  else
    ctx.expect(
      b.has_next === false && b.cursor === null,
      {
        judges,
        title: `${what}: the last page has has_next ${JSON.stringify(b.has_next)} and cursor ${JSON.stringify(b.cursor)}`,
        received: { has_next: b.has_next, cursor: b.cursor },
        expected: { has_next: false, cursor: null },
      },
      p,
    );
}

/** A walk stopped at its cap: stuck pages fail (the end never comes), a long list is not exercised. */
function judgeCap(ctx: CheckContext<Judge>, w: Walk<unknown>, judges: Judge, what: string): void {
  if (!w.capped || failStuckWalk(ctx, w, judges, what)) return;
  ctx.notExercised(`${what}: the list is longer than ${w.pages.length} pages; its end was not reached`);
}
