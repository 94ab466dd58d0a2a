// The datasets group's service: datasets scoped to the account, PATCH, the
// soft-delete cascade, and which runs a dataset has completed (its rows and
// views are rows.ts; its runs runs.ts).
import type { DatasetsDataset, DatasetsDatasetCreated } from "../../../../generated/client/types.gen.ts";
import type { Caller } from "../../platform/env.ts";
import { NotFoundError, ValidationFailed } from "../../platform/errors.ts";
import { newId } from "../../platform/ids.ts";
import type { PageResult } from "../../platform/pagination.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Row, Table } from "../../platform/store.ts";
import { datasetCreatedView, datasetView, newDatasetRow, type DatasetRow } from "./rows.ts";

/** What a list request asks for (validated by the adapter's generated zod). */
export interface ListQuery {
  limit: number;
  order: "asc" | "desc";
  cursor?: string;
}

/** A service that holds references to datasets and lets go of one when it is deleted. */
export interface DatasetReferences {
  forgetDataset(accountId: string, datasetId: string, atMs: number): void;
}

/** What the dataset service needs from the composition root (compose.ts). */
export interface DatasetNeeds {
  readonly clock: Clock;
  /** The runs only to soft-delete them with their dataset. */
  readonly tables: {
    readonly datasets: Table<DatasetRow>;
    readonly datasetRuns: Pick<Table<Row>, "childrenOf" | "softDelete">;
  };
  /**
   * Whoever else names datasets (tracking agents' `dataset_ids`, custom
   * parameter runs), told when one is deleted (D-DATASET-DELETED-REFS).
   */
  datasetReferences(): readonly DatasetReferences[];
}

/**
 * Dataset rules, shared by REST and MCP: account-scoped lookups (a foreign,
 * missing or soft-deleted id is 404 `dataset_not_found`), PATCH semantics,
 * the soft-delete cascade, and which runs a dataset has completed.
 */
export class DatasetService {
  constructor(private readonly services: DatasetNeeds) {}

  private get table() {
    return this.services.tables.datasets;
  }

  /** The live row, or 404 `dataset_not_found`. */
  find(accountId: string, id: string): DatasetRow {
    const d = this.table.get(accountId, id);
    if (!d) throw new NotFoundError("dataset_not_found", "Dataset not found.");
    return d;
  }

  /** The live row or undefined (no error), for scope checks. */
  lookup(accountId: string, id: string): DatasetRow | undefined {
    return this.table.get(accountId, id);
  }

  /** Every live dataset of the account, oldest first. */
  live(accountId: string): DatasetRow[] {
    return this.table.live(accountId);
  }

  /** Insert a new dataset row (fixtures and the create operation). */
  insert(accountId: string, name: string | null): DatasetRow {
    return this.table.insert(newDatasetRow(newId("ds_"), accountId, name, this.services.clock.now()));
  }

  create(caller: Caller, name: string): DatasetsDatasetCreated {
    return datasetCreatedView(this.insert(caller.account.id, name));
  }

  list(caller: Caller, q: ListQuery): PageResult<DatasetsDataset> {
    const page = this.table.page(caller.account.id, { ...q, scope: { r: "datasets", order: q.order } });
    return { ...page, items: page.items.map(datasetView) };
  }

  read(caller: Caller, id: string): DatasetsDataset {
    return datasetView(this.find(caller.account.id, id));
  }

  /** PATCH: an empty body is a no-op; an empty-string name stores null. */
  update(caller: Caller, id: string, body: { name?: string | null }): DatasetsDataset {
    const dataset = this.find(caller.account.id, id);
    if (body.name !== undefined) {
      if (body.name !== null && body.name.length > 255) {
        throw new ValidationFailed([
          { loc: ["body", "name"], msg: "Too big: expected string to have <=255 characters", type: "too_big" },
        ]);
      }
      dataset.name = body.name === "" ? null : body.name;
      dataset.updated_ms = this.services.clock.now();
    }
    return datasetView(dataset);
  }

  /** Soft delete: the dataset and its runs leave lists and by-id reads. */
  delete(caller: Caller, id: string): void {
    const dataset = this.find(caller.account.id, id);
    const now = this.services.clock.now();
    this.table.softDelete(dataset, now);
    const runs = this.services.tables.datasetRuns;
    for (const run of runs.childrenOf(caller.account.id, "byDataset", dataset.id)) runs.softDelete(run, now);
    // A deleted dataset is gone everywhere: nothing live keeps naming it.
    for (const holder of this.services.datasetReferences()) holder.forgetDataset(caller.account.id, dataset.id, now);
  }

  /** Record a completed run (called by the run lifecycle's completion). */
  markRunCompleted(dataset: DatasetRow, runId: string): void {
    dataset.completed_run_ids.push(runId);
  }

  /** Ids of the dataset's completed runs, newest first (a direct read). */
  completedRuns(dataset: DatasetRow): string[] {
    return [...dataset.completed_run_ids].reverse();
  }

  /** The most recent completed run id, or null. */
  latestCompletedRun(dataset: DatasetRow): string | null {
    return dataset.completed_run_ids[dataset.completed_run_ids.length - 1] ?? null;
  }
}
