// Runs of a custom parameter over a dataset. Creation checks, in this order
// (D-CPR-CHECK-ORDER): the parameter (404), the scope dataset (404
// `dataset_not_found`), a run of the parameter still processing (409), a
// dataset without mentions (400 `nothing_to_analyze`), then the reservation
// of 0.5 unit per mention (402), so a refused request creates and charges
// nothing. The run visits the mentions the dataset held at creation in
// chunks, one pipeline step each, so the counters move while it processes.
// Posts the extractor cannot read count in `mentions_error` and are not
// charged (D-CPR-ERROR-CHARGE): the lifecycle settles to `mentions_done`.
import type { Sliced } from "../../platform/pipeline.ts";
import { unixSeconds } from "../../platform/clock.ts";
import type { Reservation } from "../../platform/billing/ledger.ts";
import { BadRequestError, ConflictError, NotFoundError } from "../../platform/errors.ts";
import { newId } from "../../platform/ids.ts";
import { ParameterValues } from "../mentions/parameter-values.ts";
import type { MentionPool, MentionPools } from "../mentions/pool.ts";
import type { Clock } from "../../platform/clock.ts";
import type { RunLifecycle } from "../../platform/runs/lifecycle.ts";
import type { Table } from "../../platform/store.ts";
import type { DatasetService } from "../datasets/service.ts";
import { compileInstructions, type CompiledInstructions } from "./extractor.ts";
import { PARAMETER_RUN, type ListRequest, type ParameterRow, type ParameterRunRow } from "./rows.ts";

/** Mentions visited per pipeline step: small enough that a poll sees progress, large enough that 10,000 mentions take 10 steps. */
export const MENTIONS_PER_STEP = 1000;
/** Mentions extracted between two yields inside a step (a few ms of work). */
export const MENTIONS_PER_PIECE = 100;

interface Active {
  row: ParameterRunRow;
  reservation: Reservation;
}

/** What the custom parameter runs need from the composition root (compose.ts). */
export interface ParameterRunNeeds extends MentionPools {
  readonly clock: Clock;
  readonly lifecycle: RunLifecycle;
  readonly datasets: Pick<DatasetService, "find">;
  readonly tables: { readonly customParameterRuns: Table<ParameterRunRow> };
}

export class ParameterRuns {
  /** Processing runs by parameter id (at most one each). */
  private readonly active = new Map<string, Active>();

  constructor(private readonly services: ParameterRunNeeds) {}

  private get table() {
    return this.services.tables.customParameterRuns;
  }

  create(parameter: ParameterRow, datasetId: string): ParameterRunRow {
    const { services } = this;
    const accountId = parameter.account_id;
    services.datasets.find(accountId, datasetId);
    const busy = this.active.get(parameter.id);
    if (busy) {
      throw new ConflictError(
        "custom_parameter_run_in_flight",
        `Run ${busy.row.id} of this parameter is still processing; retry when it has finished.`,
      );
    }
    const pool = services.mentions(accountId);
    const keys = mentionKeysOf(pool, datasetId);
    if (keys.length === 0)
      throw new BadRequestError("nothing_to_analyze", `Dataset ${datasetId} holds no mentions to analyse.`);
    const reservation = services.lifecycle.reserve(PARAMETER_RUN, accountId, keys.length);

    const now = services.clock.now();
    const row = this.table.insert({
      id: newId("cpr_"),
      account_id: accountId,
      created_ms: now,
      updated_ms: now,
      deleted_ms: null,
      parameter_id: parameter.id,
      dataset_id: datasetId,
      status: services.lifecycle.initialStatus(PARAMETER_RUN),
      mentions_total: keys.length,
      mentions_done: 0,
      mentions_error: 0,
    });
    this.active.set(parameter.id, { row, reservation });
    // The instructions as they are now: a PATCH during the run applies to the next one.
    const extractor = compileInstructions(parameter.instructions, parameter.value_type);
    const steps = [];
    for (let i = 0; i < keys.length; i += MENTIONS_PER_STEP) {
      const chunk = keys.slice(i, i + MENTIONS_PER_STEP);
      steps.push({
        name: `extract_${steps.length + 1}`,
        record: false,
        run: () => this.visit(row, pool, extractor, chunk),
      });
    }
    const settled = () => this.active.delete(parameter.id);
    services.lifecycle.start({
      kind: PARAMETER_RUN,
      row,
      reservation,
      steps,
      delivered: () => row.mentions_done,
      onCompleted: settled,
      onFailed: settled,
    });
    return row;
  }

  list(parameter: ParameterRow, request: ListRequest) {
    return this.table.page(
      parameter.account_id,
      { ...request, scope: { r: "custom_parameter_runs", parameter: parameter.id, order: request.order } },
      () => true,
      { index: "byParameter", parentId: parameter.id },
    );
  }

  /** D-CPR-UNKNOWN-RUN: a run of another parameter reads as missing too. */
  find(parameter: ParameterRow, runId: string): ParameterRunRow {
    const row = this.table.get(parameter.account_id, runId);
    if (!row || row.parameter_id !== parameter.id) {
      throw new NotFoundError(
        "custom_parameter_not_found",
        `Run ${runId} of custom parameter ${parameter.id} was not found.`,
      );
    }
    return row;
  }

  /**
   * D-CP-DELETE: the parameter's runs disappear; a processing run stops and
   * its reservation is released (the values it stored vanish with the
   * parameter, so nothing of it is charged); stored values are removed.
   */
  deleteFor(parameter: ParameterRow, atMs: number): void {
    const active = this.active.get(parameter.id);
    if (active) {
      this.services.lifecycle.fail(
        { kind: PARAMETER_RUN, row: active.row, reservation: active.reservation },
        "The custom parameter was deleted.",
      );
      this.active.delete(parameter.id);
    }
    // Values exist only on posts of the datasets its runs visited: those are
    // cleared, not the whole pool.
    const datasets = new Set<string>();
    for (const run of this.table.childrenOf(parameter.account_id, "byParameter", parameter.id)) {
      datasets.add(run.dataset_id);
      this.table.softDelete(run, atMs);
    }
    const pool = this.services.mentions(parameter.account_id);
    for (const datasetId of datasets)
      for (const record of pool.inDataset(datasetId)) record.parameters?.delete(parameter.id);
  }

  /**
   * D-DATASET-DELETED-REFS: runs over a deleted dataset disappear with it
   * (lists and reads, like the dataset's own runs); a processing one is
   * stopped as failed and its reservation refunded, which also frees the
   * parameter for a new run. Values already stored on posts stay with the
   * posts (a post another dataset still holds keeps its value).
   */
  forgetDataset(accountId: string, datasetId: string, atMs: number): void {
    for (const [parameterId, active] of this.active) {
      if (active.row.account_id !== accountId || active.row.dataset_id !== datasetId) continue;
      this.services.lifecycle.fail(
        { kind: PARAMETER_RUN, row: active.row, reservation: active.reservation },
        `Dataset ${datasetId} was deleted.`,
      );
      this.active.delete(parameterId);
    }
    for (const run of this.table.live(accountId, (r) => r.dataset_id === datasetId)) this.table.softDelete(run, atMs);
  }

  /**
   * Sliced (platform/pipeline.ts): one step's MENTIONS_PER_STEP mentions are
   * about 80 ms of extraction, so the step yields every MENTIONS_PER_PIECE.
   */
  private *visit(
    row: ParameterRunRow,
    pool: MentionPool,
    extractor: CompiledInstructions,
    keys: readonly string[],
  ): Sliced<void> {
    const now = this.services.clock.now();
    const computedAt = unixSeconds(now);
    for (const [i, key] of keys.entries()) {
      if (i > 0 && i % MENTIONS_PER_PIECE === 0) yield;
      const record = pool.get(key);
      const result = record ? extractor.extract({ ...record.post, metrics: record.metrics }) : ({ ok: false } as const);
      if (result.ok) {
        (record!.parameters ??= new ParameterValues()).set(row.parameter_id, {
          value: result.value,
          status: "completed",
          computed_at: computedAt,
        });
        row.mentions_done++;
      } else {
        if (record)
          (record.parameters ??= new ParameterValues()).set(row.parameter_id, {
            value: null,
            status: "failed",
            computed_at: computedAt,
          });
        row.mentions_error++;
      }
    }
    row.updated_ms = now;
  }
}

/** Keys of the mentions a dataset holds now, in the order they joined it (no walk of the whole pool). */
function mentionKeysOf(pool: MentionPool, datasetId: string): string[] {
  return pool.inDataset(datasetId).map((r) => r.key);
}
