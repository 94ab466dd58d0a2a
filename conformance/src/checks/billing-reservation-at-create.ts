import type { DatasetsDatasetRunCreated } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { dataOf } from "../typed.ts";
import { RUN_COUNT, successfulRun } from "./support/billing.ts";
import { expectAfterStart } from "./support/groups.ts";

/**
 * Starting a run reserves count × price at once. The balance right after the
 * create is judged against the run's state read around it: a run may already
 * have completed (settled) or failed (released) by then, which is the
 * deployment's speed, not a finding.
 */
export default defineCheck({
  id: "billing-reservation-at-create",
  phase: "billing",
  rule: "Starting a dataset run (202, status pending) reserves count × mention price from the balance immediately",
  section: "States › Dataset run ((none) → pending: reservation taken); Limits › Charges (1)",
  severity: "critical",
  rules: { seed: "Reservation: the upper bound is reserved before work starts" },
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const r = await successfulRun(ctx);
    const run = dataOf<DatasetsDatasetRunCreated>(r.create);
    ctx.expect(
      run?.status?.type === "pending",
      {
        title: "a new run is not pending",
        received: run?.status,
        expected: { type: "pending" },
      },
      r.create,
    );
    const reserved = r.price.mul(RUN_COUNT);
    expectAfterStart(ctx, r.afterCreate, r.before, {
      run: "the run",
      title: (seen, _debit, states) =>
        seen === "reserved"
          ? "balance after starting the run is not balance − count × price"
          : `balance after starting the run is not what the run's observed state (${states}) leaves`,
      reserved: `${r.before.toFixed()} − ${RUN_COUNT} × ${r.price.toFixed()} = ${r.before.minus(reserved).toFixed()} (a debit of ${reserved.toFixed()})`,
    });
  },
});
