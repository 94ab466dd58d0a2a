import { decision, defineCheck } from "../define-check.ts";
import { fixtureDataset, seen, validationLocs } from "./support/util.ts";
import { RUN_COUNT, mentionPrice } from "./support/billing.ts";

/** A reversed date_range is request validation (422 validation body at body.date_range), not a run. */
export default defineCheck({
  id: "date-range-order-422",
  phase: "requests",
  rule: "A dataset run whose date_range.from is not before date_range.to gets 422 with the validation body pointing at [body, date_range]; nothing starts",
  section: "Endpoints › Datasets (run body: from must precede to)",
  severity: "major",
  rules: {
    refusals: true,
    seed: "`from` must precede `to`",
    decisions: [decision("D-DATE-RANGE-ORDER", { status: (s) => s >= 400 && s < 500 })],
  },
  decisions: ["D-DATE-RANGE-ORDER"],
  invalidRequests: false, // the generated schema cannot express the cross-field rule: Prism forwards it
  requires: ["POST /v1/datasets/{dataset_id}/runs"],
  async run(ctx) {
    const ds = await fixtureDataset(ctx);
    const { price } = ctx.contract.op("GET /v1/prices") ? await mentionPrice(ctx) : { price: undefined };
    for (const range of [
      { from: "2026-03-10", to: "2026-03-01" },
      { from: "2026-03-01", to: "2026-03-01" },
    ]) {
      // a non-conformant deployment would start (and charge) the run: guard it, release when refused
      const release = ctx.charge(
        price ? price.mul(RUN_COUNT).toFixed() : "0",
        "a reversed date range (refused if conformant)",
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
      // D-UNPROCESSABLE: the registry's lenient rule, as every other check reads it
      if (ex.status === 422 && ctx.lenient("D-UNPROCESSABLE", ex)) {
        ctx.pass(ex);
        continue;
      }
      const locs = validationLocs(ex);
      ctx.expect(
        ex.status === 422 && locs.some((l) => l[0] === "body" && l.includes("date_range")),
        {
          title: `date_range ${range.from}..${range.to} answered ${ex.status}`,
          received: seen(ex),
          expected: { status: 422, body: { detail: [{ loc: ["body", "date_range"], msg: "…", type: "…" }] } },
        },
        ex,
      );
    }
  },
});
