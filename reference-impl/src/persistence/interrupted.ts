// After a restore nothing is running: the timers and closures that drove the
// runs in flight at the snapshot did not survive the restart. Each such run is
// failed with an error_message saying so, and everything held for it goes back
// to the balance (Ledger.restore releases every hold), so no run stays
// `working` forever and nothing is charged for work that did not happen.
import { AUDIENCE_RUN } from "../domain/audiences/service.ts";
import { PARAMETER_RUN } from "../domain/custom-parameters/rows.ts";
import { DATASET_RUN } from "../domain/datasets/runs.ts";
import { PATTERN_DETECTION } from "../domain/patterns/service.ts";
import type { Services } from "../compose.ts";
import type { Reservation } from "../platform/billing/ledger.ts";
import type { LifecycleRow, RunKind } from "../platform/runs/lifecycle.ts";
import type { Table } from "../platform/store.ts";

export const INTERRUPTED_MESSAGE =
  "The server restarted while this run was in progress; it was stopped and its reservation refunded in full. Start it again.";

/** Holds are released by Ledger.restore; this stands in for the reservation lifecycle.fail would release. */
const RELEASED = { state: "released" } as Reservation;

export function failInterrupted(services: Services): void {
  const kinds: [
    RunKind<string>,
    Table<LifecycleRow<string> & { id: string; account_id: string; created_ms: number; deleted_ms: number | null }>,
  ][] = [
    [DATASET_RUN as RunKind<string>, services.tables.datasetRuns as never],
    [AUDIENCE_RUN as RunKind<string>, services.tables.audienceRuns as never],
    [PATTERN_DETECTION as RunKind<string>, services.tables.patternDetections as never],
    [PARAMETER_RUN as RunKind<string>, services.tables.customParameterRuns as never],
  ];
  for (const [kind, table] of kinds) {
    for (const row of table.everyRow()) {
      if (services.lifecycle.isInFlight(kind, row))
        services.lifecycle.fail({ kind, row, reservation: RELEASED }, INTERRUPTED_MESSAGE);
    }
  }
  const now = services.clock.now();
  for (const run of services.trackingAgents.tables.runs.everyRow()) {
    if (run.status.type === "in_progress") {
      run.status = { type: "failed" };
      run.updated_ms = now;
    }
  }
  for (const m of services.assistant.messages.everyRow()) {
    if (m.status === "working") {
      m.status = "failed";
      m.stop_reason = "error";
      m.text = "The server restarted before this turn finished. Nothing was charged; please ask again.";
      m.references = [];
      m.failure = "interrupted by a restart";
    }
  }
}
