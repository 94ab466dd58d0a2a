// The seed's own sentences that state a rule: the extractor splits the seed
// (spec/seed.txt) into units, one per table row and one per sentence of
// prose, and marks in each the words that make a rule (a default, a bound, an
// "only", a status code, an error code, never/always, a charge word). Each
// such marker must sit inside the quote of a ledger row (rules.ts) or of an
// ignore entry (ignored.ts), so a rule added to the seed cannot be missed
// silently: the ledger's test fails on the first marker no quote covers.

/** Whitespace runs become one space: quotes and units are compared in this form. */
export function flat(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

export interface SeedUnit {
  /** the unit as the seed says it, whitespace flattened */
  text: string;
  /** where it starts in flat(seed) */
  at: number;
  /** the seed section it belongs to (the nearest headings) */
  section: string;
  kind: "table-row" | "sentence";
}

export interface Marker {
  /** the marker as found */
  text: string;
  /** which marker family (default, bound, only, status, error-code, …) */
  family: string;
  /** where it is in flat(seed) */
  at: number;
}

/** Splits a line of prose into sentences (not after "e.g." or a list number). */
function sentences(line: string): string[] {
  const body = line.replace(/^\s*(?:\d+\.|-)\s+/, "");
  return body
    .split(/(?<=(?<!\be\.g)[.!?])\s+(?=[A-Z`({[])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The seed as units: table rows (not headers or separators) and prose sentences, in order. */
export function unitsOf(seed: string): SeedUnit[] {
  const whole = flat(seed);
  const lines = seed.split("\n");
  const out: SeedUnit[] = [];
  const headings: string[] = [];
  let from = 0;
  const push = (raw: string, kind: SeedUnit["kind"]) => {
    const text = flat(raw);
    if (!text) return;
    const at = whole.indexOf(text, from);
    if (at < 0) throw new Error(`seed unit not found in order: ${text}`);
    from = at + text.length;
    out.push({ text, at, section: headings.filter(Boolean).join(" › "), kind });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const h = /^(#+)\s+(.*)$/.exec(line);
    if (h) {
      const level = h[1].length;
      headings.length = Math.max(0, level - 1);
      headings[level - 1] = h[2].trim();
      continue;
    }
    if (line.startsWith("|")) {
      const separator = /^\|[-|\s:]+\|$/.test(line.trim());
      const header = i + 1 < lines.length && /^\|[-|\s:]+\|$/.test(lines[i + 1].trim());
      if (!separator && !header) push(line, "table-row");
      continue;
    }
    for (const s of sentences(line)) push(s, "sentence");
  }
  return out;
}

/** Backticked names of the Errors section that are fields of the error body, not codes. */
const ERROR_BODY_FIELDS = new Set(["error_code", "retry_after_seconds", "top_up_url"]);

/** The error codes the seed names in its Errors section (backticked snake_case there, the body's fields aside). */
export function errorCodesOf(seed: string): string[] {
  const start = seed.indexOf("\n## Errors");
  if (start < 0) throw new Error("the seed has no Errors section");
  const end = seed.indexOf("\n## ", start + 1);
  const section = seed.slice(start, end < 0 ? undefined : end);
  const codes = [...section.matchAll(/`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`/g)].map((m) => m[1]);
  return [...new Set(codes)].filter((c) => !ERROR_BODY_FIELDS.has(c));
}

/** The rule markers: each family's pattern. */
export const MARKERS: Array<{ family: string; pattern: RegExp }> = [
  { family: "default", pattern: /\bdefaults?\b/gi },
  { family: "bound", pattern: /\b(?:at most|at least|up to|exactly one|no more than|must not exceed)\b/gi },
  { family: "bound", pattern: /\b\d+(?:\.\d+)?-\d+\b(?!-)/g },
  { family: "only", pattern: /\bonly\b/gi },
  { family: "must", pattern: /\b(?:must|required)\b/gi },
  { family: "status", pattern: /\b[1-5](?:\d\d|xx)\b(?![-.]\d)/g },
  { family: "never/always", pattern: /\b(?:never|always)\b/gi },
  { family: "charge", pattern: /\b(?:refund(?:s|ed)?|reserv(?:ed|ation)|charged?|charges|free)\b/gi },
];

/**
 * Every marker of a unit: the patterns above, the backticked error codes of
 * the seed, and whole table rows that are rules by their place: each row of an
 * endpoint table (its method and path, or its tool name) and each row of a
 * state table (its first cell, the state it leaves).
 */
export function markersOf(unit: SeedUnit, codes: string[]): Marker[] {
  const out: Marker[] = [];
  for (const { family, pattern } of MARKERS)
    for (const m of unit.text.matchAll(pattern)) out.push({ text: m[0], family, at: unit.at + m.index });
  for (const m of unit.text.matchAll(/`([a-z][a-z0-9_]*)`/g))
    if (codes.includes(m[1])) out.push({ text: m[0], family: "error-code", at: unit.at + m.index });
  if (unit.kind === "table-row") {
    const endpoint = /^\| ((?:GET|POST|PUT|PATCH|DELETE) \/\S+|svc__\w+) \|/.exec(unit.text);
    if (endpoint) out.push({ text: endpoint[0], family: "endpoint", at: unit.at });
    const state = /^\| [^|]+ \|/.exec(unit.text);
    if (state && unit.section.includes("States and transitions"))
      out.push({ text: state[0], family: "transition", at: unit.at });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** Every place a quote occurs in the flattened seed, as [start, end). */
export function spansOf(whole: string, quote: string): Array<[number, number]> {
  const q = flat(quote);
  const out: Array<[number, number]> = [];
  if (!q) return out;
  for (let at = whole.indexOf(q); at >= 0; at = whole.indexOf(q, at + 1)) out.push([at, at + q.length]);
  return out;
}

/** A marker of the seed that no quote covers, with the unit it stands in. */
export interface MissedMarker {
  marker: Marker;
  unit: SeedUnit;
}

/** The markers of the seed that lie outside every span of the given quotes (ledger rows, their `also`, ignore entries). */
export function missedMarkers(seed: string, quotes: string[]): MissedMarker[] {
  const whole = flat(seed);
  const codes = errorCodesOf(seed);
  const spans = quotes.flatMap((q) => spansOf(whole, q));
  const covered = (m: Marker) => spans.some(([a, b]) => a <= m.at && m.at + m.text.length <= b);
  return unitsOf(seed).flatMap((unit) =>
    markersOf(unit, codes)
      .filter((m) => !covered(m))
      .map((marker) => ({ marker, unit })),
  );
}

/**
 * Where each row's quote stands in the flattened seed: the first occurrence
 * at or after the previous row's (so rows read in the seed's order and a
 * quote repeated in the seed resolves to the place the row means). A quote
 * not found there is reported, with whether it occurs earlier (out of order).
 */
export function locate(seed: string, quotes: string[]): { at: number[]; problems: string[] } {
  const whole = flat(seed);
  const at: number[] = [];
  const problems: string[] = [];
  let from = 0;
  quotes.forEach((quote, i) => {
    const q = flat(quote);
    const pos = whole.indexOf(q, from);
    if (pos < 0) {
      problems.push(
        whole.includes(q)
          ? `row ${i} is out of the seed's order (its quote stands before the previous row's): ${quote}`
          : `row ${i}'s quote is not in the seed: ${quote}`,
      );
      at.push(-1);
      return;
    }
    at.push(pos);
    from = pos;
  });
  return { at, problems };
}
