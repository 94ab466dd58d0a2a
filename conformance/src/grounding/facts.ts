// The facts an assertion of the kit relies on, and whether a sentence of the
// seed states them. A seed rule may assert only what its sentence says: the
// status number, the error code, the word "required" with the field, the
// number of a bound, "default" with the value, the words of an order or a
// formula. Anything else an assertion needs is a contract decision (a D- row),
// judged only at --level contract. `npm test` runs the grounding gate
// (test/grounding.test.ts), which finds each declared fact in the quoted
// sentence; the provenance gate does the same for the contract's @seed marks.

export type FactKind =
  | "status"
  | "code"
  | "required"
  | "required-here"
  | "number"
  | "default"
  | "order"
  | "formula"
  | "field"
  | "value"
  | "header"
  | "words"
  | "typed"
  | "not-null"
  | "never-null"
  | "either"
  | "min"
  | "max"
  | "format"
  | "pattern";

/** One fact: its kind, the value the sentence must carry, and for `required`/`default` the field it is about. */
export interface Fact {
  kind: FactKind;
  value: string;
  field?: string;
  /** `either`: the sentence states every fact of one of these */
  options?: Fact[][];
}

/** An HTTP status the sentence names (`409`). */
export const status = (n: number): Fact => ({ kind: "status", value: String(n) });
/** An error_code the sentence names (`tracking_agent_limit_reached`). */
export const code = (c: string): Fact => ({ kind: "code", value: c });
/** A field the sentence calls required: the word "required" and the field are both in it. */
export const required = (field: string): Fact => ({ kind: "required", value: field, field });
/**
 * A field the sentence calls required in the field's own place (its table
 * row, or its own piece of a list): `name: string 1-255, required` calls
 * `name` required, `{name, instructions}` … `name` (required) does not call
 * `instructions` required.
 */
export const requiredHere = (name: string): Fact => ({ kind: "required-here", value: name, field: name });
/** A number the sentence states (a bound, a count, a price ratio): `1000` also matches `1,000`. */
export const bound = (n: number | string): Fact => ({ kind: "number", value: String(n) });
/** A default the sentence states: the word "default" and the value (and the field, when given) are in it. */
export const byDefault = (value: number | string, field?: string): Fact => ({
  kind: "default",
  value: String(value),
  field,
});
/** An order the sentence states, in its words ("newest first", "desc", "sorted by created_at"). */
export const order = (words: string): Fact => ({ kind: "order", value: words });
/** A formula the sentence states, in its words ("Price = units times rate"). */
export const formula = (words: string): Fact => ({ kind: "formula", value: words });
/** A field or parameter the sentence names. */
export const field = (name: string): Fact => ({ kind: "field", value: name });
/** A literal value the sentence names (an enum member, a state, a prefix). */
export const value = (v: string): Fact => ({ kind: "value", value: v });
/** A header the sentence names. */
export const header = (name: string): Fact => ({ kind: "header", value: name });
/** Any other words of the sentence the assertion relies on (quoted as they stand, backticks aside). */
export const words = (phrase: string): Fact => ({ kind: "words", value: phrase });

/**
 * A field whose JSON type (`string`, `integer`, `number`, `boolean`, `array`,
 * `object`, or `items:<type>` for the items of an array field) the sentence gives beside it: in its table row, or in its own
 * comma- or semicolon-separated piece (see `segmentsOf`).
 */
export const typed = (name: string, type: string): Fact => ({ kind: "typed", value: type, field: name });
/** As `typed`, and the field's piece does not say it may be null ("string or null", "can be null"). */
export const notNull = (name: string, type: string): Fact => ({ kind: "not-null", value: type, field: name });
/** The sentence states every fact of one of the options (two ways the seed may state one thing). */
export const either = (...options: Fact[][]): Fact => ({ kind: "either", value: "", options });
/** The sentence never says the value may be null (for a value known by its enumerated words). */
export const neverNull = (): Fact => ({ kind: "never-null", value: "" });
/** A lower bound the sentence states: the number, and not only as the upper end of a range (`1-5` states 1, not 5). */
export const lowerBound = (n: number | string): Fact => ({ kind: "min", value: String(n) });
/** An upper bound the sentence states: the number, and not only as the lower end of a range. */
export const upperBound = (n: number | string): Fact => ({ kind: "max", value: String(n) });
/** A value format (`date-time`, `date`…) the sentence names in its own words (FORMAT_WORDS). */
export const formatWord = (format: string): Fact => ({ kind: "format", value: format });
/** A pattern of the contract the sentence names in its own words (PATTERN_WORDS). */
export const patternWord = (pattern: string): Fact => ({ kind: "pattern", value: pattern });

/** Whitespace flattened, backticks and emphasis dropped: how the seed's words are compared. */
export function plain(s: string): string {
  return s.replace(/[`*]/g, "").replace(/\s+/g, " ").trim();
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `token` stands in `text` on its own: not inside a longer identifier or number. */
function hasToken(text: string, token: string, chars = "A-Za-z0-9_"): boolean {
  return new RegExp(`(^|[^${chars}])${escape(token)}(?![${chars}])`, "i").test(text);
}

/** A number as the seed may print it: 1000, 1,000; a leading sign or unit aside. */
function hasNumber(text: string, n: string): boolean {
  const forms = new Set([n]);
  if (/^\d{4,}$/.test(n)) forms.add(Number(n).toLocaleString("en-US"));
  return [...forms].some((f) => new RegExp(`(^|[^0-9.,])${escape(f)}(?![0-9]|[.,][0-9])`).test(text));
}

const hasPhrase = (text: string, phrase: string) => text.toLowerCase().includes(plain(phrase).toLowerCase());

/** The value stands shortly after the word "default" (`default 200`, `defaults 10 (resources), 20 (mentions)`). */
function hasDefault(text: string, value: string): boolean {
  for (const m of text.matchAll(/\bdefaults?\b/gi)) {
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 60);
    if (hasNumber(after, value) || hasToken(after, value)) return true;
  }
  return false;
}

// ---- types, formats and patterns: the seed's words for them -------------------------

/**
 * The words that give a JSON type. A date or time notation is a string's; a
 * bracket after a name (`posts[]`, `loc: [string]`) an array's, a brace an
 * object's. `string[]` is an array, never a string.
 */
const TYPE_WORDS: Array<{ type: string; re: RegExp }> = [
  { type: "array", re: /\b(?:arrays?|list of)\b|\w\[\]|\{[^{}]*\}\[\]|\[|\b(?:up to |at most )?\d+(?:-\d+)? of\b/gi },
  { type: "object", re: /\b(?:objects?|map|resource|union|envelope|media)\b|\{/gi },
  { type: "string", re: /\bstrings?\b|ISO 8601|YYYY-MM-DD|HH:MM|\b\d+-\d+ char(?:acter)?s\b/gi },
  { type: "integer", re: /\bintegers?\b|\bUnix seconds\b/gi },
  { type: "number", re: /\bnumbers?\b/gi },
  { type: "boolean", re: /\b(?:booleans?|true|false)\b/gi },
];

/** The seed's words for each value format the contract uses (a format without an entry is never stated). */
export const FORMAT_WORDS: Record<string, RegExp> = {
  "date-time": /ISO 8601/,
  date: /YYYY-MM-DD/,
  uri: /\b(?:URL|URLs|link)\b/,
};

/** The seed's words for each pattern the contract uses (a pattern without an entry is never stated). */
export const PATTERN_WORDS: Record<string, RegExp> = {
  "^\\d{4}-\\d{2}-\\d{2}$": /YYYY-MM-DD/,
  "^([01][0-9]|2[0-3]):[0-5][0-9]$": /24-hour HH:MM/,
  "^[A-Z]{2}$": /ISO 3166-1 alpha-2/,
  "^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$": /BCP-47/,
  "^\\d+\\.\\d{6}$": /six-decimal/,
  "^\\S+( \\S+)?$": /at most 2 words/,
};

/** The type a piece of text gives first (array for `string[]`: the longer word wins at one place). */
function firstType(text: string): string | undefined {
  let best: { at: number; len: number; type: string } | undefined;
  for (const { type, re } of TYPE_WORDS)
    for (const m of text.matchAll(re)) {
      const len = m[0].length + (type === "array" && m[0].length === 2 ? 100 : 0);
      if (!best || m.index < best.at || (m.index === best.at && len > best.len)) best = { at: m.index, len, type };
    }
  if (best) {
    // `string[]`: the name of the item type is followed by a bracket pair
    const arr = /^\w+\[\]/.exec(text.slice(best.at));
    if (arr) return "array";
  }
  return best?.type;
}

const OPEN = "([{";
const CLOSE = ")]}";

/** The piece of `text` around `[from, to)`: out to the nearest `,`, `;` or `|` of the same depth, or the enclosing bracket. */
function pieceAround(text: string, from: number, to: number): { start: number; end: number } {
  let start = from;
  for (let depth = 0; start > 0; start--) {
    const ch = text[start - 1]!;
    if (CLOSE.includes(ch)) depth++;
    else if (OPEN.includes(ch)) {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && (ch === "," || ch === ";" || ch === "|" || (ch === "." && text[start] === " "))) break;
  }
  let end = to;
  for (let depth = 0; end < text.length; end++) {
    const ch = text[end]!;
    if (OPEN.includes(ch)) depth++;
    else if (CLOSE.includes(ch)) {
      if (depth === 0) break;
      depth--;
    } else if (
      depth === 0 &&
      (ch === "," || ch === ";" || ch === "|" || (ch === "." && /^\.(\s|$)/.test(text.slice(end))))
    )
      break;
  }
  return { start, end };
}

/** A piece that annotates the field before it rather than naming another one. */
const CONTINUES = /^\s*(?:required|optional|default\b|at most|up to|\d)/i;
/** A piece that is only a name (`created_at`, `dataset_ids[]`, `text?`), perhaps after a label ("Chat: `id`"). */
const bareName = (piece: string) => /^\s*(?:[^:]*:\s*)?[A-Za-z_][\w.]*(?:\[\])?\??\s*$/.test(piece);
/** A piece that is a name with its annotation: `comment_count (integers)`. */
const annotatedName = (piece: string) => /^\s*[A-Za-z_][\w.]*(?:\[\])?\??\s*\(/.test(piece);
/** A list opened by a type word: `booleans: api_access, audience_research`. */
const typeLabel = /^\s*(?:arrays?|objects?|strings?|integers?|numbers?|booleans?)\s*:/i;

/** The table row (`| … | … |`) whose first cell holds position `at`, if `at` is in one. */
function rowOf(t: string, at: number): string | undefined {
  const cellStart = t.lastIndexOf("|", at);
  if (cellStart < 0) return undefined;
  const before = t.slice(0, cellStart).trimEnd();
  if (before !== "" && !before.endsWith("|")) return undefined;
  // the row ends at a bar followed by the next row's bar, or at the end
  const next = /\|(?=\s*\||\s*$)/g;
  next.lastIndex = at;
  const m = next.exec(t);
  return t.slice(cellStart, m ? m.index + 1 : t.length);
}

/** The names the sentence may call a field by: itself, and "Ids" for an id. */
function namesOf(name: string): string[] {
  return /(^|_)id$/.test(name) ? [name, "Ids", "ids"] : [name];
}

/**
 * The seed's Timestamps convention, one clause per encoding: "Datasets, …,
 * audience runs: ISO 8601 UTC string." and "Custom parameters …, `/v1/me`:
 * integer Unix seconds." A clause quoted on its own types the timestamps
 * (`…_at`) of the resources it lists; the mark's author picks the clause of
 * the element's resource, as with "Ids are opaque strings.".
 */
const TIMESTAMP_CLAUSE = /:\s*(integer Unix seconds|ISO 8601 UTC string)\.?\s*$/;

/**
 * The text that speaks of a field, once per place the sentence names it: in
 * a table row whose first cell names it, the row; otherwise its own piece of
 * a comma- or semicolon-separated list (brackets kept whole), extended over
 * the seed's two list idioms: a run of bare names closed by one annotation
 * (`a`, `b` (integers)) and a list opened by a type (`booleans: a, b`).
 */
export function segmentsOf(sentence: string, name: string): string[] {
  return placesOf(sentence, name).map((p) => p.segment);
}

/** Each place the sentence speaks of a field: its segment, the text after the name in it, and the type label of its list. */
function placesOf(sentence: string, name: string): Array<{ segment: string; after: string; label?: string }> {
  const t = plain(sentence);
  const out: Array<{ segment: string; after: string; label?: string }> = [];
  const clause = /_at$/.test(name) ? TIMESTAMP_CLAUSE.exec(t) : null;
  if (clause && !t.includes("|")) out.push({ segment: t, after: clause[1]! });
  for (const alias of namesOf(name))
    for (const m of t.matchAll(new RegExp(`(^|[^A-Za-z0-9_])(${escape(alias)})(?![A-Za-z0-9_])`, "g"))) {
      const at = m.index + m[1]!.length;
      const end = at + alias.length;
      // a table row whose first cell names the field: the cells after it speak of it
      const row = rowOf(t, at);
      if (row) {
        // `| members[] | …`: a bracket pair after the name in its cell makes it an array
        const list = t.slice(end, end + 2) === "[]" ? "[] " : "";
        out.push({ segment: row, after: list + row.replace(/^\|[^|]*\|/, "|") });
        continue;
      }
      const p = pieceAround(t, at, end);
      // `name: string 1-255, required`: a piece that opens with an annotation word belongs to the field before it
      for (
        let more = pieceAround(t, p.end + 1, p.end + 1);
        t[p.end] === "," && CONTINUES.test(t.slice(p.end + 1, more.end));
        more = pieceAround(t, p.end + 1, p.end + 1)
      )
        p.end = more.end;
      let piece = t.slice(p.start, p.end);
      // `a`, `b` (integers): a bare name takes the annotation that closes its run of names
      if (bareName(piece)) {
        let q = p.end;
        while (q < t.length && (t[q] === "," || t[q] === ";")) {
          const next = pieceAround(t, q + 1, q + 1);
          const text = t.slice(q + 1, next.end);
          if (annotatedName(text)) {
            // only a plural type (`(integers)`) or the list's last item speaks for the names before it
            const last = next.end >= t.length || /^[.|]/.test(t.slice(next.end));
            if (last || /\b(?:integers|strings|booleans|numbers)\b/i.test(text))
              piece += "," + text.slice(text.indexOf("("));
            break;
          }
          if (!bareName(text) || t[q] === ";") break;
          q = next.end;
        }
      }
      // `{from, to}` dates (YYYY-MM-DD): the words after a group of bare names type each of them
      if (bareName(piece)) {
        let close = p.end;
        for (let q = p.end; t[q] === "," || (t[q] === " " && t[q - 1] === ",");) {
          const next = pieceAround(t, q + 1, q + 1);
          if (!bareName(t.slice(q + 1, next.end))) break;
          close = next.end;
          q = next.end;
        }
        if ((t[close] === "}" && t[p.start - 1] === "{") || t[close] === "}") {
          const tail = /^\}\s+([A-Za-z(][^|,;]*)/.exec(t.slice(close));
          if (tail) piece += " " + tail[1];
        }
      }
      // booleans: a, b: the label that opens the list applies to each item
      let s = p.start;
      while (s > 0 && t[s - 1] === ",") s = pieceAround(t, s - 1, s - 1).start;
      const label = (typeLabel.exec(t.slice(s, p.start)) ?? typeLabel.exec(piece))?.[0];
      out.push({
        segment: label && !piece.startsWith(label) ? `${label} ${piece}` : piece,
        after: piece.slice(end - p.start),
        label,
      });
    }
  return out;
}

/** The type of an array's items as the words give it: `[string]`, `array of string`, `string[]`, `array of {text}`. */
function itemType(text: string): string | undefined {
  const glued = /^\W*(\w+)\[\]/.exec(text);
  if (glued) return firstType(glued[1]!);
  const m = /\[|\b(?:array|list) of\b/i.exec(text);
  return m ? firstType(text.slice(m.index + m[0].length)) : undefined;
}

/** The field's type as the sentence gives it beside the field, and whether that place lets it be null. */
function typedIn(sentence: string, name: string, type: string, nonNull: boolean): boolean {
  return placesOf(sentence, name).some((p) => {
    const given = type.startsWith("items:")
      ? itemType(p.after)
      : (firstType(p.after) ?? (p.label ? firstType(p.label) : undefined));
    if (type.startsWith("items:")) type = type.slice("items:".length);
    if (given !== type) return false;
    // `has_next` (boolean) and `cursor` (string or null): the null is the next field's
    const own = p.after.split(/\)\s+and\s+/)[0]!;
    return !nonNull || !/\bnull\b/i.test(p.label ? own : own);
  });
}

/** A bound's number as the sentence states it, not only as the other end of a range (`1-5`: 1 is a minimum, 5 a maximum). */
function hasBound(text: string, n: string, side: "min" | "max"): boolean {
  if (!hasNumber(text, n)) return false;
  const forms = [n, ...(/^\d{4,}$/.test(n) ? [Number(n).toLocaleString("en-US")] : [])].map(escape);
  const num = `(?:${forms.join("|")})`;
  const all = [...text.matchAll(new RegExp(`(^|[^0-9.,])${num}(?![0-9]|[.,][0-9])`, "g"))];
  return all.some((m) => {
    const at = m.index + m[1]!.length;
    const len = m[0].length - m[1]!.length;
    const before = text.slice(Math.max(0, at - 1), at);
    const after = text.slice(at + len, at + len + 1);
    // the lower end of `a-b` is no maximum; the upper end no minimum
    if (side === "max" && after === "-" && /\d/.test(text[at + len + 1] ?? "")) return false;
    if (side === "min" && before === "-" && /\d/.test(text[at - 2] ?? "")) return false;
    return true;
  });
}

/** Whether the sentence (already plain or not) states the fact. */
export function factIn(sentence: string, f: Fact): boolean {
  const t = plain(sentence);
  switch (f.kind) {
    case "status":
      return hasNumber(t, f.value);
    case "number":
      return hasNumber(t, f.value);
    case "code":
    case "value":
    case "field":
      return hasToken(t, f.value);
    case "header":
      return hasToken(t, f.value, "A-Za-z0-9_-");
    case "required":
      return /\brequired\b/i.test(t) && hasToken(t, f.value);
    case "required-here":
      // a union tagged on a field needs the tag: "tagged union on `type`"
      if (new RegExp(`tagged union on ${escape(f.value)}\\b`).test(t)) return true;
      return placesOf(t, f.value).some((p) => /\brequired\b/i.test(p.after) && !/\boptional\b/i.test(p.after));
    case "default":
      return hasDefault(t, f.value) && (!f.field || hasToken(t, f.field));
    case "order":
    case "formula":
    case "words":
      return hasPhrase(t, f.value);
    case "typed":
      return typedIn(t, f.field ?? "", f.value, false);
    case "not-null":
      return typedIn(t, f.field ?? "", f.value, true);
    case "never-null":
      return !/\bnull\b/i.test(t);
    case "either":
      return (f.options ?? []).some((o) => o.every((x) => factIn(t, x)));
    case "min":
    case "max":
      return hasBound(t, f.value, f.kind);
    case "format":
      return !!FORMAT_WORDS[f.value]?.test(t);
    case "pattern":
      return !!PATTERN_WORDS[f.value]?.test(t);
  }
}

/** The fact in a few words, for reports and gate messages. */
export function describeFact(f: Fact): string {
  switch (f.kind) {
    case "required":
    case "required-here":
      return `${f.value} required`;
    case "default":
      return `default ${f.field ? `${f.field} ` : ""}${f.value}`;
    case "words":
      return `"${f.value}"`;
    case "typed":
      return `${f.field} ${f.value}`;
    case "not-null":
      return `${f.field} ${f.value}, not null`;
    case "never-null":
      return "never null";
    case "either":
      return (f.options ?? []).map((o) => o.map(describeFact).join(" + ")).join(" or ");
    case "min":
      return `at least ${f.value}`;
    case "max":
      return `at most ${f.value}`;
    default:
      return `${f.kind} ${f.value}`;
  }
}
