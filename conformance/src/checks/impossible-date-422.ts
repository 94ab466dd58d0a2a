import { defineCheck } from "../define-check.ts";
import { decided } from "../grounding/assertions.ts";
import { status } from "../grounding/facts.ts";
import { fixtureDataset, seen, validationLocs } from "./support/util.ts";
import { RUN_COUNT, mentionPrice } from "./support/billing.ts";

/**
 * A calendar date that is well formed but does not exist (2026-02-30) is
 * request validation, like any other malformed date (D-BOUND-DATE: the
 * contract says `format: date`, so generated clients refuse it too). The
 * negative-data generator only breaks the pattern; this sends the dates a
 * pattern lets through.
 */
const IMPOSSIBLE = ["2026-02-30", "2026-04-31", "2025-02-29"];

export default defineCheck({
  id: "impossible-date-422",
  phase: "requests",
  rule: "A dataset run whose date_range.from is a well-formed date that does not exist (2026-02-30, 2026-04-31, 2025-02-29) gets 422 with the validation body pointing into [body, date_range]; nothing starts",
  section: "Endpoints › Datasets (run body: date_range; a well-formed date that does not exist is not addressed)",
  severity: "minor",
  // the seed writes "dates (YYYY-MM-DD)" and never says what a well-formed date that does not exist gets
  asserts: { refused: decided("D-BOUND-DATE", status(422)) },
  invalidRequests: true, // a validating proxy checks `format: date` itself
  requires: ["POST /v1/datasets/{dataset_id}/runs"],
  async run(ctx) {
    const ds = await fixtureDataset(ctx);
    const { price } = ctx.contract.op("GET /v1/prices") ? await mentionPrice(ctx) : { price: undefined };
    for (const from of IMPOSSIBLE) {
      // a non-conformant deployment would start (and charge) the run: guard it, release when refused
      const release = ctx.charge(
        price ? price.mul(RUN_COUNT).toFixed() : "0",
        `a date that does not exist, ${from} (refused if conformant)`,
        { negative: true },
      );
      const ex = await ctx.req({
        method: "POST",
        path: `/v1/datasets/${encodeURIComponent(ds.id)}/runs`,
        body: {
          search_query: { type: "prompt", sources: ["reddit"], search_query: "oat milk" },
          count: RUN_COUNT,
          date_range: { from, to: "2026-06-01" },
        },
        meta: { brokenLoc: ["body", "date_range", "from"], negative: `date_range.from ${from}` },
      });
      if (ex.status >= 400) release();
      // D-UNPROCESSABLE: the registry's lenient rule, as every other check reads it
      if (ex.status === 422 && ctx.lenient("D-UNPROCESSABLE", ex)) {
        ctx.pass(ex);
        continue;
      }
      const locs = validationLocs(ex);
      ctx.expect(
        ex.status === 422 && locs.some((l) => l[0] === "body" && l.includes("date_range")),
        {
          judges: "refused",
          title: `date_range.from ${from} answered ${ex.status}`,
          received: seen(ex),
          expected: { status: 422, body: { detail: [{ loc: ["body", "date_range", "from"], msg: "…", type: "…" }] } },
        },
        ex,
      );
    }
  },
});
