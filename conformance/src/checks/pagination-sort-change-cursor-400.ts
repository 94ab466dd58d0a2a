import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import { bodyOf } from "../typed.ts";
import { seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { mentionsAtLeast } from "./support/mentions.ts";
import type { Page } from "./support/pagination.ts";

/**
 * A mention search cursor is sort-aware: reused under another sort it is
 * rejected (the seed states this for the mention search only; a profile
 * search's "do not reuse" is advice to clients, and an `order` change on
 * other lists is no sort change). The refusal is the seed's; that it is 400
 * invalid_cursor is D-CURSOR, judged apart.
 */
export default defineCheck({
  id: "pagination-sort-change-cursor-400",
  phase: "lists",
  rule: "A mention search cursor of sort=date reused with sort=likes is rejected (a 4xx); 400 invalid_cursor is D-CURSOR",
  section: "Endpoints › Mentions (cursor: sort-aware)",
  severity: "major",
  asserts: {
    rejected: seed("mentions.cursor-sort", words("a cursor from another sort is rejected")),
    invalidCursor: decided("D-CURSOR", status(400), code("invalid_cursor")),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["POST /v1/mentions"],
  async run(ctx) {
    await mentionsAtLeast(ctx, 2);
    const first = await ctx.req({
      method: "POST",
      path: "/v1/mentions",
      body: { sort: "date", order: "desc", limit: 1 },
    });
    const c = bodyOf<Page>(first)?.cursor;
    if (first.status !== 200 || typeof c !== "string")
      return ctx.skip(
        `not exercised: a mention search of one per page gave no cursor (${first.status}; the account holds fewer than two mentions)`,
      );
    const again = await ctx.req({
      method: "POST",
      path: "/v1/mentions",
      body: { sort: "likes", order: "desc", limit: 1, cursor: c },
    });
    const rejected = ctx.expect(
      again.status >= 400 && again.status < 500,
      {
        judges: "rejected",
        title: `a mention cursor of sort=date reused with sort=likes answered ${again.status}`,
        received: seen(again),
        expected: { status: "4xx (rejected)" },
      },
      again,
    );
    if (rejected)
      ctx.expect(
        again.status === 400 && errorCode(again) === "invalid_cursor",
        {
          judges: "invalidCursor",
          title:
            `the reused cursor was rejected with ${again.status} ${errorCode(again) ?? ""}, not 400 invalid_cursor`.trimEnd(),
          received: seen(again),
          expected: { status: 400, error_code: "invalid_cursor" },
        },
        again,
      );
  },
});
