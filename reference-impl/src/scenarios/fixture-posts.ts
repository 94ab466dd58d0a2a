// A user's own posts in a fixture dataset (`--fixtures DIR`, datasets.json
// `posts`). They enter the dataset the way every mention does: through a
// dataset run (a `url` run of at most 100 posts, the seed's per-run bound),
// analysed by the same simulators and charged like any run, so counts,
// usage history and the mention pool stay coherent.
import { zDatasetRunsCreateBody } from "../../../generated/client/zod.gen.ts";
import type { DatasetRow } from "../domain/datasets/service.ts";
import type { Services } from "../compose.ts";
import type { Account } from "../platform/accounts.ts";
import { avatarUrl, postUrl, type Post, type Source } from "../simulators/provider.ts";

/** One post as a fixture file gives it; everything but source, id, text and created_at has a default. */
export interface FixturePost {
  source: Source;
  id: string;
  text: string;
  /** ISO 8601 or integer Unix seconds. */
  created_at: string | number;
  url?: string;
  title?: string;
  language?: string;
  country?: string;
  author?: { username?: string; display_name?: string; followers?: number; headline?: string | null };
  likes?: number;
  views?: number;
  comments?: number;
  shares?: number;
}

export const POSTS_PER_RUN = 100;

export function toPost(p: FixturePost): Post {
  const username = p.author?.username ?? `${p.source}_user_${p.id}`.replace(/[^A-Za-z0-9_]/g, "_");
  const created_ms = typeof p.created_at === "number" ? p.created_at * 1000 : Date.parse(p.created_at);
  return {
    source: p.source,
    id: p.id,
    author: {
      username,
      display_name: p.author?.display_name ?? username,
      followers: p.author?.followers ?? 0,
      headline: p.author?.headline ?? null,
      avatar_url: avatarUrl(username),
    },
    title: p.title ?? "",
    text: p.text,
    url: p.url ?? postUrl(p.source, p.id, username),
    language: p.language ?? "en",
    country: p.country ?? "US",
    media: [],
    created_ms,
    base: { views: p.views ?? 0, likes: p.likes ?? 0, comments: p.comments ?? 0, shares: p.shares ?? 0 },
    views_estimated: p.views === undefined,
    comments: [],
  };
}

/** Every analysis the contract names, so the user's posts show every field. */
const ALL_ANALYSES = [
  "sentiment",
  "emotions",
  "topics",
  "mentioned_brands",
  "entities",
  "content_category",
  "intent",
  "tone_of_voice",
  "hook",
  "cta",
  "questions",
];

export function seedPosts(services: Services, account: Account, dataset: DatasetRow, posts: FixturePost[]): void {
  for (let i = 0; i < posts.length; i += POSTS_PER_RUN) {
    const chunk = posts.slice(i, i + POSTS_PER_RUN).map(toPost);
    const body = zDatasetRunsCreateBody.parse({
      search_query: { type: "url", source_urls: chunk.map((p) => ({ source: p.source, url: p.url })) },
      count: Math.max(20, chunk.length),
      num_comments_per_post: 0,
      content_analysis_actions: ALL_ANALYSES,
    });
    services.datasetRuns.start(account, dataset, body, { inline: true, posts: chunk });
  }
}
