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

export interface NegCase {
  label: string; // e.g. "name: maxLength 255 + 1"
  loc: string[]; // where the 422 must point
  /** the kind of constraint the case breaks (its provenance decides the rule a wrongly accepted case breaks) */
  kind: ConstraintKind;
  body?: unknown;
  query?: Record<string, string>;
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

function wrongValue(types: string[]): unknown | undefined {
  if (!types.includes("integer") && !types.includes("number")) return 12345;
  if (!types.includes("string")) return "not-a-number";
  if (!types.includes("object")) return { unexpected: true };
  return undefined;
}

/** Bound-crossing values for one schema node (the value, and why it is wrong). */
export function boundCases(s: JsonSchema): Array<{ why: string; value: unknown; kind: ConstraintKind }> {
  const merged = mergedOf(s);
  const types = typeOf(s);
  const out: Array<{ why: string; value: unknown; kind: ConstraintKind }> = [];
  const wrong = wrongValue(types);
  if (wrong !== undefined && types.length)
    out.push({ why: `wrong type (${types.join("|")} expected)`, value: wrong, kind: "type" });
  if (typeof merged.minLength === "number" && merged.minLength > 0)
    out.push({ why: `minLength ${merged.minLength} - 1`, value: "x".repeat(merged.minLength - 1), kind: "bounds" });
  if (typeof merged.maxLength === "number")
    out.push({ why: `maxLength ${merged.maxLength} + 1`, value: "x".repeat(merged.maxLength + 1), kind: "bounds" });
  if (typeof merged.minimum === "number")
    out.push({ why: `minimum ${merged.minimum} - 1`, value: merged.minimum - 1, kind: "bounds" });
  if (typeof merged.maximum === "number")
    out.push({ why: `maximum ${merged.maximum} + 1`, value: merged.maximum + 1, kind: "bounds" });
  if (types.includes("integer") && !types.includes("number"))
    out.push({ why: "fraction where an integer is required", value: (merged.minimum ?? 0) + 1.5, kind: "type" });
  if (Array.isArray(merged.enum)) out.push({ why: "unknown enum value", value: "zz_unknown_value", kind: "enum" });
  const maxItems = merged.maxItems;
  if (typeof maxItems === "number")
    out.push({
      why: `maxItems ${maxItems} + 1`,
      value: Array.from(
        { length: maxItems + 1 },
        () => merged.items?.enum?.[0] ?? firstOf(merged.items?.examples) ?? "x",
      ),
      kind: "bounds",
    });
  if (typeof merged.minItems === "number" && merged.minItems > 0)
    out.push({ why: `minItems ${merged.minItems} - 1`, value: [], kind: "bounds" });
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
    for (const c of boundCases(prop))
      cases.push({
        label: `${name}: ${c.why}`,
        loc: ["body", name],
        kind: c.kind,
        body: { ...example, [name]: c.value },
      });
    // one level down: nested objects (a discriminated union keeps its tag)
    const innerProps = prop.properties;
    const baseInner = example[name];
    if (innerProps && baseInner && typeof baseInner === "object") {
      for (const [sub, sp] of Object.entries(innerProps)) {
        for (const c of boundCases(sp))
          cases.push({
            label: `${name}.${sub}: ${c.why}`,
            loc: ["body", name, sub],
            kind: c.kind,
            body: { ...example, [name]: { ...baseInner, [sub]: c.value } },
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
    for (const c of itemCases(prop, example[name], ITEM_DEPTH)) {
      const label = `${name}${c.at}: ${c.why}`;
      if (seen.has(label)) continue;
      seen.add(label);
      inner.push({ label, loc: ["body", name, ...c.loc], kind: c.kind, body: { ...example, [name]: c.value } });
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
): Array<{ at: string; loc: string[]; why: string; value: unknown; kind: ConstraintKind }> {
  if (depth === 0 || !Array.isArray(value) || value.length === 0 || !s0) return [];
  const items = mergedOf(s0).items;
  if (!items) return [];
  const first: unknown = value[0];
  const put = (v: unknown) => [v, ...value.slice(1)];
  const out: Array<{ at: string; loc: string[]; why: string; value: unknown; kind: ConstraintKind }> = [];
  for (const c of boundCases(items)) out.push({ at: "[0]", loc: ["0"], why: c.why, value: put(c.value), kind: c.kind });
  for (const c of itemCases(items, first, depth - 1))
    out.push({ at: `[0]${c.at}`, loc: ["0", ...c.loc], why: c.why, value: put(c.value), kind: c.kind });
  if (first && typeof first === "object" && !Array.isArray(first)) {
    // every variant of a union item offers its fields; the example's item decides which exist
    const item = first as Example;
    const variants = [items, ...(items.anyOf ?? items.oneOf ?? [])].filter((v) => v?.properties);
    for (const variant of variants) {
      for (const [sub, sp] of Object.entries(variant.properties ?? {})) {
        if (!(sub in item)) continue;
        const field = (v: unknown) => put({ ...item, [sub]: v });
        for (const c of boundCases(sp))
          out.push({ at: `[0].${sub}`, loc: ["0", sub], why: c.why, value: field(c.value), kind: c.kind });
        for (const c of itemCases(sp, item[sub], depth - 1))
          out.push({
            at: `[0].${sub}${c.at}`,
            loc: ["0", sub, ...c.loc],
            why: c.why,
            value: field(c.value),
            kind: c.kind,
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
      (why: string, kind: ConstraintKind = "bounds") =>
      (value: unknown): NegCase => ({
        label: `${name}: ${why} (${JSON.stringify(value)?.slice(0, 40)})`,
        loc: ["body", name],
        kind,
        body: { ...example, [name]: value },
      });
    const { maxLength, maximum, minimum, enum: values } = p;
    if (typeof maxLength === "number")
      arbs.push(fc.string({ minLength: maxLength + 1, maxLength: maxLength + 64 }).map(mk(`longer than ${maxLength}`)));
    if (typeof maximum === "number")
      arbs.push(fc.integer({ min: maximum + 1, max: maximum + 1_000_000 }).map(mk(`above ${maximum}`)));
    if (typeof minimum === "number")
      arbs.push(fc.integer({ min: minimum - 1_000_000, max: minimum - 1 }).map(mk(`below ${minimum}`)));
    if (Array.isArray(values))
      arbs.push(
        fc
          .string({ minLength: 1, maxLength: 20 })
          .filter((s) => !values.includes(s))
          .map(mk("unknown enum value", "enum")),
      );
    const wrong = wrongValue(typeOf(p0));
    if (wrong !== undefined)
      arbs.push(
        fc
          .oneof(
            fc.boolean(),
            fc.array(fc.integer(), { maxLength: 3 }),
            fc.double({ noNaN: true, noDefaultInfinity: true }),
            fc.string(),
          )
          .filter((v) => !zod || !zod.safeParse({ ...example, [name]: v }).success)
          .map(mk("wrong type", "type")),
      );
  }
  if (!arbs.length) return undefined;
  const arb = fc.oneof(...arbs);
  return zod ? arb.filter((c) => !zod.safeParse(c.body).success) : arb;
}
