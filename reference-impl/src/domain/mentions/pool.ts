// Per-account pool of mentions. A post (source, id) is stored once and
// remembers every dataset that collected it, with the largest extrapolation
// coefficient seen per dataset. Sorted arrays per sort key (rebuilt lazily
// when dirty) back keyset pagination; a compact inverted index of our own
// (text-index.ts: MiniSearch's tokenizer and radix-tree vocabulary, our own
// postings; fed lazily, then kept current) backs `q`.
import type { MentionsMentionSort } from "../../../../generated/client/types.gen.ts";
import type { SortedRows, SortKey } from "../../platform/pagination.ts";
import { drainNow, drainSliced, nextSliceTurn, sliceBudgetSpent, type Sliced } from "../../platform/pipeline.ts";
import type { Analysis } from "../../simulators/analysis.ts";
import { metricsAt, type Metrics, type Post } from "../../simulators/provider.ts";
import { KeyOrder, ROWS_PER_PIECE, sortByKey, sortByValue } from "./order.ts";
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
      if (DatasetCoefficients.sharedOnes.size < DatasetCoefficients.SHARED_LIMIT)
        DatasetCoefficients.sharedOnes.set(key, one);
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

export type ParameterValue = {
  value: string | number | boolean | null;
  status: "completed" | "failed";
  computed_at: number;
};

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
  return ` ${text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}']+/gu, " ")
    .trim()} `;
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

/**
 * A post in the form the pool keeps (compact post, shared analysis values),
 * made before it lands: a run prepares its posts in slices and then adds
 * them all in one short turn (issue 18).
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

/**
 * A sort view's rows as post numbers (a `Uint32Array`, not a million
 * pointers the collector traces on every full collection, issue 18), read
 * by position through the pool's record table.
 */
export class ViewRows implements SortedRows<MentionRecord> {
  constructor(
    private readonly docs: Uint32Array,
    private readonly byDoc: readonly MentionRecord[],
  ) {}

  get length(): number {
    return this.docs.length;
  }

  at(index: number): MentionRecord | undefined {
    const doc = this.docs.at(index);
    return doc === undefined ? undefined : this.byDoc[doc];
  }

  *[Symbol.iterator](): Iterator<MentionRecord> {
    for (let i = 0; i < this.docs.length; i++) yield this.byDoc[this.docs[i]!]!;
  }

  /** The records as an array (tests; a copy of the whole view). */
  toArray(): MentionRecord[] {
    return Array.from(this.docs, (d) => this.byDoc[d]!);
  }
}

interface SortedView {
  /** Post numbers ascending by (value, key). */
  docs: Uint32Array;
  /** What readers get: `docs` read through the record table. */
  rows: ViewRows;
  /** Sort value of each row, so merging compares numbers and allocates nothing. */
  values: Float64Array;
  /** Position in the change log (counted from the pool's start) up to which this view has merged. */
  applied: number;
  /** Posts in the pool when the view was last brought up to date: every post numbered below is in it. */
  covers: number;
}

/** New posts the background upkeep lets gather before it merges them into the key order (see scheduleUpkeep). */
const KEY_ORDER_BATCH = 4096;

/** Changed posts a merge sorts with a comparator in one go; a larger batch takes the sliced key and radix sorts. */
const SMALL_BATCH = 2048;

/** The numeric sort value, with -0 read as 0 (the radix sort and `<` then agree). */
function valueOf(r: MentionRecord, sort: MentionSort): number {
  const v = sortValue(r, sort);
  return v === 0 ? 0 : v;
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
 * back in, into new arrays (readers keep the old view until the new one is
 * installed): each added record finds its place by binary search and the
 * rows between are copied without comparing (a sort value most posts share,
 * such as 0 likes, made a linear merge compare keys across long runs of
 * ties). Only posts the view already held can need dropping: a run of new
 * posts (the usual case) skips that test for every row, and otherwise the
 * test reads a mark per post number rather than probing a Set with a million
 * rows (issue 11). Yields every ROWS_PER_PIECE rows copied (issue 18: the
 * merge alone was 28-57 ms at 1M).
 */
function* mergeInto(
  view: SortedView,
  changed: readonly MentionRecord[],
  added: MentionRecord[],
  addedValues: Float64Array,
  byDoc: readonly MentionRecord[],
): Sliced<{ docs: Uint32Array; values: Float64Array }> {
  const { docs, values } = view;
  let drop: Uint8Array | undefined;
  for (const r of changed) {
    if (r.doc < view.covers) (drop ??= new Uint8Array(view.covers))[r.doc] = 1;
  }
  // Sized once (every changed record is in the view or in `added`, never
  // both twice).
  const outDocs = new Uint32Array(docs.length + added.length);
  const outValues = new Float64Array(docs.length + added.length);
  let n = 0;
  let copied = 0;
  let i = 0;
  for (let j = 0; j <= added.length; j++) {
    // First row from i on that sorts after added[j] (ties on the value go by key); all the rest after the last.
    let low = docs.length;
    if (j < added.length) {
      const value = addedValues[j]!;
      const key = added[j]!.key;
      low = i;
      let high = docs.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (values[mid]! < value || (values[mid] === value && byDoc[docs[mid]!]!.key <= key)) low = mid + 1;
        else high = mid;
      }
    }
    while (i < low) {
      const end = Math.min(low, i + (ROWS_PER_PIECE - copied));
      copied += end - i;
      if (!drop) {
        // Nothing to drop: a block copy of both typed arrays.
        outDocs.set(docs.subarray(i, end), n);
        outValues.set(values.subarray(i, end), n);
        n += end - i;
        i = end;
      } else {
        for (; i < end; i++) {
          if (drop[docs[i]!] === 1) continue;
          outDocs[n] = docs[i]!;
          outValues[n++] = values[i]!;
        }
      }
      if (copied >= ROWS_PER_PIECE) {
        copied = 0;
        yield;
      }
    }
    if (j < added.length) {
      outDocs[n] = added[j]!.doc;
      outValues[n++] = addedValues[j]!;
    }
  }
  return n === outDocs.length
    ? { docs: outDocs, values: outValues }
    : { docs: outDocs.slice(0, n), values: outValues.slice(0, n) };
}

/** Posts added to the text index per event-loop turn while catching up. */
const TEXT_INDEX_SLICE = 1000;

/** The texts a post is found by: title, text, and its author's names. */
function textFields(r: MentionRecord): (string | null | undefined)[] {
  return [r.post.title, r.post.text, `${r.post.author.display_name} ${r.post.author.username}`];
}

/** Each account's mention pool (one per account, kept by the composition root, compose.ts). */
export interface MentionPools {
  mentions(accountId: string): MentionPool;
}

export class MentionPool {
  private readonly byKey = new Map<string, MentionRecord>();
  /** Every record by its post number (`doc`). */
  private readonly byDoc: MentionRecord[] = [];
  private readonly sorted = new Map<MentionSort, SortedView>();
  /**
   * Records added or re-collected, in order; each sorted view remembers how
   * far it has applied this log. A view catches up by dropping the changed
   * records and merging them back in order (linear), instead of re-sorting
   * every post after each run (issue 11: a 3 s rebuild at 1M mentions).
   * Positions count from the pool's start: `changes[0]` is at `changesBase`.
   */
  private changes: MentionRecord[] = [];
  private changesBase = 0;
  /** Log positions that sliced work under way still reads from (compaction keeps them). */
  private readonly pins = new Set<{ at: number }>();
  /** Post numbers by key, the tie-break every view starts from; kept current in the background. */
  private readonly keyOrder = new KeyOrder();
  private keyOrderWork: Promise<unknown> | undefined;
  /** The sliced build or merge under way per sort: a reader that needs the view waits for it. */
  private readonly viewWork = new Map<MentionSort, Promise<void>>();
  private upkeepDue = false;
  private text: TextIndex<MentionRecord> | undefined;
  private textWork: Promise<void> | undefined;
  /** Posts not in the text index yet, in pool order, from `unindexedFrom` on. */
  private unindexed: MentionRecord[] = [];
  private unindexedFrom = 0;
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

  /**
   * The posts a dataset holds, in the order they joined it (a direct read:
   * listing them no longer walks the whole pool, issue 18).
   */
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
  upsert(
    post: Post,
    analysis: Analysis,
    ctx: UpsertContext,
  ): { record: MentionRecord; newToDataset: boolean; previousCoefficient: number } {
    return this.upsertPrepared(preparePost(post, analysis), ctx);
  }

  /** `upsert` of a post prepared beforehand (`preparePost`). */
  upsertPrepared(
    prepared: PreparedPost,
    ctx: UpsertContext,
  ): { record: MentionRecord; newToDataset: boolean; previousCoefficient: number } {
    const post = prepared.post;
    const key = mentionKey(post.source, post.id);
    let record = this.byKey.get(key);
    // Metrics come from the first-seen post, so its age is stable across runs.
    const metrics = metricsAt(record?.post ?? post, ctx.runAtMs);
    if (!record) {
      record = {
        key,
        // Never removed from the pool, so the count so far is unique and in order.
        doc: this.byKey.size,
        post,
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
      // the first `q` after a run does not index the whole run (issue 11);
      // that happens in the background upkeep, not here, so a run of 1,000
      // posts landing is not also 1,000 documents indexed in the same turn
      // (issue 18). Documents enter the index in pool order.
      this.unindexed.push(record);
      this.scheduleUpkeep();
    } else {
      record.previous = record.metrics;
      record.metrics = metrics;
      record.engagementRate = engagementRate(metrics);
      record.datasetRunMs = Math.max(record.datasetRunMs, ctx.runAtMs);
      record.numComments = Math.max(record.numComments, ctx.numComments);
      if (post.commentCount > record.post.commentCount) record.post = record.post.withComments(post.comments);
      Object.assign(record.analysis, prepared.analysis);
    }
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
    this.changes.push(record);
    if (this.changes.length > this.byKey.size + 1024) this.compactChanges();
    return { record, newToDataset: before === undefined, previousCoefficient: before ?? 0 };
  }

  private collectedBy(runId: string, record: MentionRecord): void {
    let collected = this.runs.get(runId);
    if (!collected) this.runs.set(runId, (collected = []));
    collected.push(record);
  }

  /** Position after the last entry of the change log. */
  private get changesEnd(): number {
    return this.changesBase + this.changes.length;
  }

  /**
   * Records ascending by (sort value, key), brought up to date at once. The
   * REST search uses `sortedBySliced`; this is for synchronous callers
   * (tests, fixtures), and at 1M mentions a cold view costs it a few hundred
   * ms in one turn.
   */
  sortedBy(sort: MentionSort): ViewRows {
    const view = this.sorted.get(sort);
    if (view && view.applied === this.changesEnd) return view.rows;
    if (view && !this.stale(view)) drainNow(this.mergeView(sort, view));
    else {
      drainNow(this.keyOrder.catchUp(this.byDoc));
      drainNow(this.buildView(sort));
    }
    return this.sorted.get(sort)!.rows;
  }

  /**
   * The same rows, built or merged in slices with event-loop turns between
   * (issue 18: a cold view at 1M mentions was 9 s in one turn). A reader
   * that finds the view's work under way waits for it rather than starting
   * its own; other tenants' requests run in between the slices.
   */
  async sortedBySliced(sort: MentionSort): Promise<ViewRows> {
    // A steady stream of runs could keep a view a little behind forever:
    // after a few rounds the small rest is merged at once.
    for (let round = 0; round < 4; round++) {
      const pending = this.viewWork.get(sort);
      if (pending) {
        await pending;
        continue;
      }
      const view = this.sorted.get(sort);
      if (view && view.applied === this.changesEnd) return view.rows;
      const work = this.refreshView(sort, view).finally(() => this.viewWork.delete(sort));
      this.viewWork.set(sort, work);
      await work;
    }
    return this.sortedBy(sort);
  }

  private async refreshView(sort: MentionSort, view: SortedView | undefined): Promise<void> {
    if (view && !this.stale(view)) return drainSliced(this.mergeView(sort, view));
    // The build starts from the key order of every post: wait until it is
    // current (the background upkeep usually has it so already).
    while (this.keyOrder.covers < this.byDoc.length) await this.keyOrderReady();
    return drainSliced(this.buildView(sort));
  }

  /**
   * A view from scratch over the posts the key order covers (all of them
   * when it starts): their values into a typed array, the key order
   * re-sorted stably by value (radix passes), then the rows. Posts changed or
   * added meanwhile are in the change log after the pinned position, so the
   * next merge applies them.
   */
  private *buildView(sort: MentionSort): Sliced<void> {
    const order = this.keyOrder.docs;
    const n = order.length;
    const pin = { at: this.changesEnd };
    this.pins.add(pin);
    try {
      // The values read in pool order (records lie in memory about in the
      // order they were made), then laid out in key order for the radix
      // passes, which read their arrays in order.
      const byDocValues = new Float64Array(n);
      for (let d = 0; d < n; d++) {
        byDocValues[d] = valueOf(this.byDoc[d]!, sort);
        if ((d & (ROWS_PER_PIECE - 1)) === ROWS_PER_PIECE - 1) yield;
      }
      const values = new Float64Array(n);
      for (let i = 0; i < n; i++) values[i] = byDocValues[order[i]!]!;
      const sorted = yield* sortByValue(values);
      const docs = new Uint32Array(n);
      const rowValues = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const p = sorted[i]!;
        docs[i] = order[p]!;
        rowValues[i] = values[p]!;
      }
      const current = this.sorted.get(sort);
      // Another reader may have installed a newer view meanwhile (the sync path).
      if (!current || current.applied <= pin.at)
        this.sorted.set(sort, {
          docs,
          rows: new ViewRows(docs, this.byDoc),
          values: rowValues,
          applied: pin.at,
          covers: n,
        });
    } finally {
      this.pins.delete(pin);
    }
    this.compactChanges();
  }

  /** So much changed since the view was made that building it again is cheaper than merging. */
  private stale(view: SortedView): boolean {
    return this.changesEnd - view.applied > this.byKey.size / 2;
  }

  /** Merge what the change log holds past the view into a new copy of it, then install that copy. */
  private *mergeView(sort: MentionSort, view: SortedView): Sliced<void> {
    const upto = this.changesEnd;
    const covers = this.byKey.size;
    const pin = { at: view.applied };
    this.pins.add(pin);
    try {
      // Each changed post once (a post re-collected twice is logged twice).
      const seen = new Uint8Array(covers);
      const changed: MentionRecord[] = [];
      for (let at = view.applied; at < upto; at++) {
        const r = this.changes[at - this.changesBase]!;
        if (seen[r.doc] === 0) {
          seen[r.doc] = 1;
          changed.push(r);
        }
        if ((at & (ROWS_PER_PIECE - 1)) === ROWS_PER_PIECE - 1) yield;
      }
      let added: MentionRecord[];
      let addedValues: Float64Array;
      if (changed.length <= SMALL_BATCH) {
        added = sortRecords(changed, sortKeyOf(sort));
        addedValues = Float64Array.from(added, (r) => valueOf(r, sort));
      } else {
        // As a build does, over the batch: key order, then stably by value.
        const positions = new Uint32Array(changed.length);
        for (let i = 0; i < positions.length; i++) positions[i] = i;
        const byKey = yield* sortByKey(positions, changed);
        const values = Float64Array.from(byKey, (p) => valueOf(changed[p]!, sort));
        const order = yield* sortByValue(values);
        added = Array.from(order, (p) => changed[byKey[p]!]!);
        addedValues = Float64Array.from(order, (p) => values[p]!);
      }
      const merged = yield* mergeInto(view, changed, added, addedValues, this.byDoc);
      // Installed only over the view it started from (a sync reader may have moved on).
      if (this.sorted.get(sort) === view)
        this.sorted.set(sort, { ...merged, rows: new ViewRows(merged.docs, this.byDoc), applied: upto, covers });
    } finally {
      this.pins.delete(pin);
    }
    this.compactChanges();
  }

  /** Forget the part of the change log every sorted view and every pinned piece of work has applied. */
  private compactChanges(): void {
    // A view that fell this far behind would be rebuilt anyway; dropping it
    // keeps the log from growing for a sort nobody asks for.
    for (const [sort, v] of this.sorted) if (this.stale(v) && !this.viewWork.has(sort)) this.sorted.delete(sort);
    let low = this.changesEnd;
    for (const v of this.sorted.values()) low = Math.min(low, v.applied);
    for (const pin of this.pins) low = Math.min(low, pin.at);
    // Dropping a short head is not worth a copy of the whole log.
    if (low - this.changesBase < Math.max(1024, this.changes.length / 4)) return;
    this.changes = this.changes.slice(low - this.changesBase);
    this.changesBase = low;
  }

  /** The key order brought up to date in slices (one catch-up at a time). */
  private keyOrderReady(): Promise<unknown> {
    return (this.keyOrderWork ??= drainSliced(this.keyOrder.catchUp(this.byDoc)).finally(() => {
      this.keyOrderWork = undefined;
    }));
  }

  /**
   * After posts land, keep the key order (and the text index, once it
   * exists) current in the background, sliced, so the first cold sort or
   * `q` afterwards does not pay for the whole pool (issue 18). One upkeep is
   * scheduled however many posts land in the turn.
   */
  private scheduleUpkeep(): void {
    if (this.upkeepDue) return;
    this.upkeepDue = true;
    setImmediate(() => {
      this.upkeepDue = false;
      // Each merge copies the whole order into a new array: merged after
      // every run, a million posts loaded in 1,000-post runs allocated 4 GB
      // of typed arrays, and that churn forced full collections. Merged once
      // the new posts are a thirty-second of the order, the copies add up
      // to about 32 times the final size; a cold build merges the rest.
      const behind = this.byDoc.length - this.keyOrder.covers;
      const due = behind >= Math.max(KEY_ORDER_BATCH, this.keyOrder.covers / 32);
      void (due ? this.keyOrderReady() : Promise.resolve()).then(() =>
        this.text ? this.catchUpTextIndex() : undefined,
      );
    }).unref();
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
   * Feed what landed since into the text index, at most TEXT_INDEX_SLICE
   * posts or the loop's slice budget at a time, with event-loop turns between, so building the index over a
   * large pool (the first `q` or assistant turn) never blocks other tenants.
   * A synchronous search meanwhile still sees everything (textIndex() adds
   * whatever is left).
   */
  catchUpTextIndex(): Promise<void> {
    // One catch-up at a time: the background upkeep and a search share it.
    return (this.textWork ??= this.feedTextIndex().finally(() => {
      this.textWork = undefined;
    }));
  }

  private async feedTextIndex(): Promise<void> {
    const text = this.ensureTextIndex();
    while (this.unindexedFrom < this.unindexed.length) {
      // Advance a cursor rather than splice: removing each slice from the
      // front of a 1M-entry array moved the rest of it every time.
      // At most TEXT_INDEX_SLICE posts, and no more than the loop
      // iteration's budget for sliced work, which it shares with runs and
      // sort views (platform/pipeline.ts): at 1M posts a slice of 1,000
      // took tens of ms on a busy machine (issue 18).
      const limit = Math.min(this.unindexedFrom + TEXT_INDEX_SLICE, this.unindexed.length);
      let end = this.unindexedFrom;
      while (end < limit) {
        text.add(this.unindexed[end]!, textFields(this.unindexed[end]!));
        end++;
        if (end % 64 === 0 && sliceBudgetSpent()) break;
      }
      this.unindexedFrom = end;
      this.textIndexSlices++;
      if (end < this.unindexed.length) await nextSliceTurn();
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
    for (let i = this.unindexedFrom; i < this.unindexed.length; i++)
      text.add(this.unindexed[i]!, textFields(this.unindexed[i]!));
    this.unindexed = [];
    this.unindexedFrom = 0;
    return text;
  }

  private ensureTextIndex(): TextIndex<MentionRecord> {
    return (this.text ??= new TextIndex<MentionRecord>());
  }
}
