// Who an audience run profiles: the authors and commenters of the source
// dataset's posts. Posts arrive newest first (the caller orders completed runs
// newest first, and posts inside a run newest first); a person is listed at
// their first appearance in that walk, author before the post's commenters,
// and everything they wrote anywhere in the walk is gathered as their content.
// YouTube posts are not eligible (the platform does not support audience
// profiling there), so neither their authors nor their commenters are listed.
import type { Post, Source } from "../../simulators/provider.ts";

/** One thing a person wrote in the source: a post they authored or a comment. */
export interface Writing {
  kind: "post" | "comment";
  text: string;
  language: string;
  created_ms: number;
  likes: number;
  replies: number;
  /** Views of the post; for a comment, views of the thread it answers (its audience). */
  views: number;
  shares: number;
  media: readonly ("image" | "video")[];
  /** Vertical video or image (taller than wide). */
  vertical: boolean;
}

export interface Person {
  key: string;
  source: Source;
  username: string;
  /** Author of at least one post (otherwise only a commenter). */
  creator: boolean;
  displayName: string | null;
  followers: number | null;
  headline: string | null;
  avatarUrl: string | null;
  country: string | null;
  writings: Writing[];
}

export const INELIGIBLE_SOURCES: ReadonlySet<Source> = new Set(["youtube"]);

export function personKey(source: string, username: string): string {
  return `${source}:${username.toLowerCase()}`;
}

/** Posts that count toward the 5-post minimum and feed profiles. */
export function isEligible(post: Post): boolean {
  return !INELIGIBLE_SOURCES.has(post.source);
}

/**
 * Every eligible person of `postsNewestFirst`, in walk order, with all their
 * writings. The caller keeps the first `total_profile_count`.
 */
export function collectPeople(postsNewestFirst: Iterable<Post>): Person[] {
  const collector = new PeopleCollector();
  for (const post of postsNewestFirst) collector.add(post);
  return collector.people;
}

/**
 * `collectPeople` one post at a time, so a run can walk a large source in
 * slices (a million posts in one turn); `people` after the last
 * post equals what `collectPeople` returns.
 */
export class PeopleCollector {
  private readonly byKey = new Map<string, Person>();
  /** People in the order they were first met. */
  readonly people: Person[] = [];

  add(post: Post): void {
    collectFrom(post, this.byKey, this.people);
  }
}

function collectFrom(post: Post, people: Map<string, Person>, order: Person[]): void {
  const personFor = (source: Source, username: string): Person => {
    const key = personKey(source, username);
    let p = people.get(key);
    if (!p) {
      p = {
        key,
        source,
        username,
        creator: false,
        displayName: null,
        followers: null,
        headline: null,
        avatarUrl: null,
        country: null,
        writings: [],
      };
      people.set(key, p);
      order.push(p);
    }
    return p;
  };
  if (!isEligible(post)) return;
  const author = personFor(post.source, post.author.username);
  author.creator = true;
  author.displayName ??= post.author.display_name;
  author.followers = Math.max(author.followers ?? 0, post.author.followers);
  author.headline ??= post.author.headline;
  author.avatarUrl ??= post.author.avatar_url;
  author.country ??= post.country;
  const first = post.media[0]?.version_list[0];
  author.writings.push({
    kind: "post",
    text: `${post.title}. ${post.text}`,
    language: post.language,
    created_ms: post.created_ms,
    likes: post.base.likes,
    replies: post.base.comments,
    views: post.base.views,
    shares: post.base.shares,
    media: post.media.map((m) => m.type),
    vertical: !!first && first.height > first.width,
  });
  const comments = [...post.comments].sort((a, b) => b.created_ms - a.created_ms);
  for (const c of comments) {
    const commenter = personFor(post.source, c.author_username);
    commenter.writings.push({
      kind: "comment",
      text: c.body,
      // Comments are written in the language of the thread they answer.
      language: post.language,
      created_ms: c.created_ms,
      likes: c.num_likes,
      replies: c.num_replies,
      views: post.base.views,
      shares: 0,
      media: [],
      vertical: false,
    });
  }
}
