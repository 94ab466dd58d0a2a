// Negative and positive data derived from the contract: the request-body JSON
// Schema gives the bounds to cross, the generated zod of the body is the oracle
// that a case really is invalid (or valid).
import fc from "fast-check";
import type { ZodType } from "zod";
import type { Contract, JsonSchema, Operation } from "../../contract.ts";
import type { ConstraintKind } from "../../provenance.ts";

/** A node with the non-null alternatives of its anyOf / oneOf folded in (a nullable bound keeps its bound). */
const mergedOf = (s: JsonSchema): JsonSchema => ({
  ...s,
  ...(Object.assign({}, ...(s.anyOf ?? s.oneOf ?? []).filter((a) => a.type !== "null")) as JsonSchema),
});

/** The first of a keyword's values when it holds a list (`examples`), else undefined. */
const firstOf = (v: unknown): unknown => (Array.isArray(v) ? v[0] : undefined);

/** A JSON object the example body holds (its fields are spread into the cases). */
type Example = Record<string, unknown>;
const isExample = (v: unknown): v is Example => typeof v === "object" && v !== null && !Array.isArray(v);

export interface NegCase {
  label: string; // e.g. "name: maxLength 255 + 1"
  loc: string[]; // where the 422 must point
  /** the kind of constraint the case breaks (its provenance decides the rule a wrongly accepted case breaks) */
  kind: ConstraintKind;
  body?: unknown;
  query?: Record<string, string>;
  /** which end of a bound the case crosses (a mark may state only one end) */
  end?: "min" | "max";
  /**
   * A rule no single schema constraint holds (a total across groups, a pair of
   * fields), stated by the seed: the assertion of invalid-request-rejected that
   * names its ledger row (SEED_CASE_RULES). A deployment that accepts the case
   * breaks it (and, with `strict`, one that refuses it with a status other than 422).
   */
  seed?: { judges: SeedCaseRule; strict?: boolean };
}

const typeOf = (s: JsonSchema): string[] => {
  if (Array.isArray(s.type)) return s.type;
  if (typeof s.type === "string") return [s.type];
  const alts = s.anyOf ?? s.oneOf;
  if (Array.isArray(alts)) return alts.flatMap(typeOf);
  if (s.enum) return [...new Set(s.enum.map((v) => (v === null ? "null" : typeof v)))];
  if (s.properties) return ["object"];
  return [];
};

/** The JSON type of a value as a schema names it (`integer` for a whole number). */
function jsonTypeOf(v: unknown): string {
  if (Array.isArray(v)) return "array";
  if (v === null) return "null";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function wrongValue(types: string[]): unknown | undefined {
  if (!types.includes("integer") && !types.includes("number")) return 12345;
  if (!types.includes("string")) return "not-a-number";
  if (!types.includes("object")) return { unexpected: true };
  return undefined;
}

/**
 * Item i of an over-long array built from the example's first item: copies,
 * made distinct where the item is an object with an `id` or a `url`, so that
 * only the count is wrong (not an item's type, nor a repeated item).
 */
function copyOf(item: unknown, i: number): unknown {
  if (i === 0 || !item || typeof item !== "object" || Array.isArray(item)) return item;
  const o = item as Example;
  if (typeof o.id === "string") return { ...o, id: `${o.id}${i}` };
  if (typeof o.url === "string") return { ...o, url: `${o.url}${o.url.includes("?") ? "&" : "?"}kit=${i}` };
  return o;
}

/**
 * Bound-crossing values for one schema node (the value, and why it is wrong).
 * `example` is the node's value in the example body: an array's maxItems + 1
 * case repeats its first item.
 */
export function boundCases(
  s: JsonSchema,
  example?: unknown,
): Array<{ why: string; value: unknown; kind: ConstraintKind; end?: "min" | "max" }> {
  const merged = mergedOf(s);
  const types = typeOf(s);
  const out: Array<{ why: string; value: unknown; kind: ConstraintKind; end?: "min" | "max" }> = [];
  const wrong = wrongValue(types);
  if (wrong !== undefined && types.length)
    out.push({ why: `wrong type (${types.join("|")} expected)`, value: wrong, kind: "type" });
  if (typeof merged.minLength === "number" && merged.minLength > 0)
    out.push({
      why: `minLength ${merged.minLength} - 1`,
      value: "x".repeat(merged.minLength - 1),
      kind: "bounds",
      end: "min",
    });
  if (typeof merged.maxLength === "number")
    out.push({
      why: `maxLength ${merged.maxLength} + 1`,
      value: "x".repeat(merged.maxLength + 1),
      kind: "bounds",
      end: "max",
    });
  if (typeof merged.minimum === "number")
    out.push({ why: `minimum ${merged.minimum} - 1`, value: merged.minimum - 1, kind: "bounds", end: "min" });
  if (typeof merged.maximum === "number")
    out.push({ why: `maximum ${merged.maximum} + 1`, value: merged.maximum + 1, kind: "bounds", end: "max" });
  if (types.includes("integer") && !types.includes("number"))
    out.push({ why: "fraction where an integer is required", value: (merged.minimum ?? 0) + 1.5, kind: "type" });
  if (Array.isArray(merged.enum)) out.push({ why: "unknown enum value", value: "zz_unknown_value", kind: "enum" });
  const maxItems = merged.maxItems;
  if (typeof maxItems === "number")
    out.push({
      why: `maxItems ${maxItems} + 1`,
      value: Array.from({ length: maxItems + 1 }, (_, i) =>
        Array.isArray(example) && example.length > 0
          ? copyOf(example[0], i)
          : (merged.items?.enum?.[0] ?? firstOf(merged.items?.examples) ?? "x"),
      ),
      kind: "bounds",
      end: "max",
    });
  if (typeof merged.minItems === "number" && merged.minItems > 0)
    out.push({ why: `minItems ${merged.minItems} - 1`, value: [], kind: "bounds", end: "min" });
  if (typeof merged.pattern === "string")
    out.push({ why: `does not match ${merged.pattern}`, value: "~~invalid~~", kind: "pattern" });
  return out;
}

/** Every deterministic negative case of an operation's JSON body, each confirmed invalid by the generated zod. */
export function bodyCases(contract: Contract, op: Operation): NegCase[] {
  const schema = op.bodySchema;
  const base = op.bodyExamples[0];
  const zod: ZodType | undefined = op.bodyRef ? contract.zodOf(op.bodyRef) : undefined;
  if (!schema || !schema.properties || typeof base !== "object" || base === null) return [];
  const example = base as Example;
  const cases: NegCase[] = [];
  const required: string[] = schema.required ?? [];
  for (const [name, prop] of Object.entries(schema.properties)) {
    if (prop.readOnly) continue;
    if (required.includes(name)) {
      const body = { ...example };
      delete body[name];
      cases.push({ label: `${name}: missing required field`, loc: ["body", name], kind: "required", body });
    }
    for (const c of boundCases(prop, example[name]))
      cases.push({
        label: `${name}: ${c.why}`,
        loc: ["body", name],
        kind: c.kind,
        end: c.end,
        body: { ...example, [name]: c.value },
      });
    // one level down: nested objects (a discriminated union keeps its tag)
    const innerProps = prop.properties;
    const baseInner = example[name];
    if (innerProps && baseInner && typeof baseInner === "object") {
      for (const [sub, sp] of Object.entries(innerProps)) {
        for (const c of boundCases(sp, (baseInner as Example)[sub]))
          cases.push({
            label: `${name}.${sub}: ${c.why}`,
            loc: ["body", name, sub],
            kind: c.kind,
            end: c.end,
            body: { ...example, [name]: { ...baseInner, [sub]: c.value } },
          });
      }
    }
    // one level down a tagged union (a search_query is `prompt` or `url`): each
    // variant from the first example body holding it, its fields crossed and,
    // when required, left out (the tag itself is never touched)
    for (const variant of (prop.oneOf ?? prop.anyOf ?? []).filter((v) => v.properties)) {
      const tag = firstOf(variant.properties?.type?.enum);
      const src = op.bodyExamples.find(
        (e): e is Example =>
          isExample(e) && isExample(e[name]) && (tag === undefined || (e[name] as Example).type === tag),
      );
      if (!src) continue;
      const tagged = src[name] as Example;
      const at = tag === undefined ? name : `${name}(${String(tag)})`;
      for (const [sub, sp] of Object.entries(variant.properties ?? {})) {
        if (sub === "type") continue;
        if (variant.required?.includes(sub)) {
          const rest = { ...tagged };
          delete rest[sub];
          cases.push({
            label: `${at}.${sub}: missing required field`,
            loc: ["body", name, sub],
            kind: "required",
            body: { ...src, [name]: rest },
          });
        }
        for (const c of boundCases(sp, tagged[sub]))
          cases.push({
            label: `${at}.${sub}: ${c.why}`,
            loc: ["body", name, sub],
            kind: c.kind,
            end: c.end,
            body: { ...src, [name]: { ...tagged, [sub]: c.value } },
          });
      }
    }
  }
  // Inside arrays (D-BOUND-STRINGS, D-BOUND-ARRAYS): the first item of each
  // array the example holds, its fields, and arrays within, a few levels down
  // (filter groups hold filters that hold `values`).
  const inner: NegCase[] = [];
  const seen = new Set<string>();
  for (const [name, prop] of Object.entries(schema.properties)) {
    if (prop.readOnly) continue;
    // an array of enum values the example leaves out is swept from one valid value (an unknown value inside it)
    const enumItem = firstOf(mergedOf(prop).items?.enum);
    const value = example[name] ?? (enumItem !== undefined && prop.items ? [enumItem] : undefined);
    for (const c of itemCases(prop, value, ITEM_DEPTH)) {
      const label = `${name}${c.at}: ${c.why}`;
      if (seen.has(label)) continue;
      seen.add(label);
      inner.push({
        label,
        loc: ["body", name, ...c.loc],
        kind: c.kind,
        end: c.end,
        body: { ...example, [name]: c.value },
      });
    }
  }
  // The contract is the oracle: keep only bodies the generated zod rejects.
  // Inside arrays the oracle also says where the body breaks (a union item is
  // refused as a whole, not at the field), and the case points there.
  if (!zod) return [...cases, ...inner];
  const out = cases.filter((c) => !zod.safeParse(c.body).success);
  for (const c of inner) {
    const r = zod.safeParse(c.body);
    if (!r.success)
      out.push({
        ...c,
        loc: closestLoc(
          c.loc,
          r.error.issues.map((i) => ["body", ...i.path.map(String)]),
        ),
      });
  }
  return out;
}

/** How deep into nested arrays the sweep goes. */
const ITEM_DEPTH = 3;

/** Bound-crossing cases inside the first item of an array value: the item, its fields, and arrays within them. */
function itemCases(
  s0: JsonSchema | undefined,
  value: unknown,
  depth: number,
): Array<{ at: string; loc: string[]; why: string; value: unknown; kind: ConstraintKind; end?: "min" | "max" }> {
  if (depth === 0 || !Array.isArray(value) || value.length === 0 || !s0) return [];
  const items = mergedOf(s0).items;
  if (!items) return [];
  const first: unknown = value[0];
  const put = (v: unknown) => [v, ...value.slice(1)];
  const out: Array<{
    at: string;
    loc: string[];
    why: string;
    value: unknown;
    kind: ConstraintKind;
    end?: "min" | "max";
  }> = [];
  for (const c of boundCases(items, first))
    out.push({ at: "[0]", loc: ["0"], why: c.why, value: put(c.value), kind: c.kind, end: c.end });
  for (const c of itemCases(items, first, depth - 1))
    out.push({ at: `[0]${c.at}`, loc: ["0", ...c.loc], why: c.why, value: put(c.value), kind: c.kind, end: c.end });
  if (first && typeof first === "object" && !Array.isArray(first)) {
    // every variant of a union item offers its fields; the example's item decides which exist
    const item = first as Example;
    const variants = [items, ...(items.anyOf ?? items.oneOf ?? [])].filter((v) => v?.properties);
    for (const variant of variants) {
      for (const [sub, sp] of Object.entries(variant.properties ?? {})) {
        if (!(sub in item)) continue;
        const field = (v: unknown) => put({ ...item, [sub]: v });
        for (const c of boundCases(sp))
          out.push({ at: `[0].${sub}`, loc: ["0", sub], why: c.why, value: field(c.value), kind: c.kind, end: c.end });
        for (const c of itemCases(sp, item[sub], depth - 1))
          out.push({
            at: `[0].${sub}${c.at}`,
            loc: ["0", sub, ...c.loc],
            why: c.why,
            value: field(c.value),
            kind: c.kind,
            end: c.end,
          });
      }
    }
  }
  return out;
}

/** Of the oracle's issue paths, the one sharing the longest prefix with the intended loc (the intended loc if none). */
function closestLoc(intended: string[], issues: string[][]): string[] {
  let best: string[] | undefined;
  let bestLen = -1;
  for (const loc of issues) {
    let n = 0;
    while (n < loc.length && n < intended.length && loc[n] === intended[n]) n++;
    if (n > bestLen) {
      best = loc;
      bestLen = n;
    }
  }
  return best ?? intended;
}

/**
 * The rules `seedCases` sends, by the name of the assertion of
 * invalid-request-rejected that judges each (its ledger row holds the seed's
 * words and the facts it asserts).
 */
export const SEED_CASE_RULES = [
  "mentionFilters",
  "profileFilters",
  "keyword",
  "window",
  "country",
  "metricOperator",
] as const;
export type SeedCaseRule = (typeof SEED_CASE_RULES)[number];

/** `YYYY-MM-DD` of the day `days` before today (UTC). */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** Eleven keyword filters over two groups (six and five): each group valid, the total over the seed's 10. */
const elevenKeywordFilters = (operator: string) => {
  const f = (i: number) => ({ type: "keyword", operator, value: `word${i}` });
  return [Array.from({ length: 6 }, (_, i) => f(i)), Array.from({ length: 5 }, (_, i) => f(i + 6))];
};

/**
 * Cases for rules the seed states that no single schema constraint holds (the
 * sweep cannot build them from one bound): a filter total across groups, a
 * keyword of three words past the example's first filter, a prompt preview's
 * one time window. Each is a case only while the oracle says the body is wrong
 * in that one respect: the total case's groups each pass the generated zod
 * (the total is not a JSON Schema bound), the other cases fail it.
 */
export function seedCases(contract: Contract, op: Operation): NegCase[] {
  const zod = op.bodyRef ? contract.zodOf(op.bodyRef) : undefined;
  const valid = (b: unknown) => !zod || zod.safeParse(b).success;
  const out: NegCase[] = [];
  if (op.operationId === "Mentions_search" || op.operationId === "AudienceProfiles_search") {
    const mentions = op.operationId === "Mentions_search";
    const judges: SeedCaseRule = mentions ? "mentionFilters" : "profileFilters";
    const body = { filters: elevenKeywordFilters("is") };
    // the groups alone are valid: only the total (6 + 5 = 11) is wrong
    if (valid({ filters: [body.filters[0]] }) && valid({ filters: [body.filters[1]] }))
      out.push({
        label: "filters: 11 filters in total (groups of 6 and 5)",
        loc: ["body", "filters"],
        kind: "bounds",
        body,
        seed: { judges },
      });
    if (mentions) {
      // a lowercase country and an operator outside the four: refused whatever shape a deployment gives the rest
      const lower = { filters: [[{ type: "country_code", values: ["us"] }]] };
      if (!valid(lower) && valid({ filters: [[{ type: "country_code", values: ["US"] }]] }))
        out.push({
          label: "filters[0][0].values[0]: a lowercase country code",
          loc: ["body", "filters", "0", "0", "values", "0"],
          kind: "pattern",
          body: lower,
          seed: { judges: "country" },
        });
      for (const operator of ["zz_unknown_operator", { type: "zz_unknown_operator" }]) {
        const odd = { filters: [[{ type: "metric_change", metric: "likes", operator }]] };
        if (!valid(odd))
          out.push({
            label: `filters[0][0].operator: ${typeof operator === "string" ? "a string" : "an object"} naming no operator of the four`,
            loc: ["body", "filters", "0", "0", "operator"],
            kind: "enum",
            body: odd,
            seed: { judges: "metricOperator" },
          });
      }
      const three = { filters: [[{ type: "keyword", operator: "is", value: "three word keyword" }]] };
      if (!valid(three) && valid({ filters: [[{ type: "keyword", operator: "is", value: "two words" }]] }))
        out.push({
          label: "filters[0][0].value: a keyword of three words",
          loc: ["body", "filters", "0", "0", "value"],
          kind: "pattern",
          body: three,
          seed: { judges: "keyword" },
        });
    }
  }
  if (op.operationId === "ResearchPreviews_create") {
    const rel = op.bodyExamples.find(
      (e): e is Example => isExample(e) && e.type === "prompt" && typeof e.time_filter === "string",
    );
    if (rel) {
      const { time_filter: _tf, ...none } = rel;
      const since = daysAgo(30);
      const until = daysAgo(1);
      const windows: Array<[string, Example]> = [
        ["both a time_filter and a date pair", { ...rel, date_since: since, date_until: until }],
        ["neither a time_filter nor a date pair", none],
        ["an incomplete pair (date_since alone)", { ...none, date_since: since }],
      ];
      // the absolute pair alone is a valid body: each case breaks the one-window rule only
      if (valid({ ...none, date_since: since, date_until: until }))
        for (const [what, body] of windows)
          if (!valid(body))
            out.push({
              label: `prompt preview with ${what}`,
              loc: ["body"],
              kind: "required",
              body,
              seed: { judges: "window", strict: true },
            });
    }
  }
  return out;
}

export function queryCases(op: Operation): NegCase[] {
  const out: NegCase[] = [];
  for (const p of op.params.filter((x) => x.in === "query")) {
    const types = typeOf(p.schema);
    for (const c of boundCases(p.schema)) {
      if (typeof c.value === "object") continue;
      if (c.why.startsWith("wrong type") && (types.includes("string") || types.length === 0)) continue; // every query value is a string
      if (c.why.startsWith("does not match")) continue;
      out.push({
        label: `query ${p.name}: ${c.why}`,
        loc: ["query", p.name],
        kind: c.kind,
        end: c.end,
        query: { [p.name]: String(c.value) },
      });
    }
  }
  return out;
}

/** A random bound-crossing case on top of the deterministic sweep: lengths and numbers beyond the limits. */
export function randomBodyCase(contract: Contract, op: Operation): fc.Arbitrary<NegCase> | undefined {
  const schema = op.bodySchema;
  const base = op.bodyExamples[0];
  const zod = op.bodyRef ? contract.zodOf(op.bodyRef) : undefined;
  if (!schema?.properties || typeof base !== "object" || base === null) return undefined;
  const example = base as Example;
  const arbs: fc.Arbitrary<NegCase>[] = [];
  for (const [name, p0] of Object.entries(schema.properties)) {
    const p = mergedOf(p0);
    const mk =
      (why: string, kind: ConstraintKind = "bounds", end?: "min" | "max") =>
      (value: unknown): NegCase => ({
        label: `${name}: ${why} (${JSON.stringify(value)?.slice(0, 40)})`,
        loc: ["body", name],
        kind,
        end,
        body: { ...example, [name]: value },
      });
    const { maxLength, maximum, minimum, enum: values } = p;
    if (typeof maxLength === "number")
      arbs.push(
        fc
          .string({ minLength: maxLength + 1, maxLength: maxLength + 64 })
          .map(mk(`longer than ${maxLength}`, "bounds", "max")),
      );
    if (typeof maximum === "number")
      arbs.push(
        fc.integer({ min: maximum + 1, max: maximum + 1_000_000 }).map(mk(`above ${maximum}`, "bounds", "max")),
      );
    if (typeof minimum === "number")
      arbs.push(
        fc.integer({ min: minimum - 1_000_000, max: minimum - 1 }).map(mk(`below ${minimum}`, "bounds", "min")),
      );
    if (Array.isArray(values))
      arbs.push(
        fc
          .string({ minLength: 1, maxLength: 20 })
          .filter((s) => !values.includes(s))
          .map(mk("unknown enum value", "enum")),
      );
    const types = typeOf(p0);
    const wrong = wrongValue(types);
    if (wrong !== undefined)
      arbs.push(
        fc
          .oneof(
            fc.boolean(),
            fc.array(fc.integer(), { maxLength: 3 }),
            fc.double({ noNaN: true, noDefaultInfinity: true }),
            fc.string(),
          )
          // a value of the field's own JSON type breaks another constraint (an enum, a bound), not the type
          .filter((v) => !types.includes(jsonTypeOf(v)) && !(jsonTypeOf(v) === "integer" && types.includes("number")))
          .filter((v) => !zod || !zod.safeParse({ ...example, [name]: v }).success)
          .map(mk("wrong type", "type")),
      );
  }
  if (!arbs.length) return undefined;
  const arb = fc.oneof(...arbs);
  return zod ? arb.filter((c) => !zod.safeParse(c.body).success) : arb;
}
