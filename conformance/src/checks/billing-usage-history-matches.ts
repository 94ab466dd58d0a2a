import { decision, defineCheck } from "../define-check.ts";
import { dec, emptyRun, newRows, successfulRun } from "./support/billing.ts";

/** Usage history shows the settled charge: one mention row of mentions_count × price. */
export default defineCheck({
  id: "billing-usage-history-matches",
  phase: "billing",
  rule: "After a completed run, usage history gains a `mention` row whose quantity equals the settled charge (mentions_count × price); quantities are never negative; an uncharged run adds no charge",
  section: "Resources › Usage history row; Endpoints › Account and prices",
  severity: "major",
  rules: {
    seed: "`quantity` (non-negative US dollars charged in the credit-era revision; earlier text states charges positive and refunds negative)",
    decisions: [decision("D-USAGE-SIGN", { title: /negative|sign|refund row/ })],
  },
  decisions: ["D-USAGE-SIGN"],
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/me/usage_history", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const r = await successfulRun(ctx);
    if (r.final?.status?.type !== "completed") return ctx.skip("the keyword run did not complete");
    const charge = r.price.mul(Number(r.final.mentions_count));
    const added = newRows(r.rowsBefore, r.rowsAfter);
    const match = added.filter((row) => row?.category === "mention" && dec(row?.quantity)?.equals(charge));
    ctx.expect(
      charge.isZero() ? true : match.length === 1,
      {
        title: "no single usage row matches the settled charge",
        received: added,
        expected: [{ category: "mention", quantity: Number(charge.toFixed()) }],
      },
      r.usageAfter,
    );
    const negative = r.rowsAfter.find((row) => dec(row?.quantity)?.isNegative() ?? false);
    ctx.expect(
      !negative,
      {
        title: "a usage row has a negative quantity",
        received: negative,
        expected: "quantity >= 0",
      },
      r.usageAfter,
    );
    if (ctx.contract.op("GET /v1/datasets/{dataset_id}/runs/{run_id}")) {
      const e = await emptyRun(ctx);
      const extra = newRows(e.rowsBefore, e.rowsAfter).filter((row) => !(dec(row?.quantity)?.isZero() ?? true));
      const charged = e.final?.status?.type === "completed" ? Number(e.final.mentions_count) : 0;
      if (charged === 0)
        ctx.expect(
          extra.length === 0,
          {
            title: "a run that collected nothing wrote a charge row",
            received: extra,
            expected: "no new non-zero rows",
          },
          e.usageAfter,
        );
    }
  },
});
