import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { successfulRun } from "./support/billing.ts";
import { countOf } from "./support/groups.ts";

/**
 * On completion a run is charged exactly the mentions it collected × the
 * mention price, its count and the price as the deployment reports them; the
 * rest of its reservation is refunded. The kit's run names a post and a URL
 * whose path says the post is gone, so a deployment that finds it gone
 * collects fewer mentions than it reserved and the refund is exercised.
 */
export default defineCheck({
  id: "billing-settlement-exact",
  phase: "billing",
  rule: "When a run completes, the balance is the starting balance − mentions_count × mention price, exactly (decimal arithmetic); unused reservation is refunded",
  section: "States › Dataset run (working → completed: charge for collected mentions only); Limits › Charges (1)",
  severity: "critical",
  asserts: {
    settled: seed(
      [
        "service.charges.dollar-balance",
        "service.charges.refund-on-completion",
        "dataset-run.working-to-completed",
        "charges.mention",
        "charges.refund-to-actuals",
      ],
      words("Chargeable work debits a US-dollar balance."),
      words("charge is for collected mentions only"),
      words("unused reservation refunded"),
      words("each mention collected by a dataset run"),
      words("refunded down to actuals"),
    ),
  },
  requires: [
    "POST /v1/datasets/{dataset_id}/runs",
    "GET /v1/datasets/{dataset_id}/runs/{run_id}",
    "GET /v1/me",
    "GET /v1/prices",
  ],
  async run(ctx) {
    const r = await successfulRun(ctx);
    if (r.final?.status?.type !== "completed")
      return ctx.skip(`not exercised: the billed run ended ${r.final?.status?.type}, not completed`);
    const n = countOf(r.final.mentions_count);
    if (n === undefined)
      return ctx.skip(
        `not exercised: the completed run reports no integer mentions_count (${JSON.stringify(r.final.mentions_count)})`,
      );
    // the unused part: what the deployment said it reserves (its count) beyond what it collected
    if (r.count !== undefined && r.count <= n)
      ctx.notExercised(
        `the run collected all ${r.count} mentions it reserved: no unused reservation was left to refund`,
      );
    const expected = r.before.minus(r.price.mul(n));
    ctx.expect(
      r.after.equals(expected),
      {
        judges: "settled",
        title: `the settled balance is $${r.before.minus(r.after).toFixed()} below the start, not mentions_count × price`,
        received: r.after.toFixed(),
        expected: `${r.before.toFixed()} − ${n} × ${r.price.toFixed()} = ${expected.toFixed()}`,
      },
      r.meAfter,
    );
  },
});
