// Deterministic synthetic social provider. Posts are seeded by (source,
// query, country, language, index), so the same query always yields the same
// posts and overlapping runs dedup. Engagement grows with the post's age, so
// a later run sees changed metrics for the same post.
import type { CommonSource } from "../../../generated/client/types.gen.ts";
import { BRANDS, FIRST_NAMES, HEADLINES, LANGS, LAST_NAMES, corpusFor } from "./corpus.ts";
import { Random, seedOf } from "../platform/random.ts";

export type Source = CommonSource;
export const SOURCES: readonly Source[] = ["reddit", "tiktok", "youtube", "instagram", "linkedin"];

export interface MediaVersion {
  url: string;
  width: number;
  height: number;
}
export interface MediaItem {
  type: "image" | "video";
  version_list: MediaVersion[];
  description: string | null;
}

export interface PostComment {
  id: string;
  author_username: string;
  body: string;
  num_likes: number;
  num_replies: number;
  created_ms: number;
}

export interface Post {
  source: Source;
  id: string;
  author: { username: string; display_name: string; followers: number; headline: string | null; avatar_url: string };
  title: string;
  text: string;
  url: string;
  language: string;
  country: string;
  media: MediaItem[];
  created_ms: number;
  /** Engagement at full maturity; observed values grow toward it with age. */
  base: { views: number; likes: number; comments: number; shares: number };
  views_estimated: boolean;
  comments: PostComment[];
}

/**
 * Where a generated post came from: its seed and the request it answered,
 * enough for `regenerate` to make the same post again. The mention pool keeps
 * this instead of the post's comments. Held under a symbol key, so
 * `{ ...post }` keeps it and JSON never shows it.
 */
export interface PostOrigin {
  readonly seed: number;
  readonly request: OriginRequest;
  /**
   * The comments as generated, each frozen: a post whose comments are these
   * very objects (in order) has the generated comments, so the pool can
   * tell without generating the post again (that regeneration and
   * its JSON comparison were most of storing a post).
   */
  readonly comments?: readonly PostComment[];
}
/** The part of an origin every post of one request shares. */
export interface OriginRequest {
  readonly source: Source;
  readonly query: string;
  readonly seedUrl: string | null;
  readonly opts: Readonly<Omit<PromptRequest, "source" | "query" | "count">>;
}
const ORIGIN = Symbol("post origin");

/** Whether `comments` are the first comments the origin generated, by identity (each is frozen). */
export function areGeneratedComments(origin: PostOrigin, comments: readonly PostComment[]): boolean {
  const generated = origin.comments;
  if (!generated || comments.length > generated.length) return false;
  for (let i = 0; i < comments.length; i++) if (comments[i] !== generated[i]) return false;
  return true;
}

/** Media items `makePost` generated, frozen, with the (source, id) they were made for. */
const generatedMedia = new WeakMap<MediaItem, string>();

/** Whether `item` is the standard item `makePost` generated for this post (by identity; it is frozen). */
export function isGeneratedMedia(item: MediaItem, source: Source, id: string): boolean {
  return generatedMedia.get(item) === `${source}:${id}`;
}

/** The origin of a post the provider generated (undefined for any other post). */
export function originOf(post: Post): PostOrigin | undefined {
  return (post as Post & { [ORIGIN]?: PostOrigin })[ORIGIN];
}

/** The post an origin describes, generated again: equal to the first time, field for field. */
export function regenerate(origin: PostOrigin): Post {
  const { source, query, seedUrl, opts } = origin.request;
  return makePost(origin.seed, { source, query, seedUrl, opts });
}

export interface Metrics {
  views: number;
  likes: number;
  comments: number;
  shares: number;
}

export interface PromptRequest {
  source: Source;
  query: string;
  count: number;
  window: { fromMs: number; toMs: number } | null;
  country: string;
  language: string | null;
  numComments: number;
}

const DAY = 86_400_000;

const HOSTS: Record<Source, RegExp> = {
  reddit: /(^|\.)reddit\.com$/,
  tiktok: /(^|\.)tiktok\.com$/,
  youtube: /(^|\.)(youtube\.com|youtu\.be)$/,
  instagram: /(^|\.)instagram\.com$/,
  linkedin: /(^|\.)linkedin\.com$/,
};

const FOLLOWERS: Record<Source, [number, number]> = {
  reddit: [10, 50_000],
  tiktok: [200, 5_000_000],
  youtube: [100, 8_000_000],
  instagram: [150, 3_000_000],
  linkedin: [50, 400_000],
};

/** Engagement observed at `atMs` for a post: grows toward `base` with age. */
export function metricsAt(post: Post, atMs: number): Metrics {
  const ageDays = Math.max(0, (atMs - post.created_ms) / DAY);
  // Fast growth over the first days, then a long tail over months.
  const f = 0.8 * (1 - Math.exp(-(ageDays + 0.05) / 3)) + 0.2 * (1 - Math.exp(-(ageDays + 0.05) / 120));
  return {
    views: Math.floor(post.base.views * f),
    likes: Math.floor(post.base.likes * f),
    comments: Math.floor(post.base.comments * f),
    shares: Math.floor(post.base.shares * f),
  };
}

/** How many posts the provider believes exist for the query (for extrapolation). */
export function estimatedVolume(source: Source, query: string): number {
  return new Random(seedOf("volume", source, query.trim().toLowerCase())).logInt(400, 60_000);
}

function postId(r: Random, source: Source): string {
  switch (source) {
    case "reddit":
      return `t3_${r.token(7)}`;
    case "tiktok":
      return String(
        7_300_000_000_000_000_000n + BigInt(r.int(0, 2 ** 30)) * 1_000_000_000n + BigInt(r.int(0, 999_999_999)),
      );
    case "youtube":
      return r.token(11, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
    case "instagram":
      return r.token(11, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
    case "linkedin":
      return `urn:li:activity:${7_200_000_000_000_000_000n + BigInt(r.int(0, 2 ** 30)) * 10_000n}`;
  }
}

/** The platform's address of a post (stored posts derive it instead of keeping a copy). */
export function postUrl(source: Source, id: string, username: string): string {
  switch (source) {
    case "reddit":
      return `https://www.reddit.com/r/${username}/comments/${id.slice(3)}/`;
    case "tiktok":
      return `https://www.tiktok.com/@${username}/video/${id}`;
    case "youtube":
      return `https://www.youtube.com/watch?v=${id}`;
    case "instagram":
      return `https://www.instagram.com/p/${id}/`;
    case "linkedin":
      return `https://www.linkedin.com/feed/update/${id}/`;
  }
}

/**
 * The one media item a generated post carries, a pure function of the post's
 * source, id and media type, so a stored post keeps only the type (two
 * URL strings and three objects per post were 0.5 KB of every mention).
 */
export function standardMedia(source: Source, id: string, type: "image" | "video"): MediaItem {
  const [w, h] =
    type === "video" && source !== "youtube" ? [1080, 1920] : source === "youtube" ? [1280, 720] : [1080, 1080];
  const base = `https://media.example.com/${source}/${encodeURIComponent(id)}`;
  return {
    type,
    version_list: [
      { url: `${base}/full.${type === "video" ? "mp4" : "jpg"}`, width: w, height: h },
      { url: `${base}/thumb.jpg`, width: Math.round(w / 4), height: Math.round(h / 4) },
    ],
    description: null,
  };
}

/** A generated author's avatar address, derived from the username. */
export function avatarUrl(username: string): string {
  return `https://media.example.com/avatars/${username}.jpg`;
}

function fill(template: string, query: string, brand: string): string {
  return template.replaceAll("{q}", query).replaceAll("{b}", brand);
}

/**
 * What a simulated post quotes of its query: the first 8 words, at most 80
 * characters. The whole query (with every fragment) still seeds the posts and
 * the volume, but is not copied into each post's title, text, tag and
 * comments, where 300 KB of fragments once cost 100 MiB per run.
 */
export function topicOf(query: string): string {
  const words = query.trim().split(/\s+/).slice(0, 8).join(" ");
  return words.length <= 80 ? words : words.slice(0, 80).trimEnd();
}

function originRequest(
  source: Source,
  query: string,
  seedUrl: string | null,
  o: Omit<PromptRequest, "source" | "query" | "count">,
): OriginRequest {
  // A frozen copy: the caller's request object may change after the call.
  const opts = Object.freeze({
    window: o.window && Object.freeze({ ...o.window }),
    country: o.country,
    language: o.language,
    numComments: o.numComments,
  });
  return Object.freeze({ source, query, seedUrl, opts });
}

function makePost(seed: number, origin: OriginRequest): Post {
  const { source, seedUrl, opts } = origin;
  const r = new Random(seed);
  const query = topicOf(origin.query);
  const language = opts.language ?? r.weighted(LANGS);
  const { corpus } = corpusFor(language);
  const brand = r.pick(BRANDS);
  const mood = r.weighted([
    ["positive", 45],
    ["negative", 25],
    ["neutral", 30],
  ] as const);
  const sentences: string[] = [];
  sentences.push(fill(r.pick(corpus[mood]), query, brand));
  if (r.chance(0.5))
    sentences.push(fill(r.pick(corpus[r.pick(["positive", "negative", "neutral"] as const)]), query, r.pick(BRANDS)));
  if (r.chance(0.35)) sentences.push(fill(r.pick(corpus.questions), query, brand));
  if (source !== "reddit" && r.chance(0.4)) sentences.push(fill(r.pick(corpus.ctas), query, brand));
  const tag = `#${query.toLowerCase().replace(/[^a-z0-9]+/g, "")}`;
  if (source !== "reddit" && tag.length > 1 && r.chance(0.6)) sentences.push(tag);

  const first = r.pick(FIRST_NAMES);
  const last = r.pick(LAST_NAMES);
  const username = `${first}${last}`.toLowerCase().replace(/[^a-z]/g, "") + r.int(1, 999);
  const followers = r.logInt(...FOLLOWERS[source]);
  const id = postId(r, source);
  const window = opts.window ?? { fromMs: Date.UTC(2025, 0, 1), toMs: Date.UTC(2026, 9, 1) };
  const created = Math.floor(window.fromMs + r.float() * Math.max(0, window.toMs - window.fromMs));
  const created_ms = created - (created % 1000);
  const views =
    source === "reddit" ? Math.round(followers * (0.5 + r.float() * 4)) : Math.round(followers * (0.2 + r.float() * 3));
  const likes = Math.round(views * (0.005 + r.float() * 0.08));
  const commentsCount = Math.round(likes * (0.02 + r.float() * 0.15));
  const shares = Math.round(likes * r.float() * 0.2);

  const media: MediaItem[] = [];
  const videoFirst = source === "tiktok" || source === "youtube";
  if (videoFirst || r.chance(source === "instagram" ? 0.95 : 0.35)) {
    const item = standardMedia(source, id, videoFirst || (source === "instagram" && r.chance(0.4)) ? "video" : "image");
    for (const v of item.version_list) Object.freeze(v);
    Object.freeze(item.version_list);
    generatedMedia.set(Object.freeze(item), `${source}:${id}`);
    media.push(item);
  }

  const comments: PostComment[] = [];
  const nComments = Math.min(opts.numComments, commentsCount);
  for (let i = 0; i < nComments; i++) {
    comments.push(
      Object.freeze({
        id: `${source === "reddit" ? "t1_" : "c_"}${r.token(9)}`,
        author_username: `${r.pick(FIRST_NAMES).toLowerCase()}_${r.int(10, 9999)}`,
        body: fill(r.pick(corpus.comments), query, r.pick(BRANDS)),
        num_likes: r.logInt(1, Math.max(2, Math.round(likes / 10))),
        num_replies: r.int(0, 12),
        created_ms: Math.min(created_ms + r.int(60, 7 * 86_400) * 1000, Math.max(created_ms, window.toMs)),
      }),
    );
  }

  const post: Post & { [ORIGIN]: PostOrigin } = {
    source,
    id,
    author: {
      username,
      display_name: `${first} ${last}`,
      followers,
      headline: source === "linkedin" || r.chance(0.5) ? r.pick(HEADLINES) : null,
      avatar_url: avatarUrl(username),
    },
    title: fill(r.pick(corpus.titles), query, brand),
    text: sentences.join(" "),
    url: seedUrl ?? postUrl(source, id, username),
    language,
    country: opts.country,
    media,
    created_ms,
    base: { views, likes, comments: commentsCount, shares },
    views_estimated: source === "instagram" || source === "linkedin",
    comments,
    [ORIGIN]: { seed, request: origin, comments: comments.slice() },
  };
  return post;
}

/** Up to `count` posts for a keyword query on one source; deterministic. */
export function searchPosts(request: PromptRequest): Post[] {
  return searchPostsRange(request, 0, request.count);
}

/**
 * Results `from` to `to - 1` of the same search (fewer past its volume), so a
 * run can generate a large result in pieces (1,000 posts were
 * 10-30 ms in one turn); the posts equal those `searchPosts` gives.
 */
export function searchPostsRange(request: PromptRequest, from: number, to: number): Post[] {
  const key = request.query.trim().toLowerCase();
  const available = Math.min(request.count, to, estimatedVolume(request.source, key));
  const posts: Post[] = [];
  const origin = originRequest(request.source, request.query.trim(), null, request);
  for (let i = from; i < available; i++) {
    posts.push(makePost(seedOf("post", request.source, key, request.country, request.language ?? "*", i), origin));
  }
  return posts;
}

export type UrlOutcome = { ok: true; post: Post } | { ok: false; reason: "unsupported_host" | "not_found" | "private" };

/**
 * Resolve one URL. A URL whose host is not the source's platform, or whose
 * path says it is gone or private, fails; everything else resolves to a
 * post seeded by the URL. "Says" means a whole word of the path (split on
 * anything but letters and digits), so an id that merely contains "404"
 * (a random hex run id, say) still resolves.
 */
const GONE_WORDS = ["deleted", "removed", "missing", "404"];

export function resolveUrl(source: Source, url: string, text: string | undefined, numComments: number): UrlOutcome {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: "not_found" };
  }
  if (!HOSTS[source].test(parsed.hostname.toLowerCase())) return { ok: false, reason: "unsupported_host" };
  const words = new Set(parsed.pathname.toLowerCase().split(/[^a-z0-9]+/));
  if (GONE_WORDS.some((w) => words.has(w))) return { ok: false, reason: "not_found" };
  if (words.has("private")) return { ok: false, reason: "private" };
  const segments = parsed.pathname.split("/").filter(Boolean);
  const topic = text?.trim() || segments[segments.length - 1]?.replace(/[-_]+/g, " ") || source;
  const post = makePost(
    seedOf("url", source, url),
    originRequest(source, topic, url, { window: null, country: "US", language: "en", numComments }),
  );
  return { ok: true, post };
}
