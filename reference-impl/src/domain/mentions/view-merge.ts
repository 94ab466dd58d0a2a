// Bringing a sort view up to date with the posts that changed since it was
// made: the changed posts sorted among themselves (sortChanged), then merged
// into a new copy of the view (mergeInto). Both are sliced work
// (platform/pipeline.ts).
import type { SortKey } from "../../platform/pagination.ts";
import type { Sliced } from "../../platform/pipeline.ts";
import { ROWS_PER_PIECE, sortByKey, sortByValue } from "./order.ts";
import type { MentionRecord } from "./record.ts";
import type { SortedView } from "./sort-view.ts";
import { sortKeyOf, sortNumber, type MentionSort } from "./sort-values.ts";

/** Changed posts a merge sorts with a comparator in one go; a larger batch takes the sliced key and radix sorts. */
const SMALL_BATCH = 2048;

function compareKeys(a: SortKey, b: SortKey): number {
  return a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

function sortRecords(records: MentionRecord[], keyOf: (r: MentionRecord) => SortKey): MentionRecord[] {
  const decorated = records.map((r) => ({ r, k: keyOf(r) }));
  decorated.sort((a, b) => compareKeys(a.k, b.k));
  return decorated.map((d) => d.r);
}

/**
 * The changed posts ascending by (sort value, key), with their values. A
 * small batch is sorted with a comparator in one go; a larger one as a build
 * does, in slices: key order, then stably by value.
 */
export function* sortChanged(
  changed: MentionRecord[],
  sort: MentionSort,
): Sliced<{ added: MentionRecord[]; addedValues: Float64Array }> {
  if (changed.length <= SMALL_BATCH) {
    const added = sortRecords(changed, sortKeyOf(sort));
    return { added, addedValues: Float64Array.from(added, (r) => sortNumber(r, sort)) };
  }
  const positions = new Uint32Array(changed.length);
  for (let i = 0; i < positions.length; i++) positions[i] = i;
  const byKey = yield* sortByKey(positions, changed);
  const values = Float64Array.from(byKey, (p) => sortNumber(changed[p]!, sort));
  const order = yield* sortByValue(values);
  return {
    added: Array.from(order, (p) => changed[byKey[p]!]!),
    addedValues: Float64Array.from(order, (p) => values[p]!),
  };
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
 * rows. Yields every ROWS_PER_PIECE rows copied (the
 * merge alone was 28-57 ms at 1M).
 */
export function* mergeInto(
  view: Pick<SortedView, "docs" | "values" | "covers">,
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
