import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { status, words } from "../grounding/facts.ts";
import { is2xx, seen } from "./support/util.ts";
import { parameterRun } from "./support/custom-parameters.ts";
import { countOf, expectAfterStart } from "./support/groups.ts";

/**
 * A run visits the dataset's mentions; counters only grow and never pass
 * mentions_total, and a run whose status says completed has done + error =
 * total; it is sized (reserved) by the dataset's mention count and charged
 * for the posts it processed. The balance right after the start is judged
 * against the run as read around it (expectAfterStart): a run already ended
 * is judged by its settlement or release, the reservation reported not
 * exercised. Whether errored posts are charged, what mentions_total counts
 * and the 202 are the contract's decisions.
 */
export default defineCheck({
  id: "custom-parameter-run-counters",
  phase: "groups",
  rule: "POST custom parameter run is accepted with {run_id} (202, D-CPR-ACCEPTED) and reserves the dataset's mentions_count × the post_processing price; mentions_done and mentions_error never shrink nor pass mentions_total (the dataset's mention count: D-CPR-VISIT), and a run whose status is completed has done + error = total; the final charge is mentions_done × price (errors refunded: D-CPR-ERROR-CHARGE), a failed run's nothing",
  section:
    "Resources › Custom parameter run (done plus error equals total); States › Custom parameter run; Limits › Charges (custom parameter run sized by the dataset's mention count)",
  severity: "critical",
  asserts: {
    accepted: seed("custom-parameters.runs.scope-only-dataset", words("{run_id}")),
    acceptedStatus: decided("D-CPR-ACCEPTED", status(202)),
    reserved: seed(
      ["charges.post-processing.custom-parameter", "charges.reservation-before-work"],
      words("custom parameter run is sized by the dataset's mention count"),
      words("the upper bound is reserved before work starts"),
    ),
    counters: seed(
      "custom-parameter-run.total-is-dataset",
      words("`mentions_total` is the posts the run will visit"),
      words("`mentions_done` those processed"),
    ),
    total: decided("D-CPR-VISIT"),
    complete: seed("custom-parameter-run.complete-when-sum", words("complete when done plus error equals total")),
    settled: seed(
      ["charges.post-processing.custom-parameter", "charges.refund-to-actuals"],
      words("each post processed"),
      words("on completion unused value is refunded down to actuals"),
    ),
    released: seed("charges.failed-releases", words("failed work releases its whole reservation")),
    errorCharge: decided("D-CPR-ERROR-CHARGE"),
  },
  requires: [
    "POST /v1/custom_parameters/{parameter_id}/runs",
    "GET /v1/custom_parameters/{parameter_id}/runs/{run_id}",
    "GET /v1/me",
  ],
  async run(ctx) {
    const r = await parameterRun(ctx);
    if (
      !ctx.expect(
        is2xx(r.create) && typeof r.runId === "string",
        {
          judges: "accepted",
          title: `starting a run answered ${r.create.status}`,
          received: seen(r.create),
          expected: { status: 202, data: { run_id: "cpr_…" } },
        },
        r.create,
      )
    )
      return;
    ctx.expect(
      r.create.status === 202,
      {
        judges: "acceptedStatus",
        title: `the run was accepted with ${r.create.status}`,
        received: r.create.status,
        expected: 202,
      },
      r.create,
    );
    if (r.datasetMentions === undefined)
      return ctx.skip("the source dataset read gave no mentions_count: the reservation has no size to compare with");
    const f = r.final;
    const errors = countOf(f?.mentions_error) ?? 0;
    // what a settlement depends on: errored posts are the contract's to charge or not
    const settledBy = f?.status?.type === "failed" ? "released" : errors > 0 ? "errorCharge" : "settled";
    const reserved = r.price.mul(r.datasetMentions);
    expectAfterStart(ctx, r.afterCreate, r.before, {
      run: "the run",
      judges: (seen) => (seen === "reserved" ? "reserved" : settledBy),
      title: (seen, debit, states) =>
        seen === "reserved"
          ? `the reservation is $${debit}`
          : `a run read ${states} right after its start had charged $${debit}`,
      reserved: `${reserved.toFixed()} (${r.datasetMentions} mentions × ${r.price.toFixed()})`,
      ex: r.create,
    });
    let prev = { done: 0, error: 0 };
    for (const { ex, d } of r.observations) {
      const done = countOf(d?.mentions_done);
      const error = countOf(d?.mentions_error);
      const total = countOf(d?.mentions_total);
      const ok =
        done !== undefined &&
        error !== undefined &&
        done >= prev.done &&
        error >= prev.error &&
        (total === undefined || done + error <= total);
      ctx.expect(
        ok,
        {
          judges: "counters",
          title: "counters shrank or exceed mentions_total",
          received: {
            previous: prev,
            now: { done: d?.mentions_done, error: d?.mentions_error, total: d?.mentions_total },
          },
          expected: "done and error never shrink; done + error <= total",
        },
        ex,
      );
      if (ok) prev = { done: done!, error: error! };
    }
    const last = r.observations.at(-1)!.ex;
    ctx.expect(
      f?.mentions_total === r.datasetMentions,
      {
        judges: "total",
        title: `mentions_total is ${f?.mentions_total}, the dataset holds ${r.datasetMentions}`,
        received: f?.mentions_total,
        expected: r.datasetMentions,
      },
      last,
    );
    if (f?.status?.type === "completed")
      ctx.expect(
        (f.mentions_done ?? NaN) + (f.mentions_error ?? NaN) === f.mentions_total,
        {
          judges: "complete",
          title: "a completed run has done + error ≠ total",
          received: { done: f.mentions_done, error: f.mentions_error, total: f.mentions_total },
          expected: "done + error = total",
        },
        last,
      );
    const charged = r.before.minus(r.after);
    const doneN = countOf(f?.mentions_done);
    if (f?.status?.type !== "failed" && doneN === undefined)
      return ctx.notExercised(`the run ended ${JSON.stringify(f?.status)} without an integer mentions_done`);
    const due = f?.status?.type === "failed" ? r.price.mul(0) : r.price.mul(doneN!);
    ctx.expect(
      charged.equals(due),
      {
        judges: settledBy,
        title: `a ${f?.status?.type} run with mentions_done ${f?.mentions_done} charged $${charged.toFixed()}`,
        received: charged.toFixed(),
        expected: `${due.toFixed()} (mentions_done × price; errors and failed runs are refunded)`,
      },
      last,
    );
  },
});
