import type { DatasetsDatasetRunCreated } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { dataOf } from "../typed.ts";
import { RUN_COUNT, successfulRun } from "./support/billing.ts";

/** Starting a run reserves count × price at once. */
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
    const expected = r.before.minus(r.price.mul(RUN_COUNT));
    ctx.expect(
      r.afterCreate.equals(expected),
      {
        title: "balance after starting the run is not balance − count × price",
        received: r.afterCreate.toFixed(),
        expected: `${r.before.toFixed()} − ${RUN_COUNT} × ${r.price.toFixed()} = ${expected.toFixed()}`,
      },
      r.meCreate,
    );
  },
});
