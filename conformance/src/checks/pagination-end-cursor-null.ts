import { decision, defineCheck } from "../define-check.ts";
import { DATASETS, seen, walk } from "./support/util.ts";
import { bodyOf } from "../typed.ts";
import { otherLists, paginationFixture, type Page } from "./support/pagination.ts";

/** has_next true ⇔ a string cursor; the last page has has_next false and cursor null. */
export default defineCheck({
  id: "pagination-end-cursor-null",
  phase: "lists",
  rule: "Every page with has_next true carries a cursor; the last page has has_next false and cursor null",
  section: "Resources › Conventions › Pagination (stop when has_next is false, then cursor is null)",
  severity: "major",
  rules: {
    seed: "Stop when `has_next` is false (then `cursor` is null).",
    decisions: [
      decision("D-LIST-ENVELOPE", { ops: /^(CustomParameters_list|CustomParameters_listRuns|TrackingAgents_list)$/ }),
    ],
  },
  decisions: ["D-LIST-ENVELOPE"],
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    await paginationFixture(ctx);
    // only the pages are judged here, never the items
    const w = await walk<unknown>(ctx, DATASETS, { limit: 100, order: "asc", maxPages: 20 });
    for (const p of w.pages) {
      const b = bodyOf<Page>(p);
      if (p.status !== 200) {
        ctx.fail(
          {
            title: `a page answered ${p.status}`,
            received: seen(p),
            expected: "200 with a page",
          },
          p,
        );
        continue;
      }
      if (b?.has_next === true)
        ctx.expect(
          typeof b.cursor === "string" && b.cursor.length > 0,
          {
            title: "has_next true without a cursor",
            received: { has_next: b.has_next, cursor: b.cursor },
            expected: { has_next: true, cursor: "<string>" },
          },
          p,
        );
      else
        ctx.expect(
          b?.has_next === false && b?.cursor === null,
          {
            title: "last page cursor is not null",
            received: { has_next: b?.has_next, cursor: b?.cursor },
            expected: { has_next: false, cursor: null },
          },
          p,
        );
    }
    if (!w.complete && !w.error)
      ctx.warn("the account has more than 2000 datasets; the end of the list was not reached");
    for (const op of otherLists(ctx)) {
      const o = await walk<unknown>(ctx, op.path, { limit: 100, maxPages: 5 });
      const last = o.pages.at(-1);
      if (!last) continue;
      const b = bodyOf<Page>(last);
      if (last.status !== 200) {
        ctx.fail(
          {
            title: `${op.operationId} answered ${last.status}`,
            received: seen(last),
            expected: "200 with a page",
          },
          last,
        );
        continue;
      }
      if (o.complete)
        ctx.expect(
          b?.has_next === false && b?.cursor === null,
          {
            title: `${op.operationId} last page cursor is not null`,
            received: { has_next: b?.has_next, cursor: b?.cursor },
            expected: { has_next: false, cursor: null },
          },
          last,
        );
      else if (b?.has_next === true)
        ctx.expect(
          typeof b.cursor === "string" && b.cursor.length > 0,
          {
            title: `${op.operationId} has_next true without a cursor`,
            received: { has_next: b.has_next, cursor: b.cursor },
            expected: { has_next: true, cursor: "<string>" },
          },
          last,
        );
    }
  },
});
