import { decision, defineCheck } from "../define-check.ts";
import { bodyOf } from "../typed.ts";
import { DATASETS, seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { PAGE, firstPage, type Page } from "./support/pagination.ts";

/** A cursor encodes its sort: reusing it after a change of order is 400 invalid_cursor. */
export default defineCheck({
  id: "pagination-sort-change-cursor-400",
  phase: "lists",
  rule: "A cursor reused across a change of sort (dataset list order=desc → asc; mention search sort=date → likes) gets 400 invalid_cursor",
  section: "Endpoints › Mentions; Endpoints › Audience profiles (cursor encodes the sort)",
  severity: "major",
  rules: {
    refusals: true,
    seed: "a cursor from another sort is rejected by validation",
    decisions: [decision("D-CURSOR", { status: (s) => s >= 400 && s < 500 })],
  },
  decisions: ["D-CURSOR"],
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    const { cursor } = await firstPage(ctx, "desc");
    const ex = await ctx.req({
      method: "GET",
      path: `${DATASETS}?limit=${PAGE}&order=asc&cursor=${encodeURIComponent(cursor)}`,
    });
    ctx.expect(
      ex.status === 400 && errorCode(ex) === "invalid_cursor",
      {
        title: `a desc cursor reused with order=asc answered ${ex.status}`,
        received: seen(ex),
        expected: { status: 400, error_code: "invalid_cursor" },
      },
      ex,
    );
    // mention searches: the cursor encodes the sort field
    if (ctx.contract.op("POST /v1/mentions")) {
      const first = await ctx.req({
        method: "POST",
        path: "/v1/mentions",
        body: { sort: "date", order: "desc", limit: 1 },
      });
      const c = bodyOf<Page>(first)?.cursor;
      if (typeof c !== "string") {
        ctx.warn("mention search has fewer than two results; the sort-change case was not exercised", first);
        return;
      }
      const again = await ctx.req({
        method: "POST",
        path: "/v1/mentions",
        body: { sort: "likes", order: "desc", limit: 1, cursor: c },
      });
      ctx.expect(
        again.status === 400 && errorCode(again) === "invalid_cursor",
        {
          title: `a mention cursor of sort=date reused with sort=likes answered ${again.status}`,
          received: seen(again),
          expected: { status: 400, error_code: "invalid_cursor" },
        },
        again,
      );
    }
  },
});
