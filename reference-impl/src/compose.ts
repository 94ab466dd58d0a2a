// The composition root: everything the adapters (Hono resources, MCP tools)
// share, built once per app: the platform handles, the stores, and one domain
// service per group. It is the only module that knows every service; each
// service declares the narrow part it needs (AccountNeeds, DatasetNeeds, …) and
// is handed this object, which satisfies all of them. A group adds its tables
// to `tables` and its service as a field here.
import type { AccountDirectory } from "./platform/accounts.ts";
import type { Ledger } from "./platform/billing/ledger.ts";
import type { Clock } from "./platform/clock.ts";
import type { Pipeline } from "./platform/pipeline.ts";
import { RunLifecycle } from "./platform/runs/lifecycle.ts";
import { Table } from "./platform/store.ts";
import { AccountService } from "./domain/account/service.ts";
import { AssistantService } from "./domain/assistant/service.ts";
import { AudienceService } from "./domain/audiences/service.ts";
import type { AudienceDatasetRow, AudienceRunRow } from "./domain/audiences/rows.ts";
import { CustomParameterService } from "./domain/custom-parameters/service.ts";
import type { ParameterRow, ParameterRunRow } from "./domain/custom-parameters/rows.ts";
import type { DatasetRow, DatasetRunRow } from "./domain/datasets/rows.ts";
import { DatasetService, type DatasetReferences } from "./domain/datasets/service.ts";
import { DatasetRunService } from "./domain/datasets/runs.ts";
import { MentionPool } from "./domain/mentions/pool.ts";
import { MentionSearchService } from "./domain/mentions/service.ts";
import type { PatternDetectionRow, PatternRow } from "./domain/patterns/rows.ts";
import { PatternService } from "./domain/patterns/service.ts";
import type { PreviewRow } from "./domain/previews/rows.ts";
import { PreviewService } from "./domain/previews/service.ts";
import { TrackingAgentService } from "./domain/tracking-agents/service.ts";

export class Services {
  readonly lifecycle: RunLifecycle;
  readonly tables = {
    datasets: new Table<DatasetRow>(),
    datasetRuns: new Table<DatasetRunRow>({ indexes: { byDataset: (r) => r.dataset_id } }),
    customParameters: new Table<ParameterRow>(),
    customParameterRuns: new Table<ParameterRunRow>({ indexes: { byParameter: (r) => r.parameter_id } }),
    previews: new Table<PreviewRow>(),
    patternDetections: new Table<PatternDetectionRow>(),
    patterns: new Table<PatternRow>(),
    audienceDatasets: new Table<AudienceDatasetRow>(),
    audienceRuns: new Table<AudienceRunRow>({ indexes: { byAudienceDataset: (r) => r.audience_dataset_id } }),
  };
  readonly account = new AccountService(this);
  readonly datasets = new DatasetService(this);
  readonly datasetRuns = new DatasetRunService(this);
  readonly mentionSearch = new MentionSearchService(this);
  readonly customParameters = new CustomParameterService(this);
  readonly previews = new PreviewService(this);
  readonly patterns = new PatternService(this);
  readonly trackingAgents = new TrackingAgentService(this);
  readonly assistant = new AssistantService(this);
  readonly audiences = new AudienceService(this);
  private readonly mentionPools = new Map<string, MentionPool>();

  constructor(
    readonly clock: Clock,
    readonly directory: AccountDirectory,
    readonly ledger: Ledger,
    readonly pipeline: Pipeline,
  ) {
    this.lifecycle = new RunLifecycle(clock, ledger, pipeline);
  }

  /** Services that name datasets and must let go of a deleted one (D-DATASET-DELETED-REFS). */
  datasetReferences(): readonly DatasetReferences[] {
    return [this.trackingAgents, this.customParameters.runs];
  }

  /** The account's mention pool (each post stored once). */
  mentions(accountId: string): MentionPool {
    let pool = this.mentionPools.get(accountId);
    if (!pool) this.mentionPools.set(accountId, (pool = new MentionPool()));
    return pool;
  }
}
