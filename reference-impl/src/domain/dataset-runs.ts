// Dataset runs: reserve the upper bound, then run scraping -> enrichment ->
// analysis on the pipeline; settle to the mentions actually collected, or
// release everything when the run fails.
import type * as z from "zod";
import type {
  CommonRunStatus,
  DatasetsDatasetRun,
  DatasetsDatasetRunCreated,
} from "../../../generated/client/types.gen.ts";
import type { zDatasetRunsCreateBody } from "../../../generated/client/zod.gen.ts";
import { isoTimestamp, unixSeconds } from "../platform/clock.ts";
import { ApiError, ValidationFailed } from "../platform/errors.ts";
import { newId } from "../platform/ids.ts";
import { PLANS } from "../platform/billing/plans.ts";
import type { Reservation } from "../platform/billing/ledger.ts";
import type { Row } from "../platform/store.ts";
import { analyse } from "../simulators/analysis.ts";
import { estimatedVolume, resolveUrl, searchPosts, type Post } from "../simulators/provider.ts";
import type { Account } from "../platform/accounts.ts";
import type { DatasetRow } from "./datasets.ts";
import type { Services } from "./services.ts";

export type RunBody = z.output<typeof zDatasetRunsCreateBody>;

export interface RunRow extends Row {
  dataset_id: string;
  updated_ms: number;
  status: CommonRunStatus;
  params: DatasetsDatasetRun["params"];
  count: number;
  requested_count: number;
  mentions_count: number;
  new_mentions_count: number;
  images_count: number;
  videos_count: number;
}

const DAY = 86_400_000;

export function runView(r: RunRow): DatasetsDatasetRun {
  return {
    id: r.id,
    dataset_id: r.dataset_id,
    status: r.status,
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
    status: r.status,
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
  const fromMs = parseDay(body.date_range.from, ["body", "date_range", "from"]);
  const toMs = parseDay(body.date_range.to, ["body", "date_range", "to"]);
  if (fromMs >= toMs) {
    throw new ValidationFailed([{ loc: ["body", "date_range"], msg: "`from` must precede `to`.", type: "value_error" }]);
  }
  const maxDays = PLANS[account.plan].max_date_range_days;
  if ((toMs - fromMs) / DAY > maxDays) {
    throw new ApiError(422, "date_filter_unavailable", `The plan allows date ranges of at most ${maxDays} days.`);
  }
  return { fromMs, toMs: toMs + DAY - 1000 };
}

export function createRun(services: Services, account: Account, dataset: DatasetRow, body: RunBody, options: { inline?: boolean } = {}): RunRow {
  const now = services.clock.now();
  const window = windowOf(body, account, now);
  const requested = body.count;
  const count = body.search_query.type === "url" ? Math.min(requested, body.search_query.source_urls.length) : requested;
  const amount = services.ledger.quote(account.id, "mention", count);
  // Reserve first: a 402 creates nothing.
  const reservation = services.ledger.reserve(account.id, "mention", amount, "insufficient_credits_dataset_run");

  const run: RunRow = {
    id: newId("dsr_"),
    account_id: account.id,
    dataset_id: dataset.id,
    created_ms: now,
    updated_ms: now,
    deleted_ms: null,
    status: { type: "pending", steps: [] },
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
  };
  services.runs.insert(run);
  execute(services, account, dataset, run, body, window, reservation, options.inline ?? false);
  return run;
}

function execute(
  services: Services,
  account: Account,
  dataset: DatasetRow,
  run: RunRow,
  body: RunBody,
  window: { fromMs: number; toMs: number } | null,
  reservation: Reservation,
  inline: boolean,
): void {
  const { clock, ledger } = services;
  let posts: { post: Post; coefficient: number }[] = [];
  const touch = () => (run.updated_ms = clock.now());
  const finishStep = (name: "scraping" | "enrichment" | "analysis") => {
    run.status = { type: "working", steps: [...(run.status.steps ?? []), { name, completed_at: unixSeconds(clock.now()) }] };
    touch();
  };

  const job: Parameters<Services["pipeline"]["start"]>[0] = {
    steps: [
      {
        name: "start",
        run: () => {
          run.status = { type: "working", steps: [] };
          touch();
        },
      },
      {
        name: "scraping",
        run: () => {
          posts = scrape(body, run.count, window);
          if (body.search_query.type === "url" && posts.length === 0) {
            throw new Error(`None of the ${body.search_query.source_urls.length} URLs could be retrieved.`);
          }
          finishStep("scraping");
        },
      },
      {
        name: "enrichment",
        run: () => {
          for (const p of posts) {
            p.post = {
              ...p.post,
              comments: p.post.comments.slice(0, body.num_comments_per_post),
              // Visual recognition describes each media item from what the post is about.
              media: body.enable_visual_recognition ? p.post.media.map((m) => ({ ...m, description: describeMedia(m.type, p.post.title) })) : p.post.media,
            };
          }
          finishStep("enrichment");
        },
      },
      {
        name: "analysis",
        run: () => {
          const index = services.mentions(account.id);
          const at = clock.now();
          const actions = body.content_analysis_actions ?? [];
          for (const { post, coefficient } of posts) {
            const result = index.upsert(post, analyse(`${post.text}`, actions), {
              datasetId: dataset.id,
              coefficient,
              runAtMs: at,
              numComments: body.num_comments_per_post,
            });
            const images = post.media.some((m) => m.type === "image");
            const videos = post.media.some((m) => m.type === "video");
            run.mentions_count++;
            if (images) run.images_count++;
            if (videos) run.videos_count++;
            if (result.newToDataset) {
              run.new_mentions_count++;
              dataset.mentions_count++;
              if (images) dataset.images_count++;
              if (videos) dataset.videos_count++;
            }
            if (coefficient > result.previousCoefficient) dataset.estimated_sum += coefficient - result.previousCoefficient;
          }
          dataset.updated_ms = at;
          ledger.settle(reservation, ledger.quote(account.id, "mention", run.mentions_count));
          finishStep("analysis");
          run.status = { type: "completed", steps: run.status.steps ?? [] };
        },
      },
    ],
    onFailure: (error) => {
      if (reservation.state === "held") ledger.release(reservation);
      run.status = {
        type: "failed",
        steps: run.status.steps ?? [],
        error_message: error instanceof Error ? error.message : "The run failed.",
      };
      touch();
    },
  };
  if (inline) services.pipeline.runNow(job);
  else services.pipeline.start(job);
}

function scrape(body: RunBody, count: number, window: { fromMs: number; toMs: number } | null): { post: Post; coefficient: number }[] {
  const sq = body.search_query;
  if (sq.type === "url") {
    const out: { post: Post; coefficient: number }[] = [];
    const seen = new Set<string>();
    for (const u of sq.source_urls.slice(0, count)) {
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
  sources.forEach((source, i) => {
    const share = Math.floor(count / sources.length) + (i < count % sources.length ? 1 : 0);
    const found = searchPosts({
      source,
      query,
      count: share,
      window,
      country: body.country_code,
      language: body.language ?? null,
      numComments: body.num_comments_per_post,
    });
    const volume = estimatedVolume(source, query.trim().toLowerCase());
    const coefficient = found.length ? Math.max(1, Math.round((volume / found.length) * 100) / 100) : 1;
    for (const post of found) out.push({ post, coefficient });
  });
  return out;
}

function describeMedia(type: "image" | "video", title: string): string {
  return `${type === "video" ? "Video" : "Photo"} related to "${title}".`;
}
