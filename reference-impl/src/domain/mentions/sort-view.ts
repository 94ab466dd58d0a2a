// One sort view of the pool: the posts ascending by (sort value, key), held
// as post numbers in typed arrays, and what a reader gets of it (ViewRows).
import type { SortedRows } from "../../platform/pagination.ts";
import type { MentionRecord } from "./record.ts";

/**
 * A sort view's rows as post numbers (a `Uint32Array`, not a million
 * pointers the collector traces on every full collection), read
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

export interface SortedView {
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
