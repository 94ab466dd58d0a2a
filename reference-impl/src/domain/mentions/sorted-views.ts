// The pool's sort views, one per `sort`, built on first use and then kept
// current as posts land (D-REF-SORT-VIEWS). Every post added or re-collected
// goes into a change log; a view remembers how far it has applied the log
// and catches up by merging the changed posts back in (view-merge.ts), or is
// built again from the key order when so much changed that merging would
// cost more. Builds and merges are sliced work (platform/pipeline.ts).
import { drainNow, drainSliced, type Sliced } from "../../platform/pipeline.ts";
import { KeyOrder, ROWS_PER_PIECE, sortByValue } from "./order.ts";
import type { MentionRecord } from "./record.ts";
import { ViewRows, type SortedView } from "./sort-view.ts";
import { sortNumber, type MentionSort } from "./sort-values.ts";
import { mergeInto, sortChanged } from "./view-merge.ts";

/** New posts the background upkeep lets gather before it merges them into the key order (see `upkeep`). */
const KEY_ORDER_BATCH = 4096;

export class SortedViews {
  private readonly sorted = new Map<MentionSort, SortedView>();
  /**
   * Records added or re-collected, in order; each sorted view remembers how
   * far it has applied this log. A view catches up by dropping the changed
   * records and merging them back in order (linear), instead of re-sorting
   * every post after each run (a 3 s rebuild at 1M mentions).
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

  /** `byDoc` is the pool's own record table (every record by its post number), read as it grows. */
  constructor(private readonly byDoc: readonly MentionRecord[]) {}

  /** Posts in the pool (every post number below this exists). */
  private get size(): number {
    return this.byDoc.length;
  }

  /** Note a post added or re-collected: every view merges it in when next read. */
  logChange(record: MentionRecord): void {
    this.changes.push(record);
    if (this.changes.length > this.size + 1024) this.compactChanges();
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
   * (a cold view at 1M mentions was 9 s in one turn). A reader that finds
   * the view's work under way waits for it rather than starting its own;
   * other tenants' requests run in between the slices.
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

  /**
   * Background upkeep after posts land: merge them into the key order once
   * enough have gathered, sliced, so the first cold sort afterwards does not
   * pay for the whole pool.
   */
  upkeep(): Promise<unknown> {
    // Each merge copies the whole order into a new array: merged after
    // every run, a million posts loaded in 1,000-post runs allocated 4 GB
    // of typed arrays, and that churn forced full collections. Merged once
    // the new posts are a thirty-second of the order, the copies add up
    // to about 32 times the final size; a cold build merges the rest.
    const behind = this.size - this.keyOrder.covers;
    const due = behind >= Math.max(KEY_ORDER_BATCH, this.keyOrder.covers / 32);
    return due ? this.keyOrderReady() : Promise.resolve();
  }

  private async refreshView(sort: MentionSort, view: SortedView | undefined): Promise<void> {
    if (view && !this.stale(view)) return drainSliced(this.mergeView(sort, view));
    // The build starts from the key order of every post: wait until it is
    // current (the background upkeep usually has it so already).
    while (this.keyOrder.covers < this.size) await this.keyOrderReady();
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
        byDocValues[d] = sortNumber(this.byDoc[d]!, sort);
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
    return this.changesEnd - view.applied > this.size / 2;
  }

  /** Merge what the change log holds past the view into a new copy of it, then install that copy. */
  private *mergeView(sort: MentionSort, view: SortedView): Sliced<void> {
    const upto = this.changesEnd;
    const covers = this.size;
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
      const { added, addedValues } = yield* sortChanged(changed, sort);
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
}
