// Research previews: a cheap sample of a keyword search (`prompt`) or a
// lookup of profile URLs (`url`), answered synchronously and stored for free
// re-reads. Charging follows the seed's rule 2 with the ledger: reserve the
// upper bound first (402 before anything is scraped), then settle to what
// was delivered, or release everything when the scrape itself fails.
import { randomUUID } from "node:crypto";
import type * as z from "zod";
import type {
  PreviewsPreviewPost,
  PreviewsPromptPreviewResult,
  PreviewsResearchPreview,
  PreviewsUrlPreviewResult,
} from "../../../../generated/client/types.gen.ts";
import type { zResearchPreviewsCreateBody } from "../../../../generated/client/zod.gen.ts";
import type { Caller } from "../../platform/env.ts";
import { ApiError, NotFoundError, ValidationFailed } from "../../platform/errors.ts";
import type { Table } from "../../platform/store.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Ledger } from "../../platform/billing/ledger.ts";
import { estimatedVolume, searchPosts, type Post, type PromptRequest, type Source } from "../../simulators/provider.ts";
import { lookupProfile, type ProfileOutcome } from "../../simulators/profiles.ts";
import type { PreviewRow } from "./rows.ts";

export type PreviewBody = z.output<typeof zResearchPreviewsCreateBody>;
type PromptBody = Extract<PreviewBody, { type: "prompt" }>;
type UrlBody = Extract<PreviewBody, { type: "url" }>;

/** Posts sampled per source (D-PREVIEW-SAMPLE). */
export const SAMPLE_PER_SOURCE = 10;
const CODE_402 = "insufficient_credits_research_preview";
const DAY = 86_400_000;
const TIME_FILTER_DAYS = { past_day: 1, past_week: 7, past_month: 30, past_3_months: 90, past_year: 365 } as const;

/**
 * The provider calls a preview makes. Production uses the synthetic
 * provider; tests swap in one that throws to exercise the full refund.
 */
export interface PreviewScraper {
  search(request: PromptRequest): Post[];
  volume(source: Source, query: string): number;
  profile(source: Source, url: string): ProfileOutcome;
}

export const providerScraper: PreviewScraper = {
  search: searchPosts,
  volume: estimatedVolume,
  profile: lookupProfile,
};

function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** `from` must not be after `to` (D-PREVIEW-DATES); the schema already checked each is a date. */
function checkOrder(from: string | undefined | null, to: string | undefined | null, loc: string): void {
  if (from && to && dayStart(from) > dayStart(to)) {
    throw new ValidationFailed([
      { loc: ["body", loc], msg: `\`${loc}\` must not be after the end of the window.`, type: "value_error" },
    ]);
  }
}

/** "today", "1 day ago", "3 weeks ago", ... */
export function relativeDate(createdMs: number, nowMs: number): string {
  const days = Math.floor(Math.max(0, nowMs - createdMs) / DAY);
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"} ago`;
  if (days === 0) return "today";
  if (days < 14) return unit(days, "day");
  if (days < 60) return unit(Math.floor(days / 7), "week");
  if (days < 365) return unit(Math.floor(days / 30), "month");
  return unit(Math.floor(days / 365), "year");
}

function previewPost(post: Post, position: number, nowMs: number): PreviewsPreviewPost {
  return {
    position,
    source: post.source,
    url: post.url,
    author_display_name: post.source === "reddit" ? `u/${post.author.username}` : post.author.display_name,
    // Only Reddit and YouTube posts carry a title on the platform.
    headline: post.source === "reddit" || post.source === "youtube" ? post.title : null,
    relative_date: relativeDate(post.created_ms, nowMs),
    text: post.text,
    is_image_available: post.media.some((m) => m.type === "image"),
  };
}

/** What the preview service needs from the composition root (compose.ts). */
export interface PreviewNeeds {
  readonly clock: Clock;
  readonly ledger: Ledger;
  readonly tables: { readonly previews: Table<PreviewRow> };
}

export class PreviewService {
  /** Replaceable so tests can make the provider fail. */
  scraper: PreviewScraper = providerScraper;

  constructor(private readonly services: PreviewNeeds) {}

  private get table() {
    return this.services.tables.previews;
  }

  create(caller: Caller, body: PreviewBody): PreviewsResearchPreview {
    const result = body.type === "prompt" ? this.prompt(caller, body) : this.urls(caller, body);
    const now = this.services.clock.now();
    this.table.insert({
      id: result.preview_id,
      account_id: caller.account.id,
      created_ms: now,
      deleted_ms: null,
      result,
    });
    return result;
  }

  /** The stored preview: free, no re-scrape; unknown or foreign ids are 404 `not_found` (D-PREVIEW-404). */
  read(caller: Caller, previewId: string): PreviewsResearchPreview {
    const row = this.table.get(caller.account.id, previewId);
    if (!row) throw new NotFoundError("not_found", `Research preview ${previewId} not found.`);
    return row.result;
  }

  /**
   * One `preview_generation` per distinct source, charged in full once the
   * sample is taken (a source with no posts is still sampled work).
   */
  private prompt(caller: Caller, body: PromptBody): PreviewsPromptPreviewResult {
    const now = this.services.clock.now();
    let window: { fromMs: number; toMs: number };
    if (body.time_filter) {
      window = { fromMs: now - TIME_FILTER_DAYS[body.time_filter] * DAY, toMs: now };
    } else {
      checkOrder(body.date_since, body.date_until, "date_since");
      const fromMs = dayStart(body.date_since!);
      // D-PREVIEW-FUTURE: no post exists after now, so a window starting in
      // the future is a client mistake and one ending in the future stops now.
      if (fromMs > now) {
        throw new ValidationFailed([
          { loc: ["body", "date_since"], msg: "`date_since` must not be in the future.", type: "value_error" },
        ]);
      }
      window = { fromMs, toMs: Math.min(now, dayStart(body.date_until!) + DAY - 1000) };
    }
    const sources = [...new Set(body.sources)];
    const { ledger } = this.services;
    const reservation = ledger.reserve(caller.account.id, "preview_generation", sources.length, CODE_402);
    let perSource: Post[][];
    let estimate = 0;
    try {
      // The same request fields a dataset run sends, so a later run over the
      // same query, country and language collects these very posts.
      perSource = sources.map((source) =>
        this.scraper.search({
          source,
          query: body.search_query.trim(),
          count: SAMPLE_PER_SOURCE,
          window,
          country: body.country_code ?? "US",
          language: body.language ?? null,
          numComments: 0,
        }),
      );
      for (const source of sources) estimate += this.scraper.volume(source, body.search_query.trim().toLowerCase());
    } catch (error) {
      throw this.scrapeFailed(reservation, error);
    }
    ledger.settle(reservation, sources.length);
    // Interleave sources so the first positions show every platform.
    const posts: PreviewsPreviewPost[] = [];
    for (let i = 0; i < SAMPLE_PER_SOURCE; i++) {
      for (const list of perSource) if (list[i]) posts.push(previewPost(list[i]!, posts.length + 1, now));
    }
    return { preview_id: randomUUID(), type: "prompt", estimated_number_of_results: estimate, posts };
  }

  /**
   * One `preview_generation` reserved per distinct requested URL; settled to
   * the URLs that returned a profile (D-PREVIEW-URL-CHARGE), so failed,
   * non-existing and private URLs are refunded.
   */
  private urls(caller: Caller, body: UrlBody): PreviewsUrlPreviewResult {
    checkOrder(body.date_filter_since, body.date_filter_until, "date_filter_since");
    // A URL listed twice is looked up, listed and charged once, under its
    // first entry's source, so each URL string lands in exactly one list
    // (D-PREVIEW-URL-CHARGE, D-PREVIEW-URL-LISTS).
    const seen = new Set<string>();
    const requested = body.source_urls.filter((u) => {
      if (seen.has(u.url)) return false;
      seen.add(u.url);
      return true;
    });
    const { ledger } = this.services;
    const reservation = ledger.reserve(caller.account.id, "preview_generation", requested.length, CODE_402);
    const result: PreviewsUrlPreviewResult = {
      preview_id: randomUUID(),
      type: "url",
      profiles: [],
      failed_to_retrieve_profiles: [],
      non_existing_profiles: [],
      private_profiles: [],
    };
    let outcomes: ProfileOutcome[];
    try {
      outcomes = requested.map((u) => this.scraper.profile(u.source, u.url));
    } catch (error) {
      throw this.scrapeFailed(reservation, error);
    }
    outcomes.forEach((outcome, i) => {
      const url = requested[i]!.url;
      if (outcome.kind === "profile") result.profiles.push(outcome.profile);
      else if (outcome.kind === "private") result.private_profiles.push(url);
      else if (outcome.kind === "non_existing") result.non_existing_profiles.push(url);
      else result.failed_to_retrieve_profiles.push(url);
    });
    ledger.settle(reservation, result.profiles.length);
    return result;
  }

  /** The provider failed as a whole: refund everything, store nothing, answer 500 (D-PREVIEW-SCRAPE-FAILED). */
  private scrapeFailed(reservation: Parameters<Ledger["release"]>[0], error: unknown): ApiError {
    this.services.ledger.release(reservation);
    const why = error instanceof Error ? `: ${error.message}` : "";
    return new ApiError(
      "internal_server_error",
      `The provider could not be scraped${why}. Nothing was charged; retry later.`,
    );
  }
}
