// Per-account pool of mentions. A post (source, id) is stored once and
// remembers every dataset that collected it, with the largest extrapolation
// coefficient seen per dataset. Sorted arrays per sort key (rebuilt lazily
// when dirty) back keyset pagination; a compact inverted index of our own
// (text-index.ts: MiniSearch's tokenizer and radix-tree vocabulary, our own
// postings; fed lazily, then kept current) backs `q`.
import type { MentionsMentionSort } from "../../../generated/client/types.gen.ts";
import type { SortKey } from "../platform/pagination.ts";
import type { Analysis } from "../simulators/analysis.ts";
import { metricsAt, type Metrics, type Post } from "../simulators/provider.ts";
import { compactAnalysis, StoredPost } from "./stored-post.ts";
import { TextIndex, type SearchMode, type TextHits } from "./text-index.ts";

export { MAX_QUERY_TERMS } from "./text-index.ts";

export type MentionSort = MentionsMentionSort;

/**
 * The datasets that collected a post, with the largest extrapolation
 * coefficient per dataset. Nearly every post has one dataset, so the first
 * is held inline and a Map exists only from the second on (an empty or
 * one-entry Map per post was 0.2 KB of each mention, issue 11). Reads the
 * same as a Map: `has`, `get`, `set`, `keys()` in insertion order, `size`.
 */
export class DatasetCoefficients {
  private firstId: string | undefined;
  private firstCoefficient = 0;
  private more: Map<string, number> | undefined;
  /** Shared between records (see `with`): never changed in place. */
  private shared = false;

  /**
   * Nearly every post has one dataset with the coefficient of the run that
   * collected it, so records share one instance per (dataset, coefficient)
   * instead of holding 48 B each (issue 11). At most SHARED_LIMIT are kept.
   */
  private static readonly sharedOnes = new Map<string, DatasetCoefficients>();
  private static readonly SHARED_LIMIT = 1 << 16;

  /** No dataset yet: what a record starts from before its first `with`. */
  static readonly none: DatasetCoefficients = (() => {
    const none = new DatasetCoefficients();
    none.shared = true;
    return none;
  })();

  static one(id: string, coefficient: number): DatasetCoefficients {
    const key = `${coefficient}\u0000${id}`;
    let one = DatasetCoefficients.sharedOnes.get(key);
    if (!one) {
      one = new DatasetCoefficients().set(id, coefficient);
      one.shared = true;
      if (DatasetCoefficients.sharedOnes.size < DatasetCoefficients.SHARED_LIMIT) DatasetCoefficients.sharedOnes.set(key, one);
    }
    return one;
  }

  /** These coefficients with `id` set to `coefficient`: a shared one-dataset instance, or an own copy once there are two. */
  with(id: string, coefficient: number): DatasetCoefficients {
    if (this.size === 0 || (this.size === 1 && this.firstId === id)) return DatasetCoefficients.one(id, coefficient);
    const own = this.shared ? this.copy() : this;
    return own.set(id, coefficient);
  }

  private copy(): DatasetCoefficients {
    const out = new DatasetCoefficients();
    for (const id of this.keys()) out.set(id, this.get(id)!);
    return out;
  }

  get size(): number {
    return (this.firstId === undefined ? 0 : 1) + (this.more?.size ?? 0);
  }

  has(id: string): boolean {
    return this.firstId === id || (this.more !== undefined && this.more.has(id));
  }

  get(id: string): number | undefined {
    return this.firstId === id ? this.firstCoefficient : this.more?.get(id);
  }

  set(id: string, coefficient: number): this {
    if (this.shared) throw new Error("shared DatasetCoefficients are never changed in place; use with()");
    if (this.firstId === undefined || this.firstId === id) {
      this.firstId = id;
      this.firstCoefficient = coefficient;
    } else {
      (this.more ??= new Map()).set(id, coefficient);
    }
    return this;
  }

  *keys(): IterableIterator<string> {
    if (this.firstId !== undefined) yield this.firstId;
    if (this.more) yield* this.more.keys();
  }
}

export type ParameterValue = { value: string | number | boolean | null; status: "completed" | "failed"; computed_at: number };

/**
 * Custom parameter values of a post, keyed by parameter id. The Map is made
 * on the first `set`: most posts never get a value, and an empty Map per post
 * cost 0.2 KB (issue 11).
 */
export class ParameterValues {
  private values: Map<string, ParameterValue> | undefined;

  get size(): number {
    return this.values?.size ?? 0;
  }

  get(id: string): ParameterValue | undefined {
    return this.values?.get(id);
  }

  has(id: string): boolean {
    return this.values?.has(id) ?? false;
  }

  set(id: string, value: ParameterValue): this {
    (this.values ??= new Map()).set(id, value);
    return this;
  }

  delete(id: string): boolean {
    return this.values?.delete(id) ?? false;
  }
}

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
   * each mention, issue 11), an array from the second on. Read it with
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

export function normalizeWords(text: string): string {
  return ` ${text.toLowerCase().replace(/[^\p{L}\p{N}']+/gu, " ").trim()} `;
}

export function engagementRate(m: Metrics): number {
  if (m.views <= 0) return 0;
  return Math.round(((m.likes + m.comments + m.shares) / m.views) * 10_000) / 10_000;
}

/** Numeric sort value of a record for a sort. */
export function sortValue(r: MentionRecord, sort: MentionSort): number {
  switch (sort) {
    case "date":
      return Math.floor(r.post.created_ms / 1000);
    case "likes":
      return r.metrics.likes;
    case "views":
      return r.metrics.views;
    case "comments":
      return r.metrics.comments;
    case "shares":
      return r.metrics.shares;
    case "engagement_rate":
      return r.engagementRate;
    case "sentiment_score":
      // Posts without sentiment analysis sort below every scored post.
      return r.analysis.sentiment ? r.analysis.sentiment.score : -2;
    case "dataset_run_at":
      return Math.floor(r.datasetRunMs / 1000);
  }
}

export function sortKeyOf(sort: MentionSort): (r: MentionRecord) => SortKey {
  return (r) => [sortValue(r, sort), r.key];
}

export interface UpsertContext {
  datasetId: string;
  /** The run (dataset run or agent cycle's dataset run) that collected the post. */
  runId: string;
  coefficient: number;
  runAtMs: number;
  numComments: number;
}

interface SortedView {
  rows: MentionRecord[];
  /** Sort value of each row, so merging compares numbers and allocates nothing. */
  values: Float64Array;
  /** How many entries of the change log this view has merged. */
  applied: number;
  /** Posts in the pool when the view was last brought up to date: every post numbered below is in it. */
  covers: number;
}

function compareKeys(a: SortKey, b: SortKey): number {
  return a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

function sortRecords(records: MentionRecord[], keyOf: (r: MentionRecord) => SortKey): MentionRecord[] {
  const decorated = records.map((r) => ({ r, k: keyOf(r) }));
  decorated.sort((a, b) => compareKeys(a.k, b.k));
  return decorated.map((d) => d.r);
}

/**
 * Drop the changed records from a sorted view and merge the re-sorted ones
 * back in: each added record finds its place by binary search and the rows
 * between are copied without comparing (a sort value most posts share, such
 * as 0 likes, made a linear merge compare keys across long runs of ties).
 * Only posts the view already held can need dropping: a run of new posts
 * (the usual case) skips that test for every row, and otherwise the test
 * reads a mark per post number rather than probing a Set with a million
 * rows (issue 11: 150-200 ms at 1M mentions before the first search after a
 * run could answer).
 */
function mergeInto(view: SortedView, changed: readonly MentionRecord[], added: MentionRecord[], addedValues: Float64Array): void {
  const { rows, values } = view;
  let drop: Uint8Array | undefined;
  for (const r of changed) {
    if (r.doc < view.covers) (drop ??= new Uint8Array(view.covers))[r.doc] = 1;
  }
  // Sized once (every changed record is in the view or in `added`, never
  // both twice): growing a 1M-entry array by push doubled the merge's time.
  const outRows = new Array<MentionRecord>(rows.length + added.length);
  const outValues = new Float64Array(rows.length + added.length);
  let n = 0;
  const copyRows = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      if (drop && drop[rows[i]!.doc] === 1) continue;
      outRows[n] = rows[i]!;
      outValues[n++] = values[i]!;
    }
  };
  let i = 0;
  for (let j = 0; j < added.length; j++) {
    // First row from i on that sorts after added[j] (ties on the value go by key).
    const value = addedValues[j]!;
    const key = added[j]!.key;
    let low = i;
    let high = rows.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (values[mid]! < value || (values[mid] === value && rows[mid]!.key <= key)) low = mid + 1;
      else high = mid;
    }
    copyRows(i, low);
    i = low;
    outRows[n] = added[j]!;
    outValues[n++] = value;
  }
  copyRows(i, rows.length);
  outRows.length = n;
  view.rows = outRows;
  view.values = n === outValues.length ? outValues : outValues.slice(0, n);
}

/** Posts added to the text index per event-loop turn while catching up. */
const TEXT_INDEX_SLICE = 1000;

/** The texts a post is found by: title, text, and its author's names. */
function textFields(r: MentionRecord): (string | null | undefined)[] {
  return [r.post.title, r.post.text, `${r.post.author.display_name} ${r.post.author.username}`];
}

export class MentionIndex {
  private readonly byKey = new Map<string, MentionRecord>();
  private readonly sorted = new Map<MentionSort, SortedView>();
  /**
   * Records added or re-collected, in order; each sorted view remembers how
   * far it has applied this log. A view catches up by dropping the changed
   * records and merging them back in order (linear), instead of re-sorting
   * every post after each run (issue 11: a 3 s rebuild at 1M mentions).
   */
  private changes: MentionRecord[] = [];
  private text: TextIndex<MentionRecord> | undefined;
  /** Posts not in the text index yet, in pool order, from `unindexedFrom` on. */
  private unindexed: MentionRecord[] = [];
  private unindexedFrom = 0;
  private readonly runs = new Map<string, MentionRecord[]>();

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): MentionRecord | undefined {
    return this.byKey.get(key);
  }

  all(): IterableIterator<MentionRecord> {
    return this.byKey.values();
  }

  /** The posts one run collected, in collection order (a direct read). */
  byRun(runId: string): readonly MentionRecord[] {
    return this.runs.get(runId) ?? [];
  }

  /**
   * Add or refresh a post for a dataset. Returns whether the post is new to
   * that dataset and the coefficient it had there before.
   */
  upsert(post: Post, analysis: Analysis, ctx: UpsertContext): { record: MentionRecord; newToDataset: boolean; previousCoefficient: number } {
    const key = mentionKey(post.source, post.id);
    let record = this.byKey.get(key);
    // Metrics come from the first-seen post, so its age is stable across runs.
    const metrics = metricsAt(record?.post ?? post, ctx.runAtMs);
    if (!record) {
      record = {
        key,
        // Never removed from the pool, so the count so far is unique and in order.
        doc: this.byKey.size,
        post: new StoredPost(post),
        analysis: compactAnalysis(analysis),
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
      // Once the text index exists it is kept current as mentions land, so
      // the first `q` after a run does not index the whole run (issue 11).
      // Documents enter the index in pool order, so while a catch-up is
      // under way a new post waits behind the others.
      if (this.text && this.unindexed.length === 0) this.text.add(record, textFields(record));
      else this.unindexed.push(record);
    } else {
      record.previous = record.metrics;
      record.metrics = metrics;
      record.engagementRate = engagementRate(metrics);
      record.datasetRunMs = Math.max(record.datasetRunMs, ctx.runAtMs);
      record.numComments = Math.max(record.numComments, ctx.numComments);
      if (post.comments.length > record.post.commentCount) record.post = record.post.withComments(post.comments);
      Object.assign(record.analysis, compactAnalysis(analysis));
    }
    const before = record.datasets.get(ctx.datasetId);
    record.datasets = record.datasets.with(ctx.datasetId, Math.max(before ?? 0, ctx.coefficient));
    const runs = record.runs;
    if ((typeof runs === "string" ? runs : runs[runs.length - 1]) !== ctx.runId) {
      if (typeof runs === "string") record.runs = [runs, ctx.runId];
      else runs.push(ctx.runId);
      this.collectedBy(ctx.runId, record);
    }
    this.changes.push(record);
    if (this.changes.length > this.byKey.size + 1024) this.compactChanges();
    return { record, newToDataset: before === undefined, previousCoefficient: before ?? 0 };
  }

  private collectedBy(runId: string, record: MentionRecord): void {
    let collected = this.runs.get(runId);
    if (!collected) this.runs.set(runId, (collected = []));
    collected.push(record);
  }

  /** Records ascending by (sort value, key). */
  sortedBy(sort: MentionSort): readonly MentionRecord[] {
    const keyOf = sortKeyOf(sort);
    let view = this.sorted.get(sort);
    if (!view || this.changes.length - view.applied > this.byKey.size / 2) {
      // First use, or so much changed that one sort is cheaper than merging.
      const rows = sortRecords([...this.byKey.values()], keyOf);
      view = { rows, values: Float64Array.from(rows, (r) => sortValue(r, sort)), applied: this.changes.length, covers: this.byKey.size };
      this.sorted.set(sort, view);
    } else if (view.applied < this.changes.length) {
      const changed = [...new Set(this.changes.slice(view.applied))];
      const added = sortRecords(changed, keyOf);
      mergeInto(view, changed, added, Float64Array.from(added, (r) => sortValue(r, sort)));
      view.applied = this.changes.length;
      view.covers = this.byKey.size;
    }
    this.compactChanges();
    return view.rows;
  }

  /** Forget the part of the change log every sorted view has applied. */
  private compactChanges(): void {
    // A view that fell this far behind would be re-sorted anyway; dropping it
    // keeps the log from growing for a sort nobody asks for.
    for (const [sort, v] of this.sorted) if (this.changes.length - v.applied > this.byKey.size / 2) this.sorted.delete(sort);
    let low = this.changes.length;
    for (const v of this.sorted.values()) low = Math.min(low, v.applied);
    if (low === 0) return;
    this.changes = this.changes.slice(low);
    for (const v of this.sorted.values()) v.applied -= low;
  }

  /**
   * The same posts as `textSearch`, one query term at a time with an
   * event-loop turn between terms (issue 11).
   */
  async textSearchSliced(q: string, mode: SearchMode): Promise<TextHits<MentionRecord>> {
    await this.catchUpTextIndex();
    return this.textIndex().searchSliced(q, mode);
  }

  /**
   * Posts matching a free-text query (D-REF-SEARCH-COST): semantic = OR over
   * at most MAX_QUERY_TERMS distinct terms of 2+ characters, each widened by
   * prefix (3+ characters) and fuzzy matching (4-24 characters, at most 2
   * edits); keyword = AND over every distinct term, exact. A one-letter
   * prefix or a long fuzzy term would walk the whole vocabulary (250
   * one-letter words once exhausted the heap).
   */
  textSearch(q: string, mode: SearchMode): TextHits<MentionRecord> {
    return this.textIndex().search(q, mode);
  }

  /**
   * Feed what landed since into the text index, TEXT_INDEX_SLICE posts at a
   * time with an event-loop turn between slices, so building the index over a
   * large pool (the first `q` or assistant turn) never blocks other tenants.
   * A synchronous search meanwhile still sees everything (textIndex() adds
   * whatever is left).
   */
  async catchUpTextIndex(): Promise<void> {
    const text = this.ensureTextIndex();
    while (this.unindexedFrom < this.unindexed.length) {
      // Advance a cursor rather than splice: removing each slice from the
      // front of a 1M-entry array moved the rest of it every time.
      const end = Math.min(this.unindexedFrom + TEXT_INDEX_SLICE, this.unindexed.length);
      for (let i = this.unindexedFrom; i < end; i++) text.add(this.unindexed[i]!, textFields(this.unindexed[i]!));
      this.unindexedFrom = end;
      this.textIndexSlices++;
      if (end < this.unindexed.length) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    this.unindexed = [];
    this.unindexedFrom = 0;
  }

  /** Slices fed by catchUpTextIndex so far (tests count slices, never time them). */
  textIndexSlices = 0;

  /** Size of the text index once it exists (the scale bench reports it). */
  textIndexStats(): { documents: number; terms: number; postings: number } | undefined {
    return this.text && { documents: this.text.size, terms: this.text.terms, postings: this.text.postings };
  }

  /** The text index, created on first use and fed what landed since. */
  private textIndex(): TextIndex<MentionRecord> {
    const text = this.ensureTextIndex();
    for (let i = this.unindexedFrom; i < this.unindexed.length; i++) text.add(this.unindexed[i]!, textFields(this.unindexed[i]!));
    this.unindexed = [];
    this.unindexedFrom = 0;
    return text;
  }

  private ensureTextIndex(): TextIndex<MentionRecord> {
    return (this.text ??= new TextIndex<MentionRecord>());
  }
}
