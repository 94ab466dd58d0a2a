import { defineCheck } from "../define-check.ts";
import { DATASETS, sameJson, seen } from "./support/util.ts";
import { PAGE, firstPage, pageIds } from "./support/pagination.ts";

/** A cursor works with and without its `=` padding. */
export default defineCheck({
  id: "pagination-padding-optional",
  phase: "lists",
  rule: "A cursor is accepted with or without base64url `=` padding and yields the same page",
  section: "Resources › Conventions › Pagination (padding = is optional)",
  severity: "minor",
  rules: { seed: "Pass a cursor back unchanged; padding `=` is optional." },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    const { cursor } = await firstPage(ctx);
    const bare = cursor.replace(/=+$/, "");
    const padded = bare + "=".repeat((4 - (bare.length % 4)) % 4);
    const get = (c: string) =>
      ctx.req({ method: "GET", path: `${DATASETS}?limit=${PAGE}&order=desc&cursor=${encodeURIComponent(c)}` });
    const ref = await get(cursor);
    for (const [label, c] of [
      ["unpadded", bare],
      ["padded", padded],
    ] as const) {
      if (c === cursor) continue;
      const ex = await get(c);
      ctx.expect(
        ex.status === 200 && sameJson(pageIds(ex), pageIds(ref)),
        {
          title: `the ${label} form of a cursor was not accepted`,
          received: seen(ex),
          expected: { status: 200, data_ids: pageIds(ref) },
        },
        ex,
      );
    }
    if (bare === padded && bare === cursor) ctx.pass(ref);
  },
});
