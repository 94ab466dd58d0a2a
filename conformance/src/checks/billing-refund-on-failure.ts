import { defineCheck } from "../define-check.ts";
import { emptyRun } from "./support/billing.ts";

/** A failed run leaves the balance where it was; without a failed run the rule is not exercised. */
export default defineCheck({
  id: "billing-refund-on-failure",
  phase: "billing",
  rule: "A run that fails releases its whole reservation: the balance returns to its starting value; a failed status carries error_message (skipped unless a failed run was observed)",
  section: "States › Dataset run (pending|working → failed: full reservation refunded; error_message set)",
  severity: "critical",
  rules: { seed: "failed work releases its whole reservation" },
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
        `no failed run observed: the run of unretrievable URLs ended ${st?.type ?? "unread"} with ${r.final?.mentions_count ?? "?"} mentions`,
      );
    ctx.expect(
      typeof st.error_message === "string" && st.error_message.length > 0,
      {
        title: "a failed run has no error_message",
        received: st,
        expected: { type: "failed", error_message: "<text>" },
      },
      r.observations.at(-1)?.ex,
    );
    ctx.expect(
      r.after.equals(r.before),
      {
        title: "the balance after a failed run is not its starting value",
        received: r.after.toFixed(),
        expected: r.before.toFixed(),
      },
      r.meAfter,
    );
  },
});
