// Stored rows of the audience group and their contract views. Audience
// datasets and runs use ISO 8601 timestamps; profiles use Unix seconds.
import type {
  AudiencesAudienceDataset,
  AudiencesAudienceDatasetCreated,
  AudiencesAudienceProfile,
  AudiencesAudienceRun,
  AudiencesAudienceRunCreated,
  CommonRunStatus,
} from "../../../../generated/client/types.gen.ts";
import type { RunStatus } from "../../platform/runs/lifecycle.ts";
import { isoTimestamp, unixSeconds } from "../../platform/clock.ts";
import type { Row } from "../../platform/store.ts";
import type { ProfileFields } from "./profile-fields.ts";

export interface AudienceDatasetRow extends Row {
  name: string;
  updated_ms: number;
}

export interface AudienceRunRow extends Row {
  audience_dataset_id: string;
  source_dataset_id: string;
  status: RunStatus<CommonRunStatus["type"]>;
  updated_ms: number;
  target_profile_count: number;
  profile_count: number;
}

/**
 * One person in one audience dataset (D-AUD-PROFILE-RUN): a later run that
 * reaches the same person refreshes the fields and takes over `run_id`;
 * `created_ms` stays the first time the profile was stored.
 */
export interface ProfileRow extends Row {
  audience_dataset_id: string;
  person_key: string;
  run_id: string;
  /** created_ms of the run that last collected the profile (sort `audience_dataset_run_at`). */
  run_at_ms: number;
  fields: ProfileFields;
  /** Lower-cased words of bio, summary and username with edge spaces (keyword filter). */
  searchable: string;
}

export function audienceDatasetView(row: AudienceDatasetRow, profileCount: number): AudiencesAudienceDataset {
  return {
    id: row.id,
    name: row.name,
    profile_count: profileCount,
    created_at: isoTimestamp(row.created_ms),
    updated_at: isoTimestamp(row.updated_ms),
  };
}

export function audienceDatasetCreatedView(row: AudienceDatasetRow): AudiencesAudienceDatasetCreated {
  return { id: row.id, name: row.name, created_at: isoTimestamp(row.created_ms) };
}

export function audienceRunView(row: AudienceRunRow): AudiencesAudienceRun {
  return {
    id: row.id,
    audience_dataset_id: row.audience_dataset_id,
    source_dataset_id: row.source_dataset_id,
    status: row.status as CommonRunStatus,
    profile_count: row.profile_count,
    target_profile_count: row.target_profile_count,
    created_at: isoTimestamp(row.created_ms),
    updated_at: isoTimestamp(row.updated_ms),
  };
}

export function audienceRunCreatedView(row: AudienceRunRow): AudiencesAudienceRunCreated {
  return {
    id: row.id,
    audience_dataset_id: row.audience_dataset_id,
    source_dataset_id: row.source_dataset_id,
    status: row.status as CommonRunStatus,
    created_at: isoTimestamp(row.created_ms),
  };
}

export function profileView(row: ProfileRow): AudiencesAudienceProfile {
  return { id: row.id, run_id: row.run_id, ...row.fields, created_at: unixSeconds(row.created_ms) };
}
