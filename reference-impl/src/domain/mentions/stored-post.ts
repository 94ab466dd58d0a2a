// The compact form a post takes once it is in the mention pool (D-REF-COMPACT-POOL:
// 1M mentions in at most 1.5 GB). The provider hands over plain `Post`
// objects; the pool keeps one `StoredPost` per post, which reads the same
// through the `Post` interface but
// - shares repeated strings (titles, comment bodies, names, analysis labels)
//   through one bounded intern table instead of a copy per post,
// - keeps no URL the provider derives from the post itself (post URL, avatar,
//   media addresses) and rebuilds them on read, byte for byte; a post whose
//   values differ from the derived ones (a resolved URL, described media)
//   keeps its own,
// - keeps no comments the provider can generate again from the post's seed:
//   only their number, and the comments are regenerated on read (checked
//   equal when the post is stored; a post whose comments differ keeps them).
// Derived fields are prototype getters, so `{ ...post }` copies only the
// stored fields: readers that need `url`, `media` or `avatar_url` read them
// as properties.
import type { Analysis } from "../../simulators/analysis.ts";
import {
  areGeneratedComments,
  avatarUrl,
  isGeneratedMedia,
  originOf,
  postUrl,
  regenerate,
  standardMedia,
  type MediaItem,
  type Post,
  type PostComment,
  type OriginRequest,
  type PostOrigin,
  type Source,
} from "../../simulators/provider.ts";

/**
 * Distinct strings the intern table holds at most. Past this the table stops
 * growing and strings are kept as they are (a copy per post, as before), so a
 * stream of unique strings cannot grow the table without bound.
 */
export const INTERN_LIMIT = 1 << 20;

const strings = new Map<string, string>();

/** The shared copy of a string equal to `s` (or `s` itself once the table is full). */
export function intern(s: string): string;
export function intern(s: string | null): string | null;
export function intern(s: string | null): string | null {
  if (s === null) return null;
  const shared = strings.get(s);
  if (shared !== undefined) return shared;
  if (strings.size < INTERN_LIMIT) strings.set(s, s);
  return s;
}

/** A shared, frozen copy of a list of strings (analysis lists repeat across posts). */
const lists = new Map<string, readonly string[]>();
export function internList(values: readonly string[]): string[] {
  const key = values.join("\u0000") + `\u0001${values.length}`;
  const shared = lists.get(key);
  if (shared) return shared as string[];
  const copy = Object.freeze(values.map((v) => intern(v)));
  if (lists.size < INTERN_LIMIT) lists.set(key, copy);
  return copy as string[];
}

/** A shared, frozen copy of a small flat object of strings and numbers (sentiment, emotion scores). */
const records = new Map<string, object>();
export function internRecord<T extends object>(value: T): T {
  const key = JSON.stringify(value);
  const shared = records.get(key);
  if (shared) return shared as T;
  const copy = Object.freeze(value);
  if (records.size < INTERN_LIMIT) records.set(key, copy);
  return copy;
}

export class StoredAuthor {
  readonly username: string;
  readonly display_name: string;
  readonly followers: number;
  readonly headline: string | null;
  /** Null when the avatar is the one derived from the username. */
  private readonly ownAvatar: string | null;

  constructor(a: Post["author"]) {
    this.username = a.username;
    this.display_name = intern(a.display_name);
    this.followers = a.followers;
    this.headline = intern(a.headline);
    this.ownAvatar = a.avatar_url === avatarUrl(a.username) ? null : a.avatar_url;
  }

  get avatar_url(): string {
    return this.ownAvatar ?? avatarUrl(this.username);
  }
}

/** Media stored as a type when it is exactly the provider's standard item. */
const NO_MEDIA = 0;
const IMAGE = 1;
const VIDEO = 2;

function mediaCode(source: Source, id: string, media: MediaItem[]): number | MediaItem[] {
  if (media.length === 0) return NO_MEDIA;
  // The provider's own frozen item: known standard without building and serialising two more.
  if (media.length === 1 && isGeneratedMedia(media[0]!, source, id)) return media[0]!.type === "video" ? VIDEO : IMAGE;
  if (media.length === 1) {
    const own = JSON.stringify(media[0]);
    if (own === JSON.stringify(standardMedia(source, id, "image"))) return IMAGE;
    if (own === JSON.stringify(standardMedia(source, id, "video"))) return VIDEO;
  }
  return media;
}

/** Whether `stored` is the start of `generated`, field for field and in key order. */
function sameComments(generated: readonly PostComment[], stored: readonly PostComment[]): boolean {
  if (stored.length > generated.length) return false;
  return JSON.stringify(generated.slice(0, stored.length)) === JSON.stringify(stored);
}

function compactComment(c: PostComment): PostComment {
  // Same keys in the same order as the provider's comments.
  return {
    id: c.id,
    author_username: intern(c.author_username),
    body: intern(c.body),
    num_likes: c.num_likes,
    num_replies: c.num_replies,
    created_ms: c.created_ms,
  };
}

export class StoredPost implements Post {
  readonly source: Source;
  readonly id: string;
  readonly author: StoredAuthor;
  readonly title: string;
  readonly text: string;
  readonly language: string;
  readonly country: string;
  readonly created_ms: number;
  // The base metrics and the generator origin are held as plain fields rather
  // than one small object each (about 64 B a post at 1M posts);
  // `base` is rebuilt on read, and `{ ...post }` leaves it out like the other
  // derived fields.
  private readonly baseViews: number;
  private readonly baseLikes: number;
  private readonly baseComments: number;
  private readonly baseShares: number;
  readonly views_estimated: boolean;
  /** The comments, or how many of the regenerated post's comments they are. */
  private readonly commentsStored: number | PostComment[];
  /** Set when the comments are stored as a count: the generator origin's seed and shared request. */
  private readonly originSeed: number = 0;
  private readonly originRequest: OriginRequest | undefined;
  /** Null when the URL is the platform's address derived from source, id and username. */
  private readonly ownUrl: string | null;
  private readonly mediaStored: number | MediaItem[];

  constructor(p: Post, comments: readonly PostComment[] = p.comments) {
    this.source = p.source;
    this.id = p.id;
    this.author = p.author instanceof StoredAuthor ? p.author : new StoredAuthor(p.author);
    this.title = intern(p.title);
    this.text = p.text;
    this.language = intern(p.language);
    this.country = intern(p.country);
    this.created_ms = p.created_ms;
    const base = p.base;
    this.baseViews = base.views;
    this.baseLikes = base.likes;
    this.baseComments = base.comments;
    this.baseShares = base.shares;
    this.views_estimated = p.views_estimated;
    const origin = p instanceof StoredPost ? p.origin : originOf(p);
    if (comments.length === 0) {
      this.commentsStored = 0;
    } else if (
      origin &&
      (areGeneratedComments(origin, comments) || sameComments(regenerate(origin).comments, comments))
    ) {
      this.commentsStored = comments.length;
      this.originSeed = origin.seed;
      this.originRequest = origin.request;
    } else {
      this.commentsStored = comments.map(compactComment);
    }
    this.ownUrl = p.url === postUrl(p.source, p.id, p.author.username) ? null : p.url;
    this.mediaStored = p instanceof StoredPost ? p.mediaStored : mediaCode(p.source, p.id, p.media);
  }

  /** Regenerated on each read when stored as a count: a fresh array the caller may keep. */
  get comments(): PostComment[] {
    const c = this.commentsStored;
    if (typeof c !== "number") return c;
    if (c === 0) return [];
    return regenerate(this.origin!).comments.slice(0, c);
  }

  get base(): Post["base"] {
    return { views: this.baseViews, likes: this.baseLikes, comments: this.baseComments, shares: this.baseShares };
  }

  private get origin(): PostOrigin | undefined {
    return this.originRequest && { seed: this.originSeed, request: this.originRequest };
  }

  /** How many comments the post carries, without regenerating them. */
  get commentCount(): number {
    const c = this.commentsStored;
    return typeof c === "number" ? c : c.length;
  }

  get url(): string {
    return this.ownUrl ?? postUrl(this.source, this.id, this.author.username);
  }

  /** Rebuilt on each read for standard media: a fresh array the caller may keep. */
  get media(): MediaItem[] {
    const m = this.mediaStored;
    if (typeof m !== "number") return m;
    if (m === NO_MEDIA) return [];
    return [standardMedia(this.source, this.id, m === VIDEO ? "video" : "image")];
  }

  /** Whether the post has media, without rebuilding it (the has_media filter runs per post). */
  get hasMedia(): boolean {
    return typeof this.mediaStored === "number" ? this.mediaStored !== NO_MEDIA : this.mediaStored.length > 0;
  }

  /** The same post with more comments (a later run asked for more per post). */
  withComments(comments: readonly PostComment[]): StoredPost {
    return new StoredPost(this, comments);
  }
}

/**
 * The analysis a record keeps: the same fields and values, with labels,
 * probability strings, topic and brand lists shared between posts (the
 * sentiment and emotion objects repeat across many posts).
 */
export function compactAnalysis(a: Analysis): Analysis {
  const out: Analysis = {};
  for (const field of Object.keys(a) as (keyof Analysis)[]) {
    const v = a[field];
    if (v === undefined) continue;
    switch (field) {
      case "sentiment":
        out.sentiment = internRecord({ ...a.sentiment! });
        break;
      case "emotions":
        out.emotions = internRecord({
          scores: internRecord({ ...a.emotions!.scores }),
          dominant: a.emotions!.dominant,
        });
        break;
      case "content_topics":
      case "questions":
      case "mentioned_brands":
      case "entities":
        out[field] = internList(v as string[]);
        break;
      case "cta":
        out.cta = intern(a.cta ?? null);
        break;
      default:
        out[field] = intern(v as string);
    }
  }
  return out;
}
