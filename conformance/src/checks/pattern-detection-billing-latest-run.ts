import type { Decimal } from "decimal.js";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, value, words } from "../grounding/facts.ts";
import { detection, type LatestPosts } from "./support/patterns.ts";
import { windowAllReserved } from "./support/groups.ts";

/** What the latest run's posts give as a charge: exact, or the bounds the deployment's counts allow. */
function chargeOf(latest: LatestPosts, price: Decimal): { low?: Decimal; high?: Decimal; text: string } {
  if (latest.exact !== undefined)
    return {
      low: price.mul(latest.exact),
      high: price.mul(latest.exact),
      text: `${latest.exact} posts of the latest run × ${price.toFixed()} = ${price.mul(latest.exact).toFixed()}`,
    };
  const low = latest.low !== undefined ? price.mul(latest.low) : undefined;
  const high = latest.high !== undefined ? price.mul(latest.high) : undefined;
  return {
    low,
    high,
    text: `between ${low?.toFixed() ?? "?"} (${latest.low ?? "?"} posts new in the latest run) and ${high?.toFixed() ?? "?"} (${latest.high ?? "?"}: its mentions_count, at most the dataset's) × ${price.toFixed()}`,
  };
}

const within = (v: Decimal, c: { low?: Decimal; high?: Decimal }) =>
  (c.low === undefined || v.gte(c.low)) && (c.high === undefined || v.lte(c.high));

/**
 * A detection is priced on the posts of the dataset's most recent completed
 * run, not the whole dataset: held while in flight (the upper bound,
 * reserved before work) and charged on completion; a failed one refunds the
 * reservation in full. The posts of the latest run come from the
 * deployment's own counts (the run's mentions_count and the dataset's
 * before and after it): exact when the run's posts were all new to the
 * dataset, otherwise bounded by them. A detection already ended when the
 * balance is read is judged by its final charge alone, the reservation
 * reported not exercised.
 */
export default defineCheck({
  id: "pattern-detection-billing-latest-run",
  phase: "groups",
  rule: "Starting a pattern detection reserves the latest completed run's posts × the post_processing price (not the dataset's posts); a completed detection charges that amount and a failed one nothing; a failed one carries error_message (D-PDR-STATES)",
  section:
    "Limits › Charges (post_processing: pattern detection counts posts of the dataset's most recent completed run; reservation); States › Pattern detection run (failure refunds in full)",
  severity: "critical",
  asserts: {
    reserved: seed(
      ["charges.post-processing.pattern", "charges.reservation-before-work"],
      words("pattern detection counts posts of the dataset's most recent completed run"),
      words("the upper bound is reserved before work starts"),
    ),
    charged: seed(
      "charges.post-processing.pattern",
      words("pattern detection counts posts of the dataset's most recent completed run"),
      words("post_processing | 0.5 | each post processed"),
    ),
    refunded: seed("pattern-detection-run.failure-refund", words("Failure refunds the reservation in full.")),
    failedMessage: decided("D-PDR-STATES", value("failed"), field("error_message")),
  },
  requires: ["POST /v1/pattern_detections", "GET /v1/pattern_detections/{run_id}", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const d = await detection(ctx);
    const { latest } = d;
    const expected = chargeOf(latest, d.price);
    if (latest.exact === undefined)
      ctx.notExercised(
        `the latest run's ${latest.runCount ?? "?"} mentions added ${latest.low ?? "?"} posts to the dataset: its posts are not known exactly, so the charge is held to bounds`,
      );
    else if (latest.exact === latest.datasetAfter)
      ctx.notExercised("the latest run holds every post of the dataset: latest run and dataset cannot be told apart");

    const w = d.afterCreate;
    const debit = d.before.minus(w.balance);
    if (w.unreadable)
      ctx.notExercised(
        `the detection as read around the balance (${w.unreadable.status}) gave no state: the balance right after the start was not judged`,
      );
    else if (windowAllReserved(w))
      ctx.expect(
        within(debit, expected),
        {
          judges: "reserved",
          title: `the detection held $${debit.toFixed()} while in flight`,
          received: { debit: debit.toFixed(), dataset_posts: latest.datasetAfter },
          expected: expected.text,
        },
        d.create,
      );
    else
      ctx.notExercised(
        "the detection had ended when the balance was read right after the start: the reservation itself was not observable, and the detection is judged by its final charge",
      );

    const status = d.final?.status;
    const charged = d.before.minus(d.after);
    if (status?.type === "completed")
      ctx.expect(
        within(charged, expected),
        {
          judges: "charged",
          title: `a completed detection charged $${charged.toFixed()}`,
          received: { charged: charged.toFixed(), dataset_posts: latest.datasetAfter },
          expected: expected.text,
        },
        d.finalEx,
      );
    else if (status?.type === "failed") {
      ctx.expect(
        charged.isZero(),
        {
          judges: "refunded",
          title: `a failed detection kept $${charged.toFixed()}`,
          received: charged.toFixed(),
          expected: "0",
        },
        d.finalEx,
      );
      ctx.expect(
        typeof status.error_message === "string",
        {
          judges: "failedMessage",
          title: "a failed detection has no error_message",
          received: status,
          expected: { type: "failed", error_message: "…" },
        },
        d.finalEx,
      );
    } else ctx.notExercised(`the detection ended ${String(status?.type)}: its charge was not judged`);
  },
});
