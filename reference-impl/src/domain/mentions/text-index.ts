// Full-text index of the mention pool (D-REF-SEARCH-COST): which
// posts contain which terms, and nothing else. Every caller of `q` only wants
// the set of matching posts, never a score, so the index keeps no term
// frequencies and no field lengths (MiniSearch kept a Map<doc, frequency> per
// term and field: 1.3 GB at 1M mentions).
//
// MiniSearch still does what it is made for: its tokenizer splits the text
// exactly as before, and its radix tree (SearchableMap) is the vocabulary,
// answering prefix and fuzzy look-ups. Each term's value in that tree is its
// postings: the ascending numbers of the documents that contain it.
import MiniSearch from "minisearch";
import SearchableMap from "minisearch/SearchableMap";

/** Distinct terms a semantic query searches at most (D-REF-SEARCH-COST). */
export const MAX_QUERY_TERMS = 8;

export type SearchMode = "semantic" | "keyword";

const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];

/** Terms of a text as MiniSearch's default tokenize + processTerm give them (lower case, no empty term). */
export function termsOf(text: string): string[] {
  return tokenize(text)
    .map((t) => t.toLowerCase())
    .filter((t) => t !== "");
}

/**
 * The terms one query searches, each once (D-REF-SEARCH-COST): the semantic
 * (OR) mode drops one-letter terms ("a", "i" match nearly every post and
 * mean nothing in an OR) and keeps at most MAX_QUERY_TERMS; the keyword
 * (AND) mode keeps every distinct term.
 */
export function queryTerms(q: string, mode: SearchMode): string[] {
  const distinct = [...new Set(termsOf(q))];
  return mode === "semantic" ? distinct.filter((t) => t.length >= 2).slice(0, MAX_QUERY_TERMS) : distinct;
}

/** A semantic term also matches the terms it begins (from 3 characters: a shorter prefix walks most of the vocabulary). */
export function expandsByPrefix(term: string): boolean {
  return term.length >= 3;
}

/**
 * Edits a semantic term may be away from a matching term: MiniSearch's rule
 * for `fuzzy: 0.2, maxFuzzy: 2` (min(2, round(0.2 × length))), applied to
 * terms of 4-24 characters only (a long fuzzy term walks the whole
 * vocabulary); 0 means no fuzzy matching.
 */
export function fuzzyDistance(term: string): number {
  if (term.length < 4 || term.length > 24) return 0;
  return Math.min(2, Math.round(term.length * 0.2));
}

/** A document knows its number: the order it was added in. */
export interface Numbered {
  readonly doc: number;
}

/** Up to this many documents a term's postings are a plain array of numbers. */
const SMALL_POSTINGS = 32;

/**
 * Postings of a frequent term: the gaps between successive document numbers
 * as variable-length integers (7 bits a byte), so a term found in most posts
 * costs about one byte a post instead of four (a Uint32Array) or a Map entry.
 */
class PackedPostings {
  bytes: Uint8Array;
  used = 0;
  last = 0;

  constructor(docs: readonly number[]) {
    this.bytes = new Uint8Array(docs.length * 2 + 16);
    for (const d of docs) this.push(d);
  }

  push(doc: number): void {
    let gap = doc - this.last;
    this.last = doc;
    if (this.used + 5 > this.bytes.length) {
      // Grow by half: doubling would leave a quarter of the bytes empty on average.
      const grown = new Uint8Array(Math.ceil(this.bytes.length * 1.5) + 16);
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    while (gap >= 0x80) {
      this.bytes[this.used++] = (gap & 0x7f) | 0x80;
      gap >>>= 7;
    }
    this.bytes[this.used++] = gap;
  }

  forEach(visit: (doc: number) => void): void {
    const { bytes, used } = this;
    let doc = 0;
    let i = 0;
    while (i < used) {
      let gap = 0;
      let shift = 0;
      let b: number;
      do {
        b = bytes[i++]!;
        gap += (b & 0x7f) * 2 ** shift;
        shift += 7;
      } while (b & 0x80);
      doc += gap;
      visit(doc);
    }
  }
}

/**
 * One term's documents, ascending: a bare number for a term seen in one
 * document (most of the vocabulary: user names, typos), an exactly sized
 * array up to SMALL_POSTINGS, then packed gaps.
 */
type Postings = number | number[] | PackedPostings;

function lastDoc(p: Postings): number {
  return typeof p === "number" ? p : Array.isArray(p) ? p[p.length - 1]! : p.last;
}

function forEachDoc(p: Postings, visit: (doc: number) => void): void {
  if (typeof p === "number") visit(p);
  else if (Array.isArray(p)) for (const d of p) visit(d);
  else p.forEach(visit);
}

function docsOf(p: Postings): readonly number[] {
  if (typeof p === "number") return [p];
  if (Array.isArray(p)) return p;
  const out: number[] = [];
  p.forEach((d) => out.push(d));
  return out;
}

/** Sorted intersection of two ascending lists. */
function intersect(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out.push(a[i]!);
      i++;
      j++;
    }
  }
  return out;
}

/**
 * The posts a query matched: one byte per document number of the index at
 * search time, so membership is an array read and no set of a million keys
 * is built for a broad query. Iterates in document order.
 */
export class TextHits<T extends Numbered> {
  constructor(
    private readonly marks: Uint8Array,
    readonly size: number,
    private readonly records: readonly T[],
  ) {}

  /** Whether a document matched (one added after the search never has). */
  has(record: T): boolean {
    return this.marks[record.doc] === 1;
  }

  *[Symbol.iterator](): Iterator<T> {
    const { marks, records } = this;
    for (let d = 0; d < marks.length; d++) if (marks[d] === 1) yield records[d]!;
  }
}

/** One search under way: the terms still to match and what matched so far. */
class Matching {
  private readonly marks: Uint8Array;
  private size = 0;
  /** Keyword mode: the documents holding every term so far (undefined before the first); read only, it may be a term's own postings array. */
  private common: readonly number[] | undefined;
  private next = 0;

  constructor(
    documents: number,
    private readonly vocabulary: SearchableMap<Postings>,
    private readonly terms: readonly string[],
    private readonly mode: SearchMode,
  ) {
    this.marks = new Uint8Array(documents);
  }

  /** Whether a term is left to match (keyword mode stops once nothing is common). */
  get pending(): boolean {
    return this.next < this.terms.length && !(this.common !== undefined && this.common.length === 0);
  }

  /** Match the next term. */
  step(): void {
    const term = this.terms[this.next++]!;
    if (this.mode === "keyword") {
      const p = this.vocabulary.get(term);
      const docs = p === undefined ? [] : docsOf(p);
      this.common = this.common === undefined ? docs : intersect(this.common, docs);
      return;
    }
    // Semantic: the exact term, every term it begins, every term within the
    // fuzzy distance, as MiniSearch's prefix and fuzzy options match them.
    const mark = (doc: number) => {
      if (this.marks[doc] === 0) {
        this.marks[doc] = 1;
        this.size++;
      }
    };
    const exact = this.vocabulary.get(term);
    if (exact !== undefined) forEachDoc(exact, mark);
    const prefix = expandsByPrefix(term);
    if (prefix) for (const [t, p] of this.vocabulary.atPrefix(term)) if (t !== term) forEachDoc(p, mark);
    const distance = fuzzyDistance(term);
    if (distance > 0) {
      for (const [t, [p]] of this.vocabulary.fuzzyGet(term, distance)) {
        if (t !== term && !(prefix && t.startsWith(term))) forEachDoc(p, mark);
      }
    }
  }

  result<T extends Numbered>(records: readonly T[]): TextHits<T> {
    if (this.mode === "keyword") {
      for (const d of this.common ?? []) this.marks[d] = 1;
      return new TextHits(this.marks, this.common?.length ?? 0, records);
    }
    return new TextHits(this.marks, this.size, records);
  }
}

/**
 * Inverted index over documents numbered in the order they are added. The
 * caller gives each document's field texts; a document adds each distinct
 * term once, whatever the field.
 */
export class TextIndex<T extends Numbered> {
  private readonly vocabulary = new SearchableMap<Postings>();
  private readonly records: T[] = [];
  private postingCount = 0;

  /** Documents indexed; the next one added gets this number. */
  get size(): number {
    return this.records.length;
  }

  /** Distinct terms indexed (walks the vocabulary: for the bench and tests). */
  get terms(): number {
    return this.vocabulary.size;
  }

  /** (term, document) pairs stored: each document counts each distinct term once. */
  get postings(): number {
    return this.postingCount;
  }

  /** Add the next document (its `doc` must be `size`: documents come in order). */
  add(record: T, fields: readonly (string | null | undefined)[]): void {
    const doc = this.records.length;
    if (record.doc !== doc) throw new Error(`text index: document ${record.doc} added as number ${doc}`);
    this.records.push(record);
    for (const text of fields) {
      if (text == null) continue;
      for (const term of termsOf(text)) {
        const p = this.vocabulary.get(term);
        // Documents arrive in ascending order, so a term this document
        // already added ends its postings.
        if (p !== undefined && lastDoc(p) === doc) continue;
        this.postingCount++;
        if (p === undefined) this.vocabulary.set(term, doc);
        else if (typeof p === "number") this.vocabulary.set(term, [p, doc]);
        else if (Array.isArray(p))
          this.vocabulary.set(term, p.length < SMALL_POSTINGS ? [...p, doc] : new PackedPostings([...p, doc]));
        else p.push(doc);
      }
    }
  }

  /**
   * Documents matching a query: semantic = OR over the query terms, each
   * widened by prefix and fuzzy matching; keyword = AND over exact terms.
   */
  search(q: string, mode: SearchMode): TextHits<T> {
    const matching = this.matching(q, mode);
    while (matching.pending) matching.step();
    return matching.result(this.records);
  }

  /** The same documents as `search`, with an event-loop turn after each term. */
  async searchSliced(q: string, mode: SearchMode): Promise<TextHits<T>> {
    const matching = this.matching(q, mode);
    while (matching.pending) {
      matching.step();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return matching.result(this.records);
  }

  private matching(q: string, mode: SearchMode): Matching {
    return new Matching(this.records.length, this.vocabulary, queryTerms(q, mode), mode);
  }
}
