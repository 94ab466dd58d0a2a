import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { field, value, words } from "../grounding/facts.ts";
import { emptyRun } from "./support/billing.ts";

/**
 * A failed run leaves the balance where it was before the run, and its
 * status carries error_message. The kit's run of one URL whose path says the
 * post is gone is the run a deployment may fail; one that completes it
 * instead leaves the rule not exercised (the kit cannot make a run fail).
 */
export default defineCheck({
  id: "billing-refund-on-failure",
  phase: "billing",
  rule: "A run that fails releases its whole reservation: the balance returns to its starting value; a failed status carries error_message (skipped unless a failed run was observed)",
  section:
    "States › Dataset run (pending|working → failed: full reservation refunded; error_message set); Limits › Charges (1)",
  severity: "critical",
  asserts: {
    released: seed(
      ["dataset-run.to-failed", "charges.failed-releases"],
      value("failed"),
      words("full reservation refunded"),
      words("failed work releases its whole reservation"),
    ),
    errorMessage: seed("dataset-run.failed-error-message", value("failed"), field("error_message")),
  },
  requires: [
    "POST /v1/datasets/{dataset_id}/runs",
    "GET /v1/datasets/{dataset_id}/runs/{run_id}",
    "GET /v1/me",
    "GET /v1/prices",
  ],
  async run(ctx) {
    const r = await emptyRun(ctx);
    const st = r.final?.status;
    // the rule is about failed runs: a run that completed (even empty) shows nothing about refunds on failure
    if (st?.type !== "failed")
      return ctx.skip(
        `not exercised: no failed run observed (the run of a URL whose path says the post is gone ended ${st?.type ?? "unread"} with ${r.final?.mentions_count ?? "?"} mentions)`,
      );
    ctx.expect(
      typeof st.error_message === "string" && st.error_message.length > 0,
      {
        judges: "errorMessage",
        title: "a failed run has no error_message",
        received: st,
        expected: { type: "failed", error_message: "<text>" },
      },
      r.observations.at(-1)?.ex,
    );
    ctx.expect(
      r.after.equals(r.before),
      {
        judges: "released",
        title: `the balance after a failed run is $${r.before.minus(r.after).toFixed()} below its starting value`,
        received: r.after.toFixed(),
        expected: r.before.toFixed(),
      },
      r.meAfter,
    );
  },
});
