// Dataset rows and their counters. Counters are maintained as mentions land
// (one (source, id) counts once per dataset), so reading a dataset is O(1).
import type { DatasetsDataset, DatasetsDatasetCreated } from "../../../generated/client/types.gen.ts";
import { isoTimestamp } from "../platform/clock.ts";
import type { Row } from "../platform/store.ts";

export interface DatasetRow extends Row {
  name: string | null;
  updated_ms: number;
  mentions_count: number;
  images_count: number;
  videos_count: number;
  /** Sum over unique posts of the largest extrapolation coefficient. */
  estimated_sum: number;
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
