import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { status, words } from "../grounding/facts.ts";
import { fixtureDataset, seen, validationLocs } from "./support/util.ts";
import { RUN_COUNT, mentionPrice } from "./support/billing.ts";

/**
 * A date_range whose `from` does not precede `to` (reversed, or the same day)
 * is refused: the seed's rule. That the refusal is request validation (422
 * with the validation body at body.date_range) is D-DATE-RANGE-ORDER's.
 */
export default defineCheck({
  id: "date-range-order-422",
  phase: "requests",
  rule: "A dataset run whose date_range.from does not precede date_range.to (reversed, or the same day) is refused with a 4xx and starts nothing; the refusal is 422 with the validation body pointing at [body, date_range] (D-DATE-RANGE-ORDER)",
  section: "Endpoints › Datasets (run body: from must precede to)",
  severity: "major",
  asserts: {
    refused: seed("datasets.runs.body.date-range-order", words("from must precede to")),
    validation: decided("D-DATE-RANGE-ORDER", status(422)),
  },
  invalidRequests: false, // the generated schema cannot express the cross-field rule: Prism forwards it
  requires: ["POST /v1/datasets/{dataset_id}/runs"],
  async run(ctx) {
    const ds = await fixtureDataset(ctx);
    const { price } = ctx.contract.op("GET /v1/prices") ? await mentionPrice(ctx) : { price: undefined };
    for (const range of [
      { from: "2026-03-10", to: "2026-03-01" },
      // the same day: `from` does not precede `to` either (the off-by-one of the rule)
      { from: "2026-03-01", to: "2026-03-01" },
    ]) {
      // a non-conformant deployment would start (and charge) the run: guard it, release when refused
      const release = ctx.charge(
        price ? price.mul(RUN_COUNT).toFixed() : "0",
        "a reversed date range (refused if conformant)",
        { negative: true },
      );
      const ex = await ctx.req({
        method: "POST",
        path: `/v1/datasets/${encodeURIComponent(ds.id)}/runs`,
        body: {
          search_query: { type: "prompt", sources: ["reddit"], search_query: "oat milk" },
          count: RUN_COUNT,
          date_range: range,
        },
        meta: { brokenLoc: ["body", "date_range"], negative: `date_range ${range.from}..${range.to}` },
      });
      if (ex.status >= 400) release();
      if (ex.status === 402) {
        ctx.notExercised(`date_range ${range.from}..${range.to}: answered 402 (the balance was checked first)`);
        continue;
      }
      const refused = ctx.expect(
        ex.status >= 400 && ex.status < 500,
        {
          judges: "refused",
          title: `date_range ${range.from}..${range.to} answered ${ex.status}`,
          received: seen(ex),
          expected: { status: "4xx (from must precede to)" },
        },
        ex,
      );
      if (!refused) continue;
      // D-UNPROCESSABLE: the registry's lenient rule, as every other check reads it
      if (ex.status === 422 && ctx.lenient("D-UNPROCESSABLE", ex)) continue;
      const locs = validationLocs(ex);
      ctx.expect(
        ex.status === 422 && locs.some((l) => l[0] === "body" && l.includes("date_range")),
        {
          judges: "validation",
          title: `date_range ${range.from}..${range.to} was refused with ${ex.status}, not the validation body at [body, date_range]`,
          received: seen(ex),
          expected: { status: 422, body: { detail: [{ loc: ["body", "date_range"], msg: "…", type: "…" }] } },
        },
        ex,
      );
    }
  },
});
