// Keyset pagination over a list kept sorted ascending by (sort key, id).
// The cursor is opaque base64url JSON holding the last row's key and a hash
// of the sort/filter scope; a cursor from another scope is `invalid_cursor`.
// Seeking is a binary search, so page 500 costs what page 1 costs.
import { createHash } from "node:crypto";
import { InvalidCursorError } from "./errors.ts";

export type KeyPart = number | string;
export type SortKey = readonly [KeyPart, string];
export type Order = "asc" | "desc";

export function compareKeys(a: SortKey, b: SortKey): number {
  const [av, aid] = a;
  const [bv, bid] = b;
  if (av !== bv) {
    if (typeof av === "number" && typeof bv === "number") return av < bv ? -1 : 1;
    return String(av) < String(bv) ? -1 : 1;
  }
  return aid === bid ? 0 : aid < bid ? -1 : 1;
}

/** Stable short hash of a JSON-able scope (sort, order, filters, ...). */
export function scopeHash(scope: unknown): string {
  return createHash("sha256").update(canonicalJson(scope)).digest("base64url").slice(0, 16);
}

export function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

interface CursorBody {
  v: 1;
  k: [KeyPart, string];
  s: string;
}

export function encodeCursor(key: SortKey, scope: string): string {
  const body: CursorBody = { v: 1, k: [key[0], key[1]], s: scope };
  return Buffer.from(JSON.stringify(body), "utf8").toString("base64url");
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

export function decodeCursor(cursor: string, scope: string): SortKey {
  if (!BASE64URL.test(cursor)) throw new InvalidCursorError();
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor.replace(/=+$/, ""), "base64url").toString("utf8"));
  } catch {
    throw new InvalidCursorError();
  }
  const b = body as Partial<CursorBody> | null;
  if (
    !b ||
    typeof b !== "object" ||
    b.v !== 1 ||
    !Array.isArray(b.k) ||
    b.k.length !== 2 ||
    !(typeof b.k[0] === "number" || typeof b.k[0] === "string") ||
    typeof b.k[1] !== "string" ||
    typeof b.s !== "string"
  ) {
    throw new InvalidCursorError();
  }
  if (b.s !== scope) {
    throw new InvalidCursorError("The cursor belongs to another sort or filter; start again without a cursor.");
  }
  return [b.k[0], b.k[1]];
}

/**
 * Rows sorted ascending, read by position: an array, or a view that holds
 * post numbers and looks the rows up (the mention pool's sort views, issue
 * 18: typed arrays instead of a million pointers each).
 */
export interface SortedRows<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

export interface PageRequest {
  limit: number;
  order: Order;
  cursor?: string | undefined;
  /** Anything the cursor must stay bound to (sort, filters, resource). */
  scope: unknown;
}

export interface PageResult<T> {
  items: T[];
  hasNext: boolean;
  cursor: string | null;
}

/** First index whose key is strictly greater than `key`. */
function upperBound<T>(sorted: SortedRows<T>, keyOf: (t: T) => SortKey, key: SortKey): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keyOf(sorted.at(mid)!), key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose key is greater than or equal to `key`. */
function lowerBound<T>(sorted: SortedRows<T>, keyOf: (t: T) => SortKey, key: SortKey): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keyOf(sorted.at(mid)!), key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One page from `sortedAsc` (ascending by keyOf), walking in `order` from
 * just past the cursor and keeping rows that pass `keep`.
 */
export function paginate<T>(
  sortedAsc: SortedRows<T>,
  keyOf: (t: T) => SortKey,
  request: PageRequest,
  keep: (t: T) => boolean = () => true,
  /**
   * At most this many rows examined per page (D-REF-SCAN-BUDGET). When the
   * budget runs out before the page fills, the page ends early with
   * `has_next` and a cursor at the last examined row, so a filter that
   * matches little costs each request a bounded scan.
   */
  budget = Number.POSITIVE_INFINITY,
): PageResult<T> {
  const scan = new PageScan(sortedAsc, keyOf, request, keep, budget);
  while (!scan.step(Number.POSITIVE_INFINITY));
  return scan.result();
}

/** Longest a slice of a sliced page scan runs, in ms (a costly filter over long texts made 2,000 rows take 100 ms at 1M). */
export const SCAN_SLICE_MS = 4;

/** Rows examined between two looks at the clock inside a slice. */
const SCAN_CHUNK = 128;

/**
 * The same page, examined `slice` rows at a time (fewer when a slice has run
 * SCAN_SLICE_MS) with a turn of the event loop in between, so a long scan
 * for one account never holds another account's cheap request for more than
 * one slice.
 */
export async function paginateSliced<T>(
  sortedAsc: SortedRows<T>,
  keyOf: (t: T) => SortKey,
  request: PageRequest,
  keep: (t: T) => boolean,
  budget: number,
  slice: number,
): Promise<PageResult<T>> {
  const scan = new PageScan(sortedAsc, keyOf, request, keep, budget);
  for (;;) {
    const started = performance.now();
    let examined = 0;
    let done = false;
    while (!done && examined < slice && performance.now() - started < SCAN_SLICE_MS) {
      const rows = Math.min(SCAN_CHUNK, slice - examined);
      done = scan.step(rows);
      examined += rows;
    }
    if (done) return scan.result();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The walk of one page, resumable: `step(n)` examines up to n rows and says whether the page is done. */
class PageScan<T> {
  private readonly scope: string;
  private readonly items: T[] = [];
  private readonly step_: 1 | -1;
  private i: number;
  private examined = 0;
  private hasNext = false;
  private stoppedAt: T | undefined;
  private done = false;

  constructor(
    private readonly sortedAsc: SortedRows<T>,
    private readonly keyOf: (t: T) => SortKey,
    private readonly request: PageRequest,
    private readonly keep: (t: T) => boolean,
    private readonly budget: number,
  ) {
    this.scope = scopeHash(request.scope);
    const after = request.cursor !== undefined ? decodeCursor(request.cursor, this.scope) : undefined;
    // Walk one index in the page's direction; ascending starts just past the
    // cursor's key, descending just before it.
    this.step_ = request.order === "asc" ? 1 : -1;
    this.i =
      this.step_ > 0
        ? after
          ? upperBound(sortedAsc, keyOf, after)
          : 0
        : (after ? lowerBound(sortedAsc, keyOf, after) : sortedAsc.length) - 1;
  }

  step(rows: number): boolean {
    const { sortedAsc, items, request } = this;
    for (let n = 0; !this.done && n < rows; n++, this.i += this.step_) {
      if (this.i < 0 || this.i >= sortedAsc.length) {
        this.done = true;
        break;
      }
      const row = sortedAsc.at(this.i)!;
      if (this.examined++ >= this.budget) {
        // Resume from the last row looked at; it was already judged.
        // (`at` counts a negative index from the end; there is no row before the first.)
        const before = this.i - this.step_;
        this.stoppedAt = before >= 0 ? sortedAsc.at(before) : undefined;
        this.hasNext = true;
        this.done = true;
        break;
      }
      if (!this.keep(row)) continue;
      if (items.length === request.limit) {
        this.hasNext = true;
        this.done = true;
        break;
      }
      items.push(row);
    }
    return this.done;
  }

  result(): PageResult<T> {
    const last = this.stoppedAt ?? this.items[this.items.length - 1];
    return {
      items: this.items,
      hasNext: this.hasNext,
      cursor: this.hasNext && last ? encodeCursor(this.keyOf(last), this.scope) : null,
    };
  }
}
