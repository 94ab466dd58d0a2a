import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import { bodyOf } from "../typed.ts";
import { DATASETS, seen } from "./support/util.ts";
import { equivalent, paginationFixture, viewOf, type Page } from "./support/pagination.ts";

/** The page sizes tried until a cursor has a padded form other than itself (its length not a multiple of 4, or padded already). */
const LIMITS = [2, 1, 3, 4, 5];

/** The other form of a cursor: padded to a multiple of 4 with `=` when it is bare, bare when it carries padding. */
function otherForm(cursor: string): string | undefined {
  const bare = cursor.replace(/=+$/, "");
  if (bare !== cursor) return bare;
  const pad = (4 - (bare.length % 4)) % 4;
  return pad ? bare + "=".repeat(pad) : undefined;
}

/**
 * "padding `=` is optional": a cursor of the dataset list and its other form
 * (padded when the deployment issued it bare, bare when it issued it padded)
 * give the same page, the same items and the same has_next. A cursor whose
 * length is a multiple of 4 has no other form: the kit tries other page sizes
 * until one has (not exercised when none does).
 */
export default defineCheck({
  id: "pagination-padding-optional",
  phase: "lists",
  rule: "A dataset list cursor and its other base64url form (with or without `=` padding) give the same page: the same items and the same has_next",
  section: "Resources › Conventions › Pagination (padding = is optional)",
  severity: "minor",
  asserts: {
    padding: seed("pagination.cursor-padding", words("padding `=` is optional")),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    await paginationFixture(ctx);
    for (const limit of LIMITS) {
      const first = await ctx.req({ method: "GET", path: `${DATASETS}?limit=${limit}` });
      const cursor = bodyOf<Page>(first)?.cursor;
      if (first.status !== 200 || typeof cursor !== "string") continue;
      const other = otherForm(cursor);
      if (!other) continue;
      const page = (c: string) => () =>
        ctx.req({ method: "GET", path: `${DATASETS}?limit=${limit}&cursor=${encodeURIComponent(c)}` });
      const eq = await equivalent(page(cursor), page(other));
      if (eq.verdict === "moving") return ctx.skip("not exercised: the dataset list kept changing between reads");
      const form = other.endsWith("=") ? "padded" : "unpadded";
      ctx.expect(
        eq.verdict === "same",
        {
          judges: "padding",
          title: `the ${form} form of a cursor answered ${eq.b.status}, not the page its issued form gives`,
          received: { cursor: other, ...describe(eq.b) },
          expected: { cursor, ...describe(eq.a) },
        },
        eq.b,
      );
      return;
    }
    ctx.skip(
      `not exercised: no page size of ${LIMITS.join(", ")} gave a cursor with another padded form (each a multiple of 4 long, or no second page)`,
    );
  },
});

const describe = (ex: Exchange) => ({ ...viewOf(ex), answer: ex.status === 200 ? undefined : seen(ex) });
