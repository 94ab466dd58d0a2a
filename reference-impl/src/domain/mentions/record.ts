// What the pool keeps of each post (MentionRecord), the form a post is put
// in before it lands (PreparedPost), and the small facts read off a record:
// its key, the runs that collected it, its engagement rate.
import type { Analysis } from "../../simulators/analysis.ts";
import type { Metrics, Post } from "../../simulators/provider.ts";
import type { DatasetCoefficients } from "./dataset-coefficients.ts";
import type { ParameterValues } from "./parameter-values.ts";
import { compactAnalysis, StoredPost } from "./stored-post.ts";

export interface MentionRecord {
  key: string;
  /** Order the post joined the pool (0, 1, ...): its number in the text index. */
  readonly doc: number;
  /** The compact stored form; reads as a `Post` (see stored-post.ts). */
  post: StoredPost;
  analysis: Analysis;
  metrics: Metrics;
  /** Metrics at the previous run that saw the post (null until seen twice). */
  previous: Metrics | null;
  engagementRate: number;
  datasetRunMs: number;
  /** dataset id -> largest extrapolation coefficient (1 when none). */
  datasets: DatasetCoefficients;
  /**
   * Ids of the runs that collected the post, in the order they did: the one
   * id while there is one (nearly every post; a one-entry array was 56 B of
   * each mention), an array from the second on. Read it with
   * `collectingRuns(record)`.
   */
  runs: string | string[];
  /** Comments to show: the largest num_comments_per_post of the runs that saw it. */
  numComments: number;
  /** Made on the first value: most posts never get one (an empty holder per post was 32 B at 1M posts). */
  parameters: ParameterValues | undefined;
}

/** The runs that collected a record, oldest first. */
export function collectingRuns(record: Pick<MentionRecord, "runs">): readonly string[] {
  return typeof record.runs === "string" ? [record.runs] : record.runs;
}

export function mentionKey(source: string, id: string): string {
  return `${source}:${id}`;
}

export function engagementRate(m: Metrics): number {
  if (m.views <= 0) return 0;
  return Math.round(((m.likes + m.comments + m.shares) / m.views) * 10_000) / 10_000;
}

/**
 * A post in the form the pool keeps (compact post, shared analysis values),
 * made before it lands: a run prepares its posts in slices and then adds
 * them all in one short turn.
 */
export interface PreparedPost {
  readonly post: StoredPost;
  readonly analysis: Analysis;
}

/** The stored form of a post and its analysis (see PreparedPost). */
export function preparePost(post: Post, analysis: Analysis): PreparedPost {
  return { post: post instanceof StoredPost ? post : new StoredPost(post), analysis: compactAnalysis(analysis) };
}

export interface UpsertContext {
  datasetId: string;
  /** The run (dataset run or agent cycle's dataset run) that collected the post. */
  runId: string;
  coefficient: number;
  runAtMs: number;
  numComments: number;
}
