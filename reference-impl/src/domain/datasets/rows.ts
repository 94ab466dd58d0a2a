// The rows the datasets group stores (datasets and their runs) and the
// contract views they are read as. A dataset's counters are kept as mentions
// land (one (source, id) counts once per dataset), so reading it is O(1).
import type * as z from "zod";
import type {
  CommonRunStatus,
  DatasetsDataset,
  DatasetsDatasetCreated,
  DatasetsDatasetRun,
  DatasetsDatasetRunCreated,
} from "../../../../generated/client/types.gen.ts";
import type { zDatasetRunsCreateBody } from "../../../../generated/client/zod.gen.ts";
import { isoTimestamp } from "../../platform/clock.ts";
import type { RunStatus } from "../../platform/runs/lifecycle.ts";
import type { Row } from "../../platform/store.ts";

export interface DatasetRow extends Row {
  name: string | null;
  updated_ms: number;
  mentions_count: number;
  images_count: number;
  videos_count: number;
  /** Sum over unique posts of the largest extrapolation coefficient. */
  estimated_sum: number;
  /** Ids of completed runs, oldest first. */
  completed_run_ids: string[];
}

export const APP_URL = "https://app.example.com";

export function newDatasetRow(id: string, accountId: string, name: string | null, nowMs: number): DatasetRow {
  return {
    id,
    account_id: accountId,
    created_ms: nowMs,
    updated_ms: nowMs,
    deleted_ms: null,
    name,
    mentions_count: 0,
    images_count: 0,
    videos_count: 0,
    estimated_sum: 0,
    completed_run_ids: [],
  };
}

export function datasetView(d: DatasetRow): DatasetsDataset {
  return {
    id: d.id,
    name: d.name,
    mentions_count: d.mentions_count,
    estimated_mentions_count: Math.round(d.estimated_sum),
    images_count: d.images_count,
    videos_count: d.videos_count,
    created_at: isoTimestamp(d.created_ms),
    updated_at: isoTimestamp(d.updated_ms),
    url: `${APP_URL}/datasets/${d.id}`,
  };
}

export function datasetCreatedView(d: DatasetRow): DatasetsDatasetCreated {
  return { id: d.id, name: d.name, created_at: isoTimestamp(d.created_ms) };
}

export type DatasetRunBody = z.output<typeof zDatasetRunsCreateBody>;

export interface DatasetRunRow extends Row {
  dataset_id: string;
  updated_ms: number;
  status: RunStatus<CommonRunStatus["type"]>;
  params: DatasetsDatasetRun["params"];
  count: number;
  requested_count: number;
  mentions_count: number;
  new_mentions_count: number;
  images_count: number;
  videos_count: number;
  /** The validated request, kept so an agent cycle can repeat the query. */
  body: DatasetRunBody;
}

export function runView(r: DatasetRunRow): DatasetsDatasetRun {
  return {
    id: r.id,
    dataset_id: r.dataset_id,
    // Step names come from this file's steps, which are the contract's names.
    status: r.status as CommonRunStatus,
    params: r.params,
    mentions_count: r.mentions_count,
    new_mentions_count: r.new_mentions_count,
    images_count: r.images_count,
    videos_count: r.videos_count,
    created_at: isoTimestamp(r.created_ms),
    updated_at: isoTimestamp(r.updated_ms),
  };
}

export function runCreatedView(r: DatasetRunRow): DatasetsDatasetRunCreated {
  return {
    id: r.id,
    dataset_id: r.dataset_id,
    count: r.count,
    requested_count: r.requested_count,
    status: r.status as CommonRunStatus,
    created_at: isoTimestamp(r.created_ms),
  };
}
