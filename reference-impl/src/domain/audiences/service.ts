// Audience datasets, audience runs and audience profiles: every rule of the
// group in one service that takes the caller and returns contract views (or
// throws contract errors), so the REST resources and the MCP tools are thin
// adapters that cannot disagree.
import type {
  AudiencesAudienceDataset,
  AudiencesAudienceDatasetCreated,
  AudiencesAudienceProfile,
  AudiencesAudienceRun,
  AudiencesAudienceRunCreated,
  CommonRunStatusType,
} from "../../../../generated/client/types.gen.ts";
import type { Caller } from "../../platform/env.ts";
import { ApiError, ConflictError, NotFoundError, ValidationFailed } from "../../platform/errors.ts";
import { newId } from "../../platform/ids.ts";
import { paginate, type PageResult } from "../../platform/pagination.ts";
import { requireFeature } from "../../platform/plan-features.ts";
import type { RunKind, RunLifecycle, RunPlan } from "../../platform/runs/lifecycle.ts";
import type { Clock } from "../../platform/clock.ts";
import { SEED_RUN_STATES } from "../../platform/runs/lifecycle.ts";
import type { Table } from "../../platform/store.ts";
import type { DatasetService } from "../datasets/service.ts";
import type { MentionPools } from "../mentions/pool.ts";
import { PeopleCollector, type Person } from "./people.ts";
import { eligibleSourcePosts, sourcePosts } from "./source-walk.ts";
import { matchesProfileGroups, type ProfileFilter } from "./profile-filters.ts";
import { profileFields } from "./profile-fields.ts";
import { ProfileStore, profileSortKey, type CollectedProfile, type ProfileSort } from "./profile-store.ts";
import {
  audienceDatasetCreatedView,
  audienceDatasetView,
  audienceRunCreatedView,
  audienceRunView,
  profileView,
  type AudienceDatasetRow,
  type AudienceRunRow,
} from "./rows.ts";

/** D-AUD-CHARGE: 3 units per profile, reserved for `total_profile_count`, settled to the profiles collected. */
export const AUDIENCE_RUN: RunKind<CommonRunStatusType> = {
  label: "audience run",
  states: SEED_RUN_STATES,
  recordsSteps: true,
  category: "audience_profile",
  insufficientCode: "insufficient_credits_audience_dataset_run",
};

/** Seed run-creation rule 1: at least 5 posts from platforms that support audience profiling. */
export const MIN_ELIGIBLE_POSTS = 5;
export const DEFAULT_PROFILE_COUNT = 300;
export const MAX_FILTERS = 10;
/** People whose writings are read between two yields of the enrichment step (a few ms of work). */
export const PEOPLE_PER_PIECE = 20;
/** Source posts walked between two yields of an audience run's scraping step (about a millisecond). */
export const POSTS_PER_WALK_PIECE = 500;

export interface ListQuery {
  limit: number;
  order: "asc" | "desc";
  cursor?: string | undefined;
}

export interface RunBody {
  source_dataset_id: string;
  total_profile_count?: number | undefined;
}

export interface ProfileSearchBody {
  audience_dataset_ids?: string[] | undefined;
  filters?: ProfileFilter[][] | undefined;
  sort?: ProfileSort | undefined;
  order?: "asc" | "desc" | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

const NOT_IN_PLAN = "The plan does not include audience research; upgrade to create audience datasets and runs.";

/** What the audience service needs from the composition root (compose.ts). */
export interface AudienceNeeds extends MentionPools {
  readonly clock: Clock;
  readonly lifecycle: RunLifecycle;
  readonly datasets: Pick<DatasetService, "find" | "lookup" | "completedRuns">;
  readonly tables: {
    readonly audienceDatasets: Table<AudienceDatasetRow>;
    readonly audienceRuns: Table<AudienceRunRow>;
  };
}

export class AudienceService {
  readonly profiles = new ProfileStore();
  /** Plans of runs still in flight, so deleting their audience dataset can fail them and release the reservation. */
  private readonly inFlight = new Map<string, Pick<RunPlan<CommonRunStatusType>, "kind" | "row" | "reservation">>();

  constructor(private readonly services: AudienceNeeds) {}

  get datasets(): Table<AudienceDatasetRow> {
    return this.services.tables.audienceDatasets;
  }

  get runs(): Table<AudienceRunRow> {
    return this.services.tables.audienceRuns;
  }

  // ---- audience datasets -------------------------------------------------

  /** The live audience dataset, or 404 `audience_dataset_not_found` (missing, foreign or soft-deleted). */
  find(accountId: string, id: string): AudienceDatasetRow {
    const row = this.datasets.get(accountId, id);
    if (!row) throw new NotFoundError("audience_dataset_not_found", `Audience dataset ${id} not found.`);
    return row;
  }

  private view(row: AudienceDatasetRow): AudiencesAudienceDataset {
    return audienceDatasetView(row, this.profiles.count(row.account_id, row.id));
  }

  /** Insert without the plan gate (fixtures). */
  insert(accountId: string, name: string): AudienceDatasetRow {
    const now = this.services.clock.now();
    return this.datasets.insert({
      id: newId("ad_"),
      account_id: accountId,
      created_ms: now,
      updated_ms: now,
      deleted_ms: null,
      name,
    });
  }

  create(caller: Caller, name: string): AudiencesAudienceDatasetCreated {
    requireFeature(caller.account, "audience_research", "bad_request", NOT_IN_PLAN);
    return audienceDatasetCreatedView(this.insert(caller.account.id, name));
  }

  list(caller: Caller, q: ListQuery): PageResult<AudiencesAudienceDataset> {
    const page = this.datasets.page(caller.account.id, { ...q, scope: { r: "audience_datasets", order: q.order } });
    return { ...page, items: page.items.map((r) => this.view(r)) };
  }

  read(caller: Caller, id: string): AudiencesAudienceDataset {
    return this.view(this.find(caller.account.id, id));
  }

  /** D-AUD-PATCH: `name` is required and the only updatable field. */
  update(caller: Caller, id: string, body: { name: string }): AudiencesAudienceDataset {
    const row = this.find(caller.account.id, id);
    row.name = body.name;
    row.updated_ms = this.services.clock.now();
    return this.view(row);
  }

  /**
   * Soft delete: the audience dataset, its runs and its profiles leave
   * lists, reads and searches; a run still in flight fails and its whole
   * reservation is released (nothing was delivered).
   */
  delete(caller: Caller, id: string): void {
    const row = this.find(caller.account.id, id);
    const now = this.services.clock.now();
    this.datasets.softDelete(row, now);
    for (const run of this.runs.childrenOf(caller.account.id, "byAudienceDataset", row.id)) {
      const plan = this.inFlight.get(run.id);
      if (plan) {
        this.services.lifecycle.fail(plan, "The audience dataset was deleted while the run was in flight.");
        run.profile_count = 0;
        this.inFlight.delete(run.id);
      }
      this.runs.softDelete(run, now);
    }
  }

  // ---- audience runs -----------------------------------------------------

  /**
   * Start a run. Checks run in the order of D-AUD-RUN-ORDER: audience
   * dataset (404), plan (400 `bad_request`), source dataset (404
   * `dataset_not_found`), completed run (400), YouTube-only (400), eligible
   * posts (400), run in flight (409), then the reservation (402), so a
   * refused request creates and charges nothing.
   */
  createRun(
    caller: Caller,
    audienceDatasetId: string,
    body: RunBody,
    options: { inline?: boolean } = {},
  ): AudiencesAudienceRunCreated {
    const accountId = caller.account.id;
    const audience = this.find(accountId, audienceDatasetId);
    requireFeature(caller.account, "audience_research", "bad_request", NOT_IN_PLAN);
    const source = this.services.datasets.find(accountId, body.source_dataset_id);
    if (this.services.datasets.completedRuns(source).length === 0) {
      throw new ApiError(
        "source_dataset_has_no_completed_run",
        `Dataset ${source.id} has no completed run yet; wait for a run to complete.`,
      );
    }
    const pool = this.services.mentions(accountId);
    const { any, eligible } = eligibleSourcePosts(
      pool,
      this.services.datasets.completedRuns(source),
      MIN_ELIGIBLE_POSTS,
    );
    if (any && eligible === 0) {
      throw new ApiError(
        "audience_youtube_only_source",
        `Dataset ${source.id} holds only YouTube posts, which do not support audience profiling.`,
      );
    }
    if (eligible < MIN_ELIGIBLE_POSTS) {
      throw new ApiError(
        "audience_insufficient_source_mentions",
        `Dataset ${source.id} has ${eligible} posts from platforms that support audience profiling; at least ${MIN_ELIGIBLE_POSTS} are needed (YouTube posts do not count).`,
      );
    }
    const blocking = this.runs
      .childrenOf(accountId, "byAudienceDataset", audience.id)
      .find((r) => this.services.lifecycle.isInFlight(AUDIENCE_RUN, r));
    if (blocking) {
      throw new ConflictError(
        "audience_dataset_run_already_in_flight",
        `Run ${blocking.id} is still ${blocking.status.type} on this audience dataset; poll it until it ends, then retry.`,
      );
    }
    const target = body.total_profile_count ?? DEFAULT_PROFILE_COUNT;
    const reservation = this.services.lifecycle.reserve(AUDIENCE_RUN, accountId, target);

    const now = this.services.clock.now();
    const run = this.runs.insert({
      id: newId("adr_"),
      account_id: accountId,
      created_ms: now,
      updated_ms: now,
      deleted_ms: null,
      audience_dataset_id: audience.id,
      source_dataset_id: source.id,
      status: this.services.lifecycle.initialStatus(AUDIENCE_RUN),
      target_profile_count: target,
      profile_count: 0,
    });

    let people: Person[] = [];
    let collected: CollectedProfile[] = [];
    const plan = { kind: AUDIENCE_RUN, row: run, reservation };
    this.inFlight.set(run.id, plan);
    const walk = () => sourcePosts(pool, this.services.datasets.completedRuns(source));
    const datasets = this.services.datasets;
    this.services.lifecycle.start({
      ...plan,
      inline: options.inline,
      steps: [
        // Walk authors and commenters newest first; stop at the target
        // (seed rule 6: fewer people than asked ends the run early).
        {
          name: "scraping",
          // Sliced: the walk covers every post of the source (a person's
          // writings come from all of them), a million posts at scale.
          run: function* () {
            // D-DATASET-DELETED-REFS: a source deleted before its posts are
            // read fails the run (full refund); profiles of runs that finished
            // stay readable, as the seed says.
            if (!datasets.lookup(accountId, source.id)) {
              throw new Error(`Source dataset ${source.id} was deleted before its posts could be read.`);
            }
            const collector = new PeopleCollector();
            let walked = 0;
            for (const post of walk()) {
              collector.add(post);
              if (++walked % POSTS_PER_WALK_PIECE === 0) yield;
            }
            people = collector.people.slice(0, target);
            // Shown while working (D-AUD-RUN-STEPS); the profiles themselves are stored by the last step.
            run.profile_count = people.length;
          },
        },
        // Sliced (platform/pipeline.ts): reading 2,000 people's writings takes about half a second.
        {
          name: "enrichment",
          run: function* () {
            collected = [];
            for (let i = 0; i < people.length; i++) {
              collected.push({ personKey: people[i]!.key, fields: profileFields(people[i]!) });
              if ((i + 1) % PEOPLE_PER_PIECE === 0) yield;
            }
          },
        },
        {
          name: "analysis",
          run: () => {
            // Stored in one go, so a failed run never leaves half its profiles.
            this.profiles.save(accountId, audience.id, run, collected, this.services.clock.now());
            run.profile_count = collected.length;
            audience.updated_ms = this.services.clock.now();
          },
        },
      ],
      delivered: () => run.profile_count,
      onCompleted: () => void this.inFlight.delete(run.id),
      onFailed: () => {
        // A failed run delivered nothing.
        run.profile_count = 0;
        this.inFlight.delete(run.id);
      },
    });
    return audienceRunCreatedView(run);
  }

  listRuns(caller: Caller, audienceDatasetId: string, q: ListQuery): PageResult<AudiencesAudienceRun> {
    const audience = this.find(caller.account.id, audienceDatasetId);
    const page = this.runs.page(
      caller.account.id,
      { ...q, scope: { r: "audience_runs", id: audience.id, order: q.order } },
      () => true,
      { index: "byAudienceDataset", parentId: audience.id },
    );
    return { ...page, items: page.items.map(audienceRunView) };
  }

  /** D-AUD-RUN-404: unknown audience dataset -> `audience_dataset_not_found`; unknown run under it -> `not_found`. */
  readRun(caller: Caller, audienceDatasetId: string, runId: string): AudiencesAudienceRun {
    const audience = this.find(caller.account.id, audienceDatasetId);
    const run = this.runs.get(caller.account.id, runId);
    if (!run || run.audience_dataset_id !== audience.id)
      throw new NotFoundError("not_found", `Run ${runId} not found in audience dataset ${audience.id}.`);
    return audienceRunView(run);
  }

  // ---- audience profiles -------------------------------------------------

  /**
   * `POST /v1/audience_profiles`: every live audience dataset of the account
   * (or the listed ones; any unknown id is 404), OR-of-AND filters, sorted by
   * `created_at` or `audience_dataset_run_at`, keyset cursor bound to the
   * sort, order, scope and filters (`invalid_cursor` when any changes).
   */
  searchProfiles(caller: Caller, body: ProfileSearchBody): PageResult<AudiencesAudienceProfile> {
    const accountId = caller.account.id;
    const total = (body.filters ?? []).reduce((n, g) => n + g.length, 0);
    if (total > MAX_FILTERS) {
      throw new ValidationFailed([
        { loc: ["body", "filters"], msg: `At most ${MAX_FILTERS} filters in total; got ${total}.`, type: "too_big" },
      ]);
    }
    let scope: Set<string>;
    if (body.audience_dataset_ids) {
      scope = new Set(body.audience_dataset_ids.map((id) => this.find(accountId, id).id));
    } else {
      scope = new Set(this.datasets.live(accountId).map((d) => d.id));
    }
    const sort = body.sort ?? "created_at";
    const order = body.order ?? "desc";
    const page = paginate(
      this.profiles.sortedBy(accountId, sort),
      profileSortKey(sort),
      {
        limit: body.limit ?? 20,
        order,
        cursor: body.cursor,
        scope: {
          r: "audience_profiles",
          sort,
          order,
          audience_dataset_ids: body.audience_dataset_ids ? [...new Set(body.audience_dataset_ids)].sort() : null,
          filters: body.filters ?? null,
        },
      },
      (row) => scope.has(row.audience_dataset_id) && matchesProfileGroups(row, body.filters),
    );
    return { ...page, items: page.items.map(profileView) };
  }
}
