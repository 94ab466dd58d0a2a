import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { bound, words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import type { CheckContext } from "../types.ts";
import { DATASETS, seen } from "./support/util.ts";
import { bodyOf } from "../typed.ts";
import { listJudge, otherLists, pageSize, paginationFixture, type Page } from "./support/pagination.ts";

type Judge = "limit" | "limitParameters" | "limitAgents" | "fill";
const NAMES = { seed: "limit", "D-CP-LIST": "limitParameters", "D-TA-LIST": "limitAgents" } as const;

/**
 * A page holds at most `limit` items, and the ends of the range (1 and 100)
 * are accepted: the dataset list at 1, 3 and 100, every other parameterless
 * list at 1 and 100. That a page before the end (has_next true) is full is
 * D-PAGE-FILL, judged apart. The default page sizes are judged by the
 * equivalence checks (a page without limit is the page with the default).
 */
export default defineCheck({
  id: "pagination-limit-respected",
  phase: "lists",
  rule: "A page holds at most `limit` items; limit 1 and 100 are accepted; a page with has_next true holds exactly `limit` (D-PAGE-FILL)",
  section: "Limits › Concurrency and caps (page size); Resources › Conventions › Pagination",
  severity: "major",
  asserts: {
    limit: seed("pagination.limit-range", bound(1), bound(100), words("Page size")),
    limitParameters: decided("D-CP-LIST"),
    limitAgents: decided("D-TA-LIST"),
    fill: decided("D-PAGE-FILL"),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    await paginationFixture(ctx);
    for (const limit of [1, 3, 100]) await page(ctx, DATASETS, limit, "limit", "GET /v1/datasets");
    for (const other of otherLists(ctx))
      for (const limit of [1, 100])
        await page(ctx, other.path, limit, listJudge<Judge>(other.path, NAMES), other.operationId);
  },
});

async function page(ctx: CheckContext<Judge>, path: string, limit: number, judges: Judge, what: string) {
  const ex: Exchange = await ctx.req({ method: "GET", path: `${path}?limit=${limit}` });
  const b = bodyOf<Page>(ex);
  const n = pageSize(ex);
  const within = ctx.expect(
    ex.status === 200 && n >= 0 && n <= limit,
    {
      judges,
      title: `${what} limit=${limit} answered ${ex.status} with ${n < 0 ? "no page" : `${n} items`}`,
      received: ex.status === 200 ? { items: n, has_next: b?.has_next } : seen(ex),
      expected: { status: 200, items: `<= ${limit}` },
    },
    ex,
  );
  if (within && b?.has_next === true)
    ctx.expect(
      n === limit,
      {
        judges: judges === "limit" ? "fill" : judges,
        title: `${what} limit=${limit} returned ${n} items with has_next true: a short page before the end`,
        received: { items: n, has_next: true },
        expected: { items: limit, has_next: true },
      },
      ex,
    );
}
