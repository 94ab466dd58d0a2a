// Dataset runs on the shared run lifecycle: reserve the upper bound, then
// scraping -> enrichment -> analysis on the pipeline; the lifecycle settles
// to the mentions actually collected, or releases everything on failure.
// Agent cycles start dataset runs here too, with a reservation they took
// all-or-nothing beforehand.
import type * as z from "zod";
import type {
  CommonRunStatus,
  DatasetsDatasetRun,
  DatasetsDatasetRunCreated,
} from "../../../../generated/client/types.gen.ts";
import type { zDatasetRunsCreateBody } from "../../../../generated/client/zod.gen.ts";
import { isoTimestamp } from "../../platform/clock.ts";
import type { Caller } from "../../platform/env.ts";
import { ApiError, NotFoundError, ValidationFailed } from "../../platform/errors.ts";
import { newId } from "../../platform/ids.ts";
import { PLANS } from "../../platform/billing/plans.ts";
import { hasFeature } from "../../platform/plan-features.ts";
import type { Reservation } from "../../platform/billing/ledger.ts";
import type { PageResult } from "../../platform/pagination.ts";
import type { RunKind, RunStatus } from "../../platform/runs/lifecycle.ts";
import { SEED_RUN_STATES } from "../../platform/runs/lifecycle.ts";
import type { Row, Table } from "../../platform/store.ts";
import type { Clock } from "../../platform/clock.ts";
import type { RunLifecycle } from "../../platform/runs/lifecycle.ts";
import { analyse } from "../../simulators/analysis.ts";
import { describeMedia, withTranscript } from "../../simulators/media-enrichment.ts";
import { estimatedVolume, resolveUrl, searchPostsRange, type Post } from "../../simulators/provider.ts";
import type { Sliced } from "../../platform/pipeline.ts";
import type { MentionPools } from "../mentions/pool.ts";
import { preparePost, type PreparedPost } from "../mentions/record.ts";
import type { Account } from "../../platform/accounts.ts";
import type { DatasetRow, DatasetService, ListQuery } from "./service.ts";

export type RunBody = z.output<typeof zDatasetRunsCreateBody>;

export interface RunRow extends Row {
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
  body: RunBody;
}

/** Dataset runs in the shared lifecycle: the seed's four states, steps listed, 1 unit per mention. */
export const DATASET_RUN: RunKind<CommonRunStatus["type"]> = {
  label: "dataset run",
  states: SEED_RUN_STATES,
  recordsSteps: true,
  category: "mention",
  insufficientCode: "insufficient_credits_dataset_run",
};

const DAY = 86_400_000;
/** Posts analysed between two yields of the analysis step (every action on 50 posts is a few ms). */
export const POSTS_PER_ANALYSIS_PIECE = 50;

export function runView(r: RunRow): DatasetsDatasetRun {
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

export function runCreatedView(r: RunRow): DatasetsDatasetRunCreated {
  return {
    id: r.id,
    dataset_id: r.dataset_id,
    count: r.count,
    requested_count: r.requested_count,
    status: r.status as CommonRunStatus,
    created_at: isoTimestamp(r.created_ms),
  };
}

function parseDay(day: string, loc: string[]): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) {
    throw new ValidationFailed([{ loc, msg: "Not a valid calendar date.", type: "value_error" }]);
  }
  return ms;
}

/** The collection window of a run, or null for url searches. */
function windowOf(body: RunBody, account: Account, nowMs: number): { fromMs: number; toMs: number } | null {
  if (body.search_query.type === "url") return null;
  if (!body.date_range) return { fromMs: nowMs - 365 * DAY, toMs: nowMs };
  // A plan without `custom_date_filter` keeps the default window (D-PLAN-DATE-FILTER).
  if (!hasFeature(account, "custom_date_filter")) {
    throw new ApiError(
      "date_filter_unavailable",
      `The ${PLANS[account.plan].display_name} plan does not include custom date filters.`,
    );
  }
  const fromMs = parseDay(body.date_range.from, ["body", "date_range", "from"]);
  const toMs = parseDay(body.date_range.to, ["body", "date_range", "to"]);
  if (fromMs >= toMs) {
    throw new ValidationFailed([
      { loc: ["body", "date_range"], msg: "`from` must precede `to`.", type: "value_error" },
    ]);
  }
  const maxDays = PLANS[account.plan].max_date_range_days;
  if ((toMs - fromMs) / DAY > maxDays) {
    throw new ApiError("date_filter_unavailable", `The plan allows date ranges of at most ${maxDays} days.`);
  }
  return { fromMs, toMs: toMs + DAY - 1000 };
}

export interface StartOptions {
  /** Run every step now, synchronously (fixtures seeded before listening). */
  inline?: boolean;
  /** A reservation taken beforehand (an agent cycle's all-or-nothing reservation). */
  reservation?: Reservation;
  /** Called once the run is completed or failed (an agent cycle waits for all of its runs). */
  onSettled?: (run: RunRow) => void;
  /** The posts the run collects instead of scraping (a user's own fixture posts, scenarios/). */
  posts?: Post[];
}

/**
 * Dataset run rules shared by REST, MCP and tracking agents: lookups scoped
 * to the account (an unknown or foreign run id is 404 `dataset_not_found`,
 * D-RUN-404), creation with reservation first (a 402 creates nothing), the
 * pipeline steps, and the query an agent cycle repeats.
 */
/** What the dataset run service needs from the composition root (compose.ts). */
export interface DatasetRunNeeds extends MentionPools {
  readonly clock: Clock;
  readonly lifecycle: RunLifecycle;
  readonly datasets: Pick<DatasetService, "find" | "markRunCompleted">;
  readonly tables: { readonly datasetRuns: Table<RunRow> };
}

export class DatasetRunService {
  constructor(private readonly services: DatasetRunNeeds) {}

  private get table() {
    return this.services.tables.datasetRuns;
  }

  create(caller: Caller, datasetId: string, body: RunBody, options: StartOptions = {}): DatasetsDatasetRunCreated {
    const dataset = this.services.datasets.find(caller.account.id, datasetId);
    return runCreatedView(this.start(caller.account, dataset, body, options));
  }

  /** Start a run on a dataset row; returns the stored row. */
  start(account: Account, dataset: DatasetRow, body: RunBody, options: StartOptions = {}): RunRow {
    const { clock, lifecycle } = this.services;
    const now = clock.now();
    const window = windowOf(body, account, now);
    const requested = body.count;
    const count =
      body.search_query.type === "url" ? Math.min(requested, body.search_query.source_urls.length) : requested;
    // Reserve first: a 402 creates nothing.
    const reservation = options.reservation ?? lifecycle.reserve(DATASET_RUN, account.id, count);
    const run: RunRow = {
      id: newId("dsr_"),
      account_id: account.id,
      dataset_id: dataset.id,
      created_ms: now,
      updated_ms: now,
      deleted_ms: null,
      status: lifecycle.initialStatus(DATASET_RUN),
      params: {
        search_query: body.search_query,
        count: requested,
        num_comments_per_post: body.num_comments_per_post,
        date_range: body.date_range ?? null,
        country_code: body.country_code,
        language: body.language ?? null,
        enable_visual_recognition: body.enable_visual_recognition,
        enable_transcribing: body.enable_transcribing,
        content_analysis_actions: body.content_analysis_actions ?? [],
      },
      count,
      requested_count: requested,
      mentions_count: 0,
      new_mentions_count: 0,
      images_count: 0,
      videos_count: 0,
      body,
    };
    this.table.insert(run);
    this.execute(account, dataset, run, body, window, reservation, options);
    return run;
  }

  list(caller: Caller, datasetId: string, q: ListQuery): PageResult<DatasetsDatasetRun> {
    const dataset = this.services.datasets.find(caller.account.id, datasetId);
    const page = this.table.page(
      caller.account.id,
      { ...q, scope: { r: "dataset_runs", dataset: dataset.id, order: q.order } },
      undefined,
      { index: "byDataset", parentId: dataset.id },
    );
    return { ...page, items: page.items.map(runView) };
  }

  read(caller: Caller, datasetId: string, runId: string): DatasetsDatasetRun {
    return runView(this.find(caller.account.id, datasetId, runId));
  }

  find(accountId: string, datasetId: string, runId: string): RunRow {
    const dataset = this.services.datasets.find(accountId, datasetId);
    const run = this.table.get(accountId, runId);
    if (!run || run.dataset_id !== dataset.id) throw new NotFoundError("dataset_not_found", "Dataset run not found.");
    return run;
  }

  /** Any run row of the account by id (live), e.g. to read an agent cycle's runs. */
  lookup(accountId: string, runId: string): RunRow | undefined {
    return this.table.get(accountId, runId);
  }

  /** The newest run of the dataset whose query can be repeated, or null. */
  repeatableQuery(accountId: string, dataset: DatasetRow): RunBody | null {
    const runs = this.table.childrenOf(accountId, "byDataset", dataset.id);
    return runs.length ? runs[runs.length - 1]!.body : null;
  }

  isInFlight(run: RunRow): boolean {
    return this.services.lifecycle.isInFlight(DATASET_RUN, run);
  }

  private execute(
    account: Account,
    dataset: DatasetRow,
    run: RunRow,
    body: RunBody,
    window: { fromMs: number; toMs: number } | null,
    reservation: Reservation,
    { inline = false, onSettled, posts: given }: StartOptions,
  ): void {
    const { services } = this;
    const { clock } = services;
    let posts: { post: Post; coefficient: number }[] = [];
    this.services.lifecycle.start({
      kind: DATASET_RUN,
      row: run,
      reservation,
      inline,
      delivered: () => run.mentions_count,
      onCompleted: () => {
        this.services.datasets.markRunCompleted(dataset, run.id);
        onSettled?.(run);
      },
      onFailed: () => onSettled?.(run),
      steps: [
        {
          name: "scraping",
          // Sliced: generating 1,000 posts was 10-30 ms in one turn (issue 18).
          run: function* () {
            posts = given ? given.map((post) => ({ post, coefficient: 1 })) : yield* scrape(body, run.count, window);
            if (body.search_query.type === "url" && posts.length === 0) {
              throw new Error(`None of the ${body.search_query.source_urls.length} URLs could be retrieved.`);
            }
          },
        },
        {
          name: "enrichment",
          // Sliced like the analysis: transcripts of 1,000 posts are about 0.2 s of tokenising.
          run: function* () {
            for (const [i, p] of posts.entries()) {
              if (i > 0 && i % POSTS_PER_ANALYSIS_PIECE === 0) yield;
              // Nothing to change (the usual run): no copy of the post (issue 18, garbage while loading).
              if (
                !body.enable_visual_recognition &&
                !body.enable_transcribing &&
                p.post.comments.length <= body.num_comments_per_post
              )
                continue;
              p.post = {
                ...p.post,
                comments: p.post.comments.slice(0, body.num_comments_per_post),
                // D-REF-ENRICH: both are derived from the post's media and text (simulators/media-enrichment.ts).
                media: body.enable_visual_recognition ? describeMedia(p.post) : p.post.media,
                text: body.enable_transcribing ? withTranscript(p.post) : p.post.text,
              };
            }
          },
        },
        {
          name: "analysis",
          // Sliced (platform/pipeline.ts): the text analysis of 1,000 posts is a few hundred ms. Posts
          // enter the pool together once all are analysed, so a search never sees half a run.
          // Each post is analysed and put in the form the pool keeps in the
          // same piece, and the provider's post is let go, so only compact
          // posts wait for the last turn, which adds them (issue 18: storing
          // 1,000 posts in that turn was 40-60 ms, and the run's full posts
          // lived long enough to be promoted to the old generation).
          run: function* (this: void) {
            const actions = body.content_analysis_actions ?? [];
            const prepared: PreparedPost[] = [];
            const media = new Uint8Array(posts.length);
            for (let i = 0; i < posts.length; i++) {
              const post = posts[i]!.post;
              prepared.push(preparePost(post, analyse(`${post.text}`, actions)));
              media[i] =
                (post.media.some((m) => m.type === "image") ? IMAGES : 0) |
                (post.media.some((m) => m.type === "video") ? VIDEOS : 0);
              posts[i]!.post = undefined as unknown as Post;
              if ((i + 1) % POSTS_PER_ANALYSIS_PIECE === 0) yield;
            }
            const pool = services.mentions(account.id);
            const at = clock.now();
            for (const [i, { coefficient }] of posts.entries()) {
              const result = pool.upsertPrepared(prepared[i]!, {
                datasetId: dataset.id,
                runId: run.id,
                coefficient,
                runAtMs: at,
                numComments: body.num_comments_per_post,
              });
              const images = (media[i]! & IMAGES) !== 0;
              const videos = (media[i]! & VIDEOS) !== 0;
              run.mentions_count++;
              if (images) run.images_count++;
              if (videos) run.videos_count++;
              if (result.newToDataset) {
                run.new_mentions_count++;
                dataset.mentions_count++;
                if (images) dataset.images_count++;
                if (videos) dataset.videos_count++;
              }
              if (coefficient > result.previousCoefficient)
                dataset.estimated_sum += coefficient - result.previousCoefficient;
            }
            dataset.updated_ms = at;
          },
        },
      ],
    });
  }
}

const IMAGES = 1;
const VIDEOS = 2;

function* scrape(
  body: RunBody,
  count: number,
  window: { fromMs: number; toMs: number } | null,
): Sliced<{ post: Post; coefficient: number }[]> {
  const sq = body.search_query;
  if (sq.type === "url") {
    const out: { post: Post; coefficient: number }[] = [];
    const seen = new Set<string>();
    for (const [i, u] of sq.source_urls.slice(0, count).entries()) {
      if (i > 0 && i % POSTS_PER_ANALYSIS_PIECE === 0) yield;
      const outcome = resolveUrl(u.source, u.url, u.text, body.num_comments_per_post);
      if (!outcome.ok) continue;
      const key = `${outcome.post.source}:${outcome.post.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ post: outcome.post, coefficient: 1 });
    }
    return out;
  }
  const query = [sq.search_query, ...(sq.fragments ?? [])].join(" ");
  const sources = [...new Set(sq.sources)];
  const out: { post: Post; coefficient: number }[] = [];
  for (const [i, source] of sources.entries()) {
    const share = Math.floor(count / sources.length) + (i < count % sources.length ? 1 : 0);
    const request = {
      source,
      query,
      count: share,
      window,
      country: body.country_code,
      language: body.language ?? null,
      numComments: body.num_comments_per_post,
    };
    const found: Post[] = [];
    for (let from = 0; from < share; from += POSTS_PER_ANALYSIS_PIECE) {
      const piece = searchPostsRange(request, from, from + POSTS_PER_ANALYSIS_PIECE);
      found.push(...piece);
      if (piece.length < POSTS_PER_ANALYSIS_PIECE) break;
      yield;
    }
    const volume = estimatedVolume(source, query.trim().toLowerCase());
    const coefficient = found.length ? Math.max(1, Math.round((volume / found.length) * 100) / 100) : 1;
    for (const post of found) out.push({ post, coefficient });
  }
  return out;
}
