import { defineCheck } from "../define-check.ts";
import { successfulRun } from "./support/billing.ts";

/** On completion the charge is exactly collected mentions × price; the rest is refunded. */
export default defineCheck({
  id: "billing-settlement-exact",
  phase: "billing",
  rule: "When a run completes, the balance is the starting balance − mentions_count × mention price, exactly (decimal arithmetic); unused reservation is refunded",
  section: "States › Dataset run (working → completed: charge for collected mentions only); Limits › Charges (1)",
  severity: "critical",
  rules: { seed: "charge is for collected mentions only; unused reservation refunded" },
  requires: [
    "POST /v1/datasets/{dataset_id}/runs",
    "GET /v1/datasets/{dataset_id}/runs/{run_id}",
    "GET /v1/me",
    "GET /v1/prices",
  ],
  async run(ctx) {
    const r = await successfulRun(ctx);
    if (r.final?.status?.type !== "completed")
      return ctx.skip(`the keyword run ended ${r.final?.status?.type}, not completed`);
    const n = Number(r.final.mentions_count);
    const expected = r.before.minus(r.price.mul(n));
    ctx.expect(
      r.after.equals(expected),
      {
        title: "settled balance is not balance − mentions_count × price",
        received: r.after.toFixed(),
        expected: `${r.before.toFixed()} − ${n} × ${r.price.toFixed()} = ${expected.toFixed()}`,
      },
      r.meAfter,
    );
  },
});
