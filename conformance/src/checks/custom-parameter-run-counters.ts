import { decision, defineCheck } from "../define-check.ts";
import { seen } from "./support/util.ts";
import { parameterRun } from "./support/custom-parameters.ts";
import { expectAfterStart } from "./support/groups.ts";

/**
 * A run visits the dataset's mentions; counters only grow, and done + error = total at completion; it is sized
 * (reserved) by the dataset's mention count. The balance right after the start is judged against the run as read
 * around it (expectAfterStart): a run already ended is judged by its settlement or release, the reservation
 * reported not exercised.
 */
export default defineCheck({
  id: "custom-parameter-run-counters",
  phase: "groups",
  rule: "POST custom parameter run answers 202 {run_id} and reserves the dataset's mentions_count × the post_processing price; mentions_total is the dataset's mention count, mentions_done and mentions_error never shrink, and a run whose status is completed has done + error = total; the final charge is mentions_done × price (errors refunded)",
  section:
    "Resources › Custom parameter run (done plus error equals total); States › Custom parameter run; Limits › Charges (custom parameter run sized by the dataset's mention count)",
  severity: "critical",
  rules: {
    seed: "The run is complete when done plus error equals total.",
    decisions: [
      decision("D-CPR-STATES", { title: /state|status/ }),
      decision("D-CPR-VISIT", { title: /visit/ }),
      decision("D-CPR-ERROR-CHARGE", { title: /error.*charge|charged/ }),
    ],
  },
  decisions: ["D-CPR-ACCEPTED", "D-RUN-STATES", "D-CPR-VISIT", "D-CPR-ERROR-CHARGE"],
  requires: [
    "POST /v1/custom_parameters/{parameter_id}/runs",
    "GET /v1/custom_parameters/{parameter_id}/runs/{run_id}",
    "GET /v1/me",
  ],
  async run(ctx) {
    const r = await parameterRun(ctx);
    if (
      !ctx.expect(
        r.create.status === 202 && typeof r.runId === "string",
        {
          title: `starting a run answered ${r.create.status}`,
          received: seen(r.create),
          expected: { status: 202, data: { run_id: "cpr_…" } },
        },
        r.create,
      )
    )
      return;
    if (r.datasetMentions === undefined)
      return ctx.skip("the source dataset read gave no mentions_count: the reservation has no size to compare with");
    const reserved = r.price.mul(r.datasetMentions);
    // judged against the run as read around the balance: a fast run may have ended already (a finding about
    // an ended run is one of its settlement, D-CPR-ERROR-CHARGE: "charged")
    expectAfterStart(ctx, r.afterCreate, r.before, {
      run: "the run",
      title: (seen, debit, states) =>
        seen === "reserved"
          ? `the reservation is $${debit}`
          : `a run read ${states} right after its start had charged $${debit}`,
      reserved: `${reserved.toFixed()} (${r.datasetMentions} mentions × ${r.price.toFixed()})`,
      ex: r.create,
    });
    let prev = { done: 0, error: 0 };
    for (const { ex, d } of r.observations) {
      const done = d?.mentions_done;
      const error = d?.mentions_error;
      // Number(): how `<=` reads a total the deployment sent as another type
      const ok =
        typeof done === "number" &&
        Number.isInteger(done) &&
        typeof error === "number" &&
        Number.isInteger(error) &&
        done >= prev.done &&
        error >= prev.error &&
        done + error <= Number(d?.mentions_total);
      ctx.expect(
        ok,
        {
          title: "counters shrank or exceed mentions_total",
          received: {
            previous: prev,
            now: { done, error, total: d?.mentions_total },
          },
          expected: "done and error never shrink; done + error <= total",
        },
        ex,
      );
      if (ok) prev = { done, error };
    }
    const f = r.final;
    const last = r.observations.at(-1)!.ex;
    ctx.expect(
      f?.mentions_total === r.datasetMentions,
      {
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
          title: "a completed run has done + error ≠ total",
          received: { done: f.mentions_done, error: f.mentions_error, total: f.mentions_total },
          expected: "done + error = total",
        },
        last,
      );
    else if (f?.status?.type !== "failed") ctx.notExercised(`the run ended ${f?.status?.type}`);
    const charged = r.before.minus(r.after);
    const due = f?.status?.type === "completed" ? r.price.mul(f.mentions_done ?? NaN) : r.price.mul(0);
    ctx.expect(
      charged.equals(due),
      {
        title: `a ${f?.status?.type} run with mentions_done ${f?.mentions_done} charged $${charged.toFixed()}`,
        received: charged.toFixed(),
        expected: `${due.toFixed()} (mentions_done × price; errors and failed runs are refunded)`,
      },
      last,
    );
  },
});
