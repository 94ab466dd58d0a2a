// Each account's pool of mentions. A post (source, id) is stored once and
// remembers every dataset that collected it, with the largest extrapolation
// coefficient seen per dataset, and every run that collected it. Sort views
// (sorted-views.ts) back keyset pagination; the pool's own full-text index
// (pool-text.ts) backs `q`. Both are kept current in the background as posts
// land.
import { metricsAt, type Metrics, type Post } from "../../simulators/provider.ts";
import type { Analysis } from "../../simulators/analysis.ts";
import { DatasetCoefficients } from "./dataset-coefficients.ts";
import { PoolText } from "./pool-text.ts";
import {
  engagementRate,
  mentionKey,
  preparePost,
  type MentionRecord,
  type PreparedPost,
  type UpsertContext,
} from "./record.ts";
import type { ViewRows } from "./sort-view.ts";
import type { MentionSort } from "./sort-values.ts";
import { SortedViews } from "./sorted-views.ts";
import type { SearchMode, TextHits } from "./text-index.ts";

/** Each account's mention pool (one per account, kept by the composition root, compose.ts). */
export interface MentionPools {
  mentions(accountId: string): MentionPool;
}

/** What an upsert tells its caller: whether the post is new to the dataset, and its coefficient there before. */
export interface Upserted {
  record: MentionRecord;
  newToDataset: boolean;
  previousCoefficient: number;
}

export class MentionPool {
  private readonly byKey = new Map<string, MentionRecord>();
  /** Every record by its post number (`doc`). */
  private readonly byDoc: MentionRecord[] = [];
  private readonly views = new SortedViews(this.byDoc);
  private readonly text = new PoolText();
  private upkeepDue = false;
  private readonly runs = new Map<string, MentionRecord[]>();
  /** The records each dataset holds, in the order they joined it. */
  private readonly members = new Map<string, MentionRecord[]>();

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): MentionRecord | undefined {
    return this.byKey.get(key);
  }

  all(): IterableIterator<MentionRecord> {
    return this.byKey.values();
  }

  /** The posts a dataset holds, in the order they joined it (a direct read, not a walk of the whole pool). */
  inDataset(datasetId: string): readonly MentionRecord[] {
    return this.members.get(datasetId) ?? [];
  }

  /** The posts one run collected, in collection order (a direct read). */
  byRun(runId: string): readonly MentionRecord[] {
    return this.runs.get(runId) ?? [];
  }

  /**
   * Add or refresh a post for a dataset. Returns whether the post is new to
   * that dataset and the coefficient it had there before.
   */
  upsert(post: Post, analysis: Analysis, ctx: UpsertContext): Upserted {
    return this.upsertPrepared(preparePost(post, analysis), ctx);
  }

  /** `upsert` of a post prepared beforehand (`preparePost`). */
  upsertPrepared(prepared: PreparedPost, ctx: UpsertContext): Upserted {
    const post = prepared.post;
    const key = mentionKey(post.source, post.id);
    let record = this.byKey.get(key);
    // Metrics come from the first-seen post, so its age is stable across runs.
    const metrics = metricsAt(record?.post ?? post, ctx.runAtMs);
    if (!record) record = this.add(key, prepared, metrics, ctx);
    else refresh(record, prepared, metrics, ctx);
    const before = record.datasets.get(ctx.datasetId);
    record.datasets = record.datasets.with(ctx.datasetId, Math.max(before ?? 0, ctx.coefficient));
    if (before === undefined) {
      let members = this.members.get(ctx.datasetId);
      if (!members) this.members.set(ctx.datasetId, (members = []));
      members.push(record);
    }
    const runs = record.runs;
    if ((typeof runs === "string" ? runs : runs[runs.length - 1]) !== ctx.runId) {
      if (typeof runs === "string") record.runs = [runs, ctx.runId];
      else runs.push(ctx.runId);
      this.collectedBy(ctx.runId, record);
    }
    this.views.logChange(record);
    return { record, newToDataset: before === undefined, previousCoefficient: before ?? 0 };
  }

  /** A post new to the pool: numbered, recorded, and queued for the text index. */
  private add(key: string, prepared: PreparedPost, metrics: Metrics, ctx: UpsertContext): MentionRecord {
    const record: MentionRecord = {
      key,
      // Never removed from the pool, so the count so far is unique and in order.
      doc: this.byKey.size,
      post: prepared.post,
      analysis: prepared.analysis,
      metrics,
      previous: null,
      engagementRate: engagementRate(metrics),
      datasetRunMs: ctx.runAtMs,
      datasets: DatasetCoefficients.none,
      runs: ctx.runId,
      numComments: ctx.numComments,
      parameters: undefined,
    };
    this.collectedBy(ctx.runId, record);
    this.byKey.set(key, record);
    this.byDoc.push(record);
    // Once the text index exists it is kept current as mentions land, so
    // the first `q` after a run does not index the whole run; that happens
    // in the background upkeep, not here, so a run of 1,000 posts landing is
    // not also 1,000 documents indexed in the same turn.
    this.text.add(record);
    this.scheduleUpkeep();
    return record;
  }

  private collectedBy(runId: string, record: MentionRecord): void {
    let collected = this.runs.get(runId);
    if (!collected) this.runs.set(runId, (collected = []));
    collected.push(record);
  }

  /** Records ascending by (sort value, key), brought up to date at once (see SortedViews.sortedBy). */
  sortedBy(sort: MentionSort): ViewRows {
    return this.views.sortedBy(sort);
  }

  /** The same rows, built or merged in slices (see SortedViews.sortedBySliced). */
  sortedBySliced(sort: MentionSort): Promise<ViewRows> {
    return this.views.sortedBySliced(sort);
  }

  /**
   * After posts land, keep the key order (and the text index, once it
   * exists) current in the background, sliced, so the first cold sort or
   * `q` afterwards does not pay for the whole pool. One upkeep is scheduled
   * however many posts land in the turn.
   */
  private scheduleUpkeep(): void {
    if (this.upkeepDue) return;
    this.upkeepDue = true;
    setImmediate(() => {
      this.upkeepDue = false;
      void this.views.upkeep().then(() => (this.text.started ? this.text.catchUp() : undefined));
    }).unref();
  }

  /** Posts matching a free-text query (see PoolText.search). */
  textSearch(q: string, mode: SearchMode): TextHits<MentionRecord> {
    return this.text.search(q, mode);
  }

  /** The same posts, one query term at a time with an event-loop turn between terms. */
  textSearchSliced(q: string, mode: SearchMode): Promise<TextHits<MentionRecord>> {
    return this.text.searchSliced(q, mode);
  }

  /** Feed what landed since into the text index, a slice at a time (see PoolText.catchUp). */
  catchUpTextIndex(): Promise<void> {
    return this.text.catchUp();
  }

  /** Slices fed into the text index so far (tests count slices, never time them). */
  get textIndexSlices(): number {
    return this.text.slices;
  }

  /** Size of the text index once it exists (the scale bench reports it). */
  textIndexStats(): { documents: number; terms: number; postings: number } | undefined {
    return this.text.stats();
  }
}

/** A post seen again: its metrics move on, and the rest keeps the most it has seen. */
function refresh(record: MentionRecord, prepared: PreparedPost, metrics: Metrics, ctx: UpsertContext): void {
  const post = prepared.post;
  record.previous = record.metrics;
  record.metrics = metrics;
  record.engagementRate = engagementRate(metrics);
  record.datasetRunMs = Math.max(record.datasetRunMs, ctx.runAtMs);
  record.numComments = Math.max(record.numComments, ctx.numComments);
  if (post.commentCount > record.post.commentCount) record.post = record.post.withComments(post.comments);
  Object.assign(record.analysis, prepared.analysis);
}
