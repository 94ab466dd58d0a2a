// The sorts behind the mention pool's sorted views, written as sliced work
// (platform/pipeline.ts) so that no pass holds the event loop for long
// (a cold view at 1M mentions was one 9 s sort of decorated
// objects on the event loop, and every other tenant waited behind it).
//
// A view orders posts by (sort value, key). The keys never change, so the
// pool keeps one key order (post numbers ascending by key) current as posts
// land; a view is then that order stably re-sorted by the numeric value, an
// LSD radix sort on typed arrays: a few linear passes, no comparison at all.
import type { Sliced } from "../../platform/pipeline.ts";

/** Rows one piece of a pass handles before it yields (about a millisecond). */
export const ROWS_PER_PIECE = 16_384;

/** What the key order needs of a post: its key and its number in the pool. */
export interface Keyed {
  readonly key: string;
  readonly doc: number;
}

/**
 * Post numbers ascending by key (the tie-break of every sorted view). New
 * posts are sorted among themselves and merged in, so keeping it current
 * costs about a run's size of comparisons and one copy of the order.
 */
export class KeyOrder {
  private order: Uint32Array = new Uint32Array(0);

  /** Posts numbered below this are in the order. */
  get covers(): number {
    return this.order.length;
  }

  /** The order of the first `covers` posts. */
  get docs(): Uint32Array {
    return this.order;
  }

  /**
   * Bring the order up to every post in `records` (indexed by post number).
   * Two callers may run this at once (a sync reader while sliced work is
   * under way): a result is installed only over the order it started from.
   */
  *catchUp(records: readonly Keyed[]): Sliced<Uint32Array> {
    while (this.order.length < records.length) {
      const base = this.order;
      const to = records.length;
      const added = new Uint32Array(to - base.length);
      for (let i = 0; i < added.length; i++) added[i] = base.length + i;
      const sorted = yield* sortByKey(added, records);
      const merged = yield* mergeByKey(base, sorted, records);
      if (this.order === base) this.order = merged;
    }
    return this.order;
  }
}

/** Post numbers sorted by their records' keys: insertion-sorted runs of 16, then bottom-up merges. */
export function* sortByKey(docs: Uint32Array, records: readonly Keyed[]): Sliced<Uint32Array> {
  const n = docs.length;
  let a = docs;
  let b: Uint32Array = new Uint32Array(n);
  const RUN = 16;
  let work = 0;
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = Math.min(n, lo + RUN);
    for (let i = lo + 1; i < hi; i++) {
      const x = a[i]!;
      const kx = records[x]!.key;
      let j = i - 1;
      while (j >= lo && records[a[j]!]!.key > kx) {
        a[j + 1] = a[j]!;
        j--;
      }
      a[j + 1] = x;
    }
    if ((work += RUN * 4) >= ROWS_PER_PIECE) {
      work = 0;
      yield;
    }
  }
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        // Ties keep the left one first (keys are unique; stability costs nothing).
        b[k++] = records[a[j]!]!.key < records[a[i]!]!.key ? a[j++]! : a[i++]!;
        if (++work >= ROWS_PER_PIECE) {
          work = 0;
          yield;
        }
      }
      while (i < mid) b[k++] = a[i++]!;
      while (j < hi) b[k++] = a[j++]!;
    }
    [a, b] = [b, a];
  }
  return a;
}

/**
 * Merge sorted `added` into sorted `base`: each added post finds its place
 * by galloping from the previous one (a run of 1,000 posts into a million
 * costs about 1,000 × 20 comparisons, not a million) and the rows between
 * are block-copied.
 */
export function* mergeByKey(base: Uint32Array, added: Uint32Array, records: readonly Keyed[]): Sliced<Uint32Array> {
  const out = new Uint32Array(base.length + added.length);
  let i = 0;
  let n = 0;
  for (let j = 0; j < added.length; j++) {
    const key = records[added[j]!]!.key;
    // Gallop: the first base row from i on whose key is above `key`.
    let step = 1;
    while (i + step - 1 < base.length && records[base[i + step - 1]!]!.key < key) step *= 2;
    let low = i + (step >> 1);
    let high = Math.min(base.length, i + step - 1);
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (records[base[mid]!]!.key < key) low = mid + 1;
      else high = mid;
    }
    out.set(base.subarray(i, low), n);
    n += low - i;
    i = low;
    out[n++] = added[j]!;
    if ((j & 1023) === 1023) yield;
  }
  out.set(base.subarray(i), n);
  return out;
}

/** Powers of ten a value may be scaled by to read as an integer (the sort values have at most 4 decimals). */
const SCALES = [1, 10, 100, 1000, 10_000];

/**
 * Positions 0..n-1 ordered by `values[position]` ascending, ties in
 * position order (stable): the caller passes values in key order, so ties
 * come out in key order. Values that read as integers within 2^32 of the
 * smallest once scaled by a power of ten up to 10^4 (dates, counts, rates
 * and scores with a few decimals) take two 16-bit passes; any other values
 * take four over their order-preserving 64-bit pattern. Every pass reads
 * its input in order (the digits travel with the positions), and a pass
 * whose digit is the same for every row is skipped.
 */
export function* sortByValue(values: Float64Array): Sliced<Uint32Array> {
  const n = values.length;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  let positions = new Uint32Array(n);
  for (let i = 0; i < n; i++) positions[i] = i;
  if (n < 2) return positions;
  yield;
  const scale = yield* integerScale(values, min, max);
  const words = scale === undefined ? 2 : 1;
  let low = new Uint32Array(n);
  let high = words === 2 ? new Uint32Array(n) : undefined;
  const bits = new Float64Array(1);
  const halves = new Uint32Array(bits.buffer);
  const base = scale === undefined ? 0 : Math.round(min * scale);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (scale !== undefined) low[i] = Math.round(v * scale) - base;
    else {
      // IEEE order: flip every bit of a negative number, the sign bit of a
      // positive one; -0 is read as 0 so it ties with 0 as `<` does.
      bits[0] = v === 0 ? 0 : v;
      const negative = halves[1]! >>> 31 === 1;
      low[i] = negative ? ~halves[0]! >>> 0 : halves[0]!;
      high![i] = negative ? ~halves[1]! >>> 0 : (halves[1]! | 0x80000000) >>> 0;
    }
    if ((i & (ROWS_PER_PIECE - 1)) === ROWS_PER_PIECE - 1) yield;
  }
  const count = new Uint32Array(1 << 16);
  let positionsOut = new Uint32Array(n);
  let lowOut = new Uint32Array(n);
  let highOut = high ? new Uint32Array(n) : undefined;
  const passes: [word: 0 | 1, shift: 0 | 16][] =
    words === 1
      ? [
          [0, 0],
          [0, 16],
        ]
      : [
          [0, 0],
          [0, 16],
          [1, 0],
          [1, 16],
        ];
  for (const [word, shift] of passes) {
    count.fill(0);
    let src = word === 0 ? low : high!;
    for (let i = 0; i < n; i++) {
      count[(src[i]! >>> shift) & 0xffff]!++;
      if ((i & (ROWS_PER_PIECE - 1)) === ROWS_PER_PIECE - 1) yield;
    }
    if (count[(src[0]! >>> shift) & 0xffff] === n) continue; // every row has this digit
    let sum = 0;
    for (let d = 0; d < count.length; d++) {
      const c = count[d]!;
      count[d] = sum;
      sum += c;
    }
    src = word === 0 ? low : high!;
    for (let i = 0; i < n; i++) {
      const to = count[(src[i]! >>> shift) & 0xffff]!++;
      positionsOut[to] = positions[i]!;
      lowOut[to] = low[i]!;
      if (high) highOut![to] = high[i]!;
      if ((i & (ROWS_PER_PIECE - 1)) === ROWS_PER_PIECE - 1) yield;
    }
    [positions, positionsOut] = [positionsOut, positions];
    [low, lowOut] = [lowOut, low];
    if (high) [high, highOut] = [highOut!, high];
  }
  return positions;
}

/**
 * The smallest power of ten (up to 10^4) that turns every value into an
 * integer, with the scaled range under 2^32; undefined when there is none.
 * Only values that are exactly round(v × scale) / scale qualify, so
 * distinct values get distinct integers, in the same order.
 */
function* integerScale(values: Float64Array, min: number, max: number): Sliced<number | undefined> {
  for (const scale of SCALES) {
    if ((max - min) * scale >= 2 ** 32 - 1) return undefined;
    let fits = true;
    for (let i = 0; i < values.length && fits; i++) {
      if (Math.round(values[i]! * scale) / scale !== values[i]) fits = false;
      if ((i & (ROWS_PER_PIECE - 1)) === ROWS_PER_PIECE - 1) yield;
    }
    if (fits) return scale;
  }
  return undefined;
}
