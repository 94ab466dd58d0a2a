// The facts an assertion of the kit relies on, and whether a sentence of the
// seed states them. A seed rule may assert only what its sentence says: the
// status number, the error code, the word "required" with the field, the
// number of a bound, "default" with the value, the words of an order or a
// formula. Anything else an assertion needs is a contract decision (a D- row),
// judged only at --level contract. `npm test` runs the grounding gate
// (test/grounding.test.ts), which finds each declared fact in the quoted
// sentence; the provenance gate does the same for the contract's @seed marks.

export type FactKind =
  "status" | "code" | "required" | "number" | "default" | "order" | "formula" | "field" | "value" | "header" | "words";

/** One fact: its kind, the value the sentence must carry, and for `required`/`default` the field it is about. */
export interface Fact {
  kind: FactKind;
  value: string;
  field?: string;
}

/** An HTTP status the sentence names (`409`). */
export const status = (n: number): Fact => ({ kind: "status", value: String(n) });
/** An error_code the sentence names (`tracking_agent_limit_reached`). */
export const code = (c: string): Fact => ({ kind: "code", value: c });
/** A field the sentence calls required: the word "required" and the field are both in it. */
export const required = (field: string): Fact => ({ kind: "required", value: field, field });
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
    case "default":
      return hasDefault(t, f.value) && (!f.field || hasToken(t, f.field));
    case "order":
    case "formula":
    case "words":
      return hasPhrase(t, f.value);
  }
}

/** The fact in a few words, for reports and gate messages. */
export function describeFact(f: Fact): string {
  switch (f.kind) {
    case "required":
      return `${f.value} required`;
    case "default":
      return `default ${f.field ? `${f.field} ` : ""}${f.value}`;
    case "words":
      return `"${f.value}"`;
    default:
      return `${f.kind} ${f.value}`;
  }
}
