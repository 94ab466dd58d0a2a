// Dataset runs on the shared run lifecycle: reserve the upper bound, then
// scraping -> enrichment -> analysis on the pipeline; the lifecycle settles
// to the mentions actually collected, or releases everything on failure.
// Agent cycles start dataset runs here too, with a reservation they took
// all-or-nothing beforehand.
import type {
  CommonRunStatus,
  DatasetsDatasetRun,
  DatasetsDatasetRunCreated,
} from "../../../../generated/client/types.gen.ts";
import type { Caller } from "../../platform/env.ts";
import { NotFoundError } from "../../platform/errors.ts";
import { newId } from "../../platform/ids.ts";
import type { Reservation } from "../../platform/billing/ledger.ts";
import type { PageResult } from "../../platform/pagination.ts";
import type { RunKind } from "../../platform/runs/lifecycle.ts";
import { SEED_RUN_STATES } from "../../platform/runs/lifecycle.ts";
import type { Table } from "../../platform/store.ts";
import type { Clock } from "../../platform/clock.ts";
import type { RunLifecycle } from "../../platform/runs/lifecycle.ts";
import { analyse } from "../../simulators/analysis.ts";
import { describeMedia, withTranscript } from "../../simulators/media-enrichment.ts";
import { estimatedVolume, resolveUrl, searchPostsRange, type Post } from "../../simulators/provider.ts";
import type { Sliced } from "../../platform/pipeline.ts";
import type { MentionPools } from "../mentions/pool.ts";
import { preparePost, type PreparedPost } from "../mentions/record.ts";
import type { Account } from "../../platform/accounts.ts";
import { runCreatedView, runView, type DatasetRow, type DatasetRunBody, type DatasetRunRow } from "./rows.ts";
import { windowOf } from "./run-window.ts";
import type { DatasetService, ListQuery } from "./service.ts";

/** Dataset runs in the shared lifecycle: the seed's four states, steps listed, 1 unit per mention. */
export const DATASET_RUN: RunKind<CommonRunStatus["type"]> = {
  label: "dataset run",
  states: SEED_RUN_STATES,
  recordsSteps: true,
  category: "mention",
  insufficientCode: "insufficient_credits_dataset_run",
};

/** Posts analysed between two yields of the analysis step (every action on 50 posts is a few ms). */
export const POSTS_PER_ANALYSIS_PIECE = 50;

export interface StartOptions {
  /** Run every step now, synchronously (fixtures seeded before listening). */
  inline?: boolean;
  /** A reservation taken beforehand (an agent cycle's all-or-nothing reservation). */
  reservation?: Reservation;
  /** Called once the run is completed or failed (an agent cycle waits for all of its runs). */
  onSettled?: (run: DatasetRunRow) => void;
  /** The posts the run collects instead of scraping (a user's own fixture posts, scenarios/). */
  posts?: Post[];
}

/** What the dataset run service needs from the composition root (compose.ts). */
export interface DatasetRunNeeds extends MentionPools {
  readonly clock: Clock;
  readonly lifecycle: RunLifecycle;
  readonly datasets: Pick<DatasetService, "find" | "markRunCompleted">;
  readonly tables: { readonly datasetRuns: Table<DatasetRunRow> };
}

/**
 * Dataset run rules shared by REST, MCP and tracking agents: lookups scoped
 * to the account (an unknown or foreign run id is 404 `dataset_not_found`,
 * D-RUN-404), creation with reservation first (a 402 creates nothing), the
 * pipeline steps, and the query an agent cycle repeats.
 */
export class DatasetRunService {
  constructor(private readonly services: DatasetRunNeeds) {}

  private get table() {
    return this.services.tables.datasetRuns;
  }

  create(
    caller: Caller,
    datasetId: string,
    body: DatasetRunBody,
    options: StartOptions = {},
  ): DatasetsDatasetRunCreated {
    const dataset = this.services.datasets.find(caller.account.id, datasetId);
    return runCreatedView(this.start(caller.account, dataset, body, options));
  }

  /** Start a run on a dataset row; returns the stored row. */
  start(account: Account, dataset: DatasetRow, body: DatasetRunBody, options: StartOptions = {}): DatasetRunRow {
    const { clock, lifecycle } = this.services;
    const now = clock.now();
    const window = windowOf(body, account, now);
    const requested = body.count;
    const count =
      body.search_query.type === "url" ? Math.min(requested, body.search_query.source_urls.length) : requested;
    // Reserve first: a 402 creates nothing.
    const reservation = options.reservation ?? lifecycle.reserve(DATASET_RUN, account.id, count);
    const run: DatasetRunRow = {
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

  find(accountId: string, datasetId: string, runId: string): DatasetRunRow {
    const dataset = this.services.datasets.find(accountId, datasetId);
    const run = this.table.get(accountId, runId);
    if (!run || run.dataset_id !== dataset.id) throw new NotFoundError("dataset_not_found", "Dataset run not found.");
    return run;
  }

  /** Any run row of the account by id (live), e.g. to read an agent cycle's runs. */
  lookup(accountId: string, runId: string): DatasetRunRow | undefined {
    return this.table.get(accountId, runId);
  }

  /** The newest run of the dataset whose query can be repeated, or null. */
  repeatableQuery(accountId: string, dataset: DatasetRow): DatasetRunBody | null {
    const runs = this.table.childrenOf(accountId, "byDataset", dataset.id);
    return runs.length ? runs[runs.length - 1]!.body : null;
  }

  isInFlight(run: DatasetRunRow): boolean {
    return this.services.lifecycle.isInFlight(DATASET_RUN, run);
  }

  private execute(
    account: Account,
    dataset: DatasetRow,
    run: DatasetRunRow,
    body: DatasetRunBody,
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
          // Sliced: generating 1,000 posts was 10-30 ms in one turn.
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
              // Nothing to change (the usual run): no copy of the post (garbage while loading).
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
          // posts wait for the last turn, which adds them (storing
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
  body: DatasetRunBody,
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
