import { decision, defineCheck } from "../define-check.ts";
import { detection } from "./support/patterns.ts";
import { expectAfterStart } from "./support/groups.ts";

/**
 * A detection is priced on the posts of the dataset's most recent completed run, not the whole dataset. The
 * balance right after the create is judged against the detection's state read around it (expectAfterStart):
 * one already ended is judged by its settlement or release, the reservation reported not exercised.
 */
export default defineCheck({
  id: "pattern-detection-billing-latest-run",
  phase: "groups",
  rule: "Starting a pattern detection reserves the latest completed run's mentions_count × the post_processing price (not the dataset's mentions_count); a completed detection charges that amount and a failed one nothing",
  section:
    "Limits › Charges (post_processing: pattern detection counts posts of the dataset's most recent completed run); States › Pattern detection run (failure refunds in full)",
  severity: "critical",
  rules: {
    seed: "pattern detection counts posts of the dataset's most recent completed run",
    decisions: [decision("D-PDR-CHARGE", { title: /later run|fixed/ })],
  },
  decisions: ["D-PDR-CHARGE", "D-RUN-STATES", "D-REF-RUN-LIFECYCLE"],
  requires: ["POST /v1/pattern_detections", "GET /v1/pattern_detections/{run_id}", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const d = await detection(ctx);
    // the support skips unless the latest run completed, so its count is the deployment's (a missing one reads NaN)
    const latestCount = d.latestRun?.mentions_count;
    const expected = d.price.mul(latestCount ?? NaN);
    if (latestCount === d.datasetMentions)
      ctx.notExercised("the latest run holds every post of the dataset: latest run and dataset cannot be told apart");
    // judged against the detection's state read around the balance: a fast one may have ended already
    expectAfterStart(ctx, d.afterCreate, d.before, {
      run: "the detection",
      title: (seen, debit, states) =>
        seen === "reserved"
          ? `the reservation is $${debit}`
          : `the balance right after the create is $${debit} less, not what the detection's observed state (${states}) leaves`,
      reserved: `${expected.toFixed()} (${latestCount} posts of the latest run; the dataset holds ${d.datasetMentions})`,
      ex: d.create,
    });
    const status = d.final?.status;
    const type = status?.type;
    const charged = d.before.minus(d.after);
    if (type === "completed")
      ctx.expect(
        charged.equals(expected),
        {
          title: `a completed detection charged $${charged.toFixed()}`,
          received: charged.toFixed(),
          expected: expected.toFixed(),
        },
        d.finalEx,
      );
    else if (type === "failed")
      ctx.expect(
        charged.isZero() && typeof status?.error_message === "string",
        {
          title: "a failed detection kept a charge or has no error_message",
          received: { charged: charged.toFixed(), status },
          expected: { charged: "0", status: { type: "failed", error_message: "…" } },
        },
        d.finalEx,
      );
  },
});
