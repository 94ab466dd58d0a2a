// The source dataset of an audience run as the run reads it: the posts of
// its completed runs in walking order (D-AUD-WALK), and, for the checks
// before a run, whether it has posts and how many of them are eligible.
import type { Post } from "../../simulators/provider.ts";
import type { MentionPool } from "../mentions/pool.ts";
import { isEligible } from "./people.ts";

/**
 * The source's posts across every completed run, newest run first and,
 * inside a run, newest post first; a post collected by several runs is
 * walked once, at the newest run that collected it (D-AUD-WALK).
 * `completedRuns` is newest first.
 */
export function* sourcePosts(pool: MentionPool, completedRuns: readonly string[]): Generator<Post, void, undefined> {
  const seen = new Set<string>();
  // Lazily, a run at a time: a source of a million posts is walked in
  // slices by the run and only as far as it needs by the checks.
  for (const runId of completedRuns) {
    const records = [...pool.byRun(runId)].sort(
      (a, b) => b.post.created_ms - a.post.created_ms || (a.key < b.key ? -1 : 1),
    );
    for (const r of records) {
      if (seen.has(r.key)) continue;
      seen.add(r.key);
      yield r.post;
    }
  }
}

/**
 * Whether the source has posts at all, and its distinct eligible posts
 * counted up to `enough`: the order does not matter, so the records of
 * each completed run are read as they are and the count stops once it is
 * enough (a check before a run, in the request's turn, must stay short).
 */
export function eligibleSourcePosts(
  pool: MentionPool,
  completedRuns: readonly string[],
  enough: number,
): { any: boolean; eligible: number } {
  const eligible = new Set<string>();
  let any = false;
  for (const runId of completedRuns) {
    for (const r of pool.byRun(runId)) {
      any = true;
      if (!isEligible(r.post)) continue;
      eligible.add(r.key);
      if (eligible.size >= enough) return { any, eligible: eligible.size };
    }
  }
  return { any, eligible: eligible.size };
}
