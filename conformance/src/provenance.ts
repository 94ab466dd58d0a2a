// Provenance of every constraint of the contract: whether the seed states it
// (a quote) or the contract decided it (a D- row of spec/DECISIONS.md). The
// marks are authored in TypeSpec (`@seed`, `@decided`, spec/common/provenance.tsp)
// and reach the kit as the `x-provenance` extension of the generated OpenAPI
// document, next to the schema they explain; nothing here is kept by hand.
//
// A constraint is found by walking a schema along a path (the path of a zod
// issue, or of a field a negative case broke). Its provenance is the first
// mark that covers its kind, looked for in this order:
//   required   the property, then the model that owns it;
//   nullable   the property, the owning model, then the property's type;
//   type       the property, its type (scalar, enum, union, model), the owning model;
//   value kinds (format, pattern, bounds, enum)  the property, then its type.
// A decision on a model covers everything inside it that has no mark of its
// own; a seed mark on a model covers only the structural kinds (required,
// type, nullable), because quoting a resource's field list does not state its
// formats or bounds. Number widths (int32, double…) are never stated by the
// seed: they are D-NUMBER-WIDTH wherever they appear.
import type { JsonSchema, OpenApiDocument, OperationObject, ParameterObject } from "./openapi.ts";
import {
  code as codeFact,
  either,
  plain,
  status as statusFact,
  factIn,
  field as named,
  formatWord,
  lowerBound,
  neverNull,
  notNull,
  patternWord,
  requiredHere,
  typed,
  upperBound,
  value as valueFact,
  type Fact,
} from "./grounding/facts.ts";

export const CONSTRAINT_KINDS = ["required", "type", "nullable", "format", "pattern", "bounds", "enum"] as const;
export type ConstraintKind = (typeof CONSTRAINT_KINDS)[number];

const STRUCTURAL = new Set<ConstraintKind>(["required", "type", "nullable"]);
const WIDTH_FORMATS = new Set([
  "int8",
  "int16",
  "int32",
  "int64",
  "uint8",
  "uint16",
  "uint32",
  "float",
  "double",
  "double-int",
]);
export const NUMBER_WIDTH_DECISION = "D-NUMBER-WIDTH";

/** One authored mark, as the decorators write it. */
interface Mark {
  seed?: string;
  decision?: string;
  /** constraint kinds, plus `min`/`max` for one end of a bound */
  kinds?: string[];
}

export type Provenance = { kind: "seed"; quote: string } | { kind: "decision"; decision: string };

/** A constraint found in the contract, with the rule it states (undefined: nothing marks it). */
export interface Constraint {
  /** `Mentions.MentionAuthor.headline_url` (the owning component and the property path below it) */
  element: string;
  kind: ConstraintKind;
  /** what the constraint demands, e.g. `format uri`, `maxLength 255`, `one of pending, working` */
  demand: string;
  provenance?: Provenance;
  /** the property or parameter the constraint is about (its name as the seed would write it) */
  field?: string;
  /** the JSON type of the constrained value (type and nullable constraints) */
  type?: string;
  /** the bound's keyword and number, the enum's values, the format or pattern: what its facts are made of */
  detail?: { bound?: [BoundKeyword, number]; values?: unknown[]; format?: string; pattern?: string };
  /** whether the element belongs to a request (body or parameter) or only to responses; the gate reads it for `required` */
  side?: "request" | "response";
  /**
   * the `error_code` of an error body: its type and values are judged per
   * operation (errorCodeProvenance), never by the model's own mark, because
   * one error model serves operations the seed gives the code and others it
   * does not
   */
  perOperation?: true;
  /** the component that declares the element (parameters have none) */
  component?: string;
}

type BoundKeyword =
  "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "minLength" | "maxLength" | "minItems" | "maxItems";

/**
 * The facts a seed quote must state for the constraint to be the seed's
 * (scripts/provenance-gate.ts grounds every @seed mark with them, through the
 * same matcher as the kit's assertions, grounding/facts.ts): a required field
 * of a request is called required; a response field is named; a type is
 * given beside its field (and a non-null one without "or null"); every enum
 * value is named; a bound's number stands as that end of the range; a format
 * or pattern is named in the seed's words for it.
 */
export function factsOf(c: Constraint): Fact[] {
  const name = c.field ?? c.element.split(/[. ]/).at(-1) ?? c.element;
  switch (c.kind) {
    case "required":
      return [c.side === "request" ? requiredHere(name) : named(name)];
    // a value the seed prints as a bare word (`client_error`, `pending`) is a string: naming every value gives the type
    case "type":
      // an item of an array field: the words give the item type (`loc: [string]`)
      if (c.element.endsWith("[]")) return [typed(name, `items:${c.type ?? "object"}`)];
      return c.type === "string" && c.detail?.values?.length
        ? [
            either(
              c.detail.values.map((v) => valueFact(String(v))),
              [typed(name, "string")],
            ),
          ]
        : [typed(name, c.type ?? "object")];
    case "nullable":
      return c.type === "string" && c.detail?.values?.length
        ? [either([...c.detail.values.map((v) => valueFact(String(v))), neverNull()], [notNull(name, "string")])]
        : [notNull(name, c.type ?? "object")];
    case "format":
      return [formatWord(c.detail?.format ?? "")];
    case "pattern":
      return [patternWord(c.detail?.pattern ?? "")];
    case "bounds": {
      const [k, n] = c.detail?.bound ?? ["maximum", NaN];
      return [/^(min|exclusiveMin)/.test(k) ? lowerBound(n) : upperBound(n)];
    }
    case "enum":
      return (c.detail?.values ?? []).map((v) => valueFact(String(v)));
  }
}

/** Whether a bound keyword is a lower one (a mark of kind `min` covers these, `max` the others). */
export const isLowerBound = (k: string) => /^(min|exclusiveMin)/.test(k);

/** A component with its marks, as the walk meets it. */
interface Level {
  name: string;
  marks: Mark[];
  /** a seed mark of a model covers the structural kinds only; of a scalar, enum or union, every kind */
  model: boolean;
}

/** Where a walk stands: the property it reached and the schemas that hold its constraints. */
export interface Place {
  element: string;
  /** marks on the property itself (siblings of its `$ref`) */
  property: Mark[];
  /** the components the property's type passes through, outermost first */
  types: Level[];
  /** the models that own the property, nearest first */
  owners: Level[];
  /** the property's schema with every `$ref` followed (its constraints) */
  node: JsonSchema;
  /** whether the owning object lists the property as required */
  required: boolean;
  /** whether null is one of the property's alternatives */
  nullable: boolean;
  /** the name of the property or parameter reached (undefined at a root) */
  field?: string;
  /** whether the property belongs to a request (body or parameter): its `required` must be called so */
  side?: "request" | "response";
}

const marksOf = (n: unknown): Mark[] =>
  n && typeof n === "object" && Array.isArray((n as Record<string, unknown>)["x-provenance"])
    ? ((n as Record<string, unknown>)["x-provenance"] as Mark[])
    : [];

/**
 * Whether a mark's kinds name a constraint: `bounds` names both ends, `min`
 * and `max` one end each (a quote that states only a maximum must not claim
 * the minimum).
 */
function names(kinds: string[], kind: ConstraintKind, end?: "min" | "max"): boolean {
  return kinds.includes(kind) || (kind === "bounds" && !!end && kinds.includes(end));
}

/** What one level's marks say of a constraint: a decision, a seed quote that states it, or quotes that cover it without stating it. */
interface Covered {
  decision?: Provenance;
  grounded?: Provenance;
  ungrounded?: Provenance;
}

function covering(
  marks: Mark[],
  c: Constraint,
  seedCoversAll: boolean,
  end: "min" | "max" | undefined,
  decisionsOnly = false,
): Covered {
  const d = marks.find((m) => m.decision && (!m.kinds || names(m.kinds, c.kind, end)));
  if (d?.decision) return { decision: { kind: "decision", decision: d.decision } };
  if (decisionsOnly) return {};
  const seeds = marks.filter(
    (m) => m.seed && (m.kinds ? names(m.kinds, c.kind, end) : seedCoversAll || STRUCTURAL.has(c.kind)),
  );
  const facts = factsOf(c);
  const stating = seeds.find((m) => facts.every((f) => factIn(m.seed!, f)));
  return {
    grounded: stating ? { kind: "seed", quote: stating.seed! } : undefined,
    ungrounded: seeds[0] ? { kind: "seed", quote: seeds[0].seed! } : undefined,
  };
}

/**
 * The rule one kind of constraint at a place states (`end`: which end of a
 * bound, for marks that name only one).
 */
export function provenanceAt(place: Place, kind: ConstraintKind, end?: "min" | "max"): Provenance | undefined {
  const c =
    bareConstraints(place).find((x) => x.kind === kind && (kind !== "bounds" || !end || endOf(x) === end)) ??
    ({ element: place.element, kind, demand: kind, field: place.field, side: place.side } satisfies Constraint);
  return resolve(place, c);
}

const endOf = (c: Constraint): "min" | "max" | undefined =>
  c.detail?.bound ? (isLowerBound(c.detail.bound[0]) ? "min" : "max") : undefined;

/**
 * The provenance of one constraint: looked for level by level (the property,
 * then its type or owner as the kind orders them); at each level a decision
 * naming the kind wins, then a seed mark whose quote states the constraint's
 * facts. A level whose seed marks cover the kind without stating it passes
 * the search on; when no level states it, the first such quote is the
 * provenance, and the gate fails it.
 */
function resolve(place: Place, c: Constraint): Provenance | undefined {
  const kind = c.kind;
  const end = endOf(c);
  if (kind === "format" && place.node.format && WIDTH_FORMATS.has(place.node.format))
    return { kind: "decision", decision: NUMBER_WIDTH_DECISION };
  const own = () => covering(place.property, c, true, end);
  const types = () => place.types.map((t) => covering(t.marks, c, !t.model, end));
  const owner = () => (place.owners[0] ? [covering(place.owners[0].marks, c, false, end)] : []);
  const order =
    kind === "required"
      ? [own, owner]
      : kind === "nullable"
        ? [own, owner, types]
        : kind === "type"
          ? [own, types, owner]
          : [own, types];
  let fallback: Provenance | undefined;
  for (const step of order)
    for (const level of ([] as Covered[]).concat(step())) {
      if (level.decision) return level.decision;
      if (level.grounded) return level.grounded;
      fallback ??= level.ungrounded;
    }
  // a decision on any enclosing model covers what nothing nearer marks
  for (const o of place.owners) {
    const d = covering(o.marks, c, false, end, true).decision;
    if (d) return d;
  }
  return fallback;
}

/** Walks schemas of one document. */
export class ProvenanceMap {
  constructor(private readonly doc: OpenApiDocument) {}

  private component(ref: string): { name: string; schema: JsonSchema } {
    const name = ref.replace("#/components/schemas/", "");
    return { name, schema: this.doc.components?.schemas?.[name] ?? {} };
  }

  /** Follow `$ref`s and pick the alternative of a union the value belongs to, collecting the components passed. */
  private expand(node: JsonSchema, value: unknown, types: Level[], guard = 0): { node: JsonSchema; nullable: boolean } {
    let n = node;
    let nullable = false;
    for (let i = 0; i < 20 + guard; i++) {
      if (n.$ref) {
        const c = this.component(n.$ref);
        types.push({ name: c.name, marks: marksOf(c.schema), model: isModel(c.schema) });
        n = c.schema;
        continue;
      }
      const alts = n.anyOf ?? n.oneOf;
      if (Array.isArray(alts)) {
        if (alts.some((a) => a.type === "null")) nullable = true;
        const branch = this.branch(n, alts, value);
        if (!branch) break;
        n = branch;
        continue;
      }
      break;
    }
    return { node: n, nullable };
  }

  private branch(union: JsonSchema, alts: JsonSchema[], value: unknown): JsonSchema | undefined {
    const candidates = alts.filter((a) => a.type !== "null");
    if (value === null && candidates.length < alts.length) return undefined;
    const disc = union.discriminator?.propertyName;
    if (disc && isRecord(value)) {
      const hit = candidates.find((a) => {
        const p = this.propertyOf(this.deref(a), disc);
        return p && (this.deref(p).enum?.includes(value[disc]) || this.deref(p).const === value[disc]);
      });
      if (hit) return hit;
    }
    return candidates.find((a) => typeFits(this.deref(a), value)) ?? candidates[0];
  }

  private deref(n: JsonSchema): JsonSchema {
    let out = n;
    for (let i = 0; out.$ref && i < 20; i++) out = this.component(out.$ref).schema;
    return out;
  }

  /** The property schema of an object (own properties, then allOf parts), with the component that declares it. */
  private propertyOf(node: JsonSchema, key: string): JsonSchema | undefined {
    return this.declaring(node, key)?.prop;
  }

  private declaring(
    node: JsonSchema,
    key: string,
    name?: string,
  ): { prop: JsonSchema; owner?: string; ownerSchema: JsonSchema } | undefined {
    if (node.properties && key in node.properties)
      return { prop: node.properties[key]!, owner: name, ownerSchema: node };
    for (const part of node.allOf ?? []) {
      const c = part.$ref ? this.component(part.$ref) : { name, schema: part };
      const hit = this.declaring(c.schema, key, c.name);
      if (hit) return hit;
    }
    return undefined;
  }

  /**
   * The place a path reaches from a root schema (`root` is a `$ref` or an
   * inline schema), reading the body alongside to pick union branches.
   * Undefined when the path leaves the schema.
   */
  placeOf(root: JsonSchema, path: ReadonlyArray<PropertyKey>, body: unknown, rootName = "(body)"): Place | undefined {
    let place: Place = {
      element: rootName,
      property: [],
      types: [],
      owners: [],
      node: root,
      required: true,
      nullable: false,
    };
    let value = body;
    let current = this.expand(root, value, place.types);
    place = { ...place, node: current.node, nullable: current.nullable };
    let ownerName = place.types.at(-1)?.name ?? rootName;
    for (const seg of path) {
      const node = current.node;
      const next = isRecord(value) || Array.isArray(value) ? (value as Record<PropertyKey, unknown>)[seg] : undefined;
      if (typeof seg === "string" && (node.properties || node.allOf)) {
        const hit = this.declaring(node, seg, ownerName);
        if (!hit) return undefined;
        const owner: Level = {
          name: hit.owner ?? ownerName,
          marks: hit.owner && hit.owner !== ownerName ? marksOf(hit.ownerSchema) : ownerMarks(place),
          model: true,
        };
        const types: Level[] = [];
        current = this.expand(hit.prop, next, types);
        place = {
          element: `${owner.name}.${seg}`,
          field: seg,
          side: this.requests().has(owner.name) ? "request" : "response",
          property: marksOf(hit.prop),
          types,
          owners: [owner, ...place.owners.filter((o) => o.name !== owner.name)],
          node: current.node,
          required: (hit.ownerSchema.required ?? []).includes(seg),
          nullable: current.nullable,
        };
        ownerName = types.at(-1)?.name ?? `${owner.name}.${seg}`;
      } else if (typeof seg === "number" && node.items) {
        current = this.expand(node.items, next, place.types);
        place = { ...place, element: place.element + "[]", node: current.node, nullable: current.nullable };
        ownerName = place.types.at(-1)?.name ?? place.element;
      } else if (
        typeof seg === "string" &&
        node.additionalProperties &&
        typeof node.additionalProperties === "object"
      ) {
        current = this.expand(node.additionalProperties, next, place.types);
        place = { ...place, element: place.element + "{}", node: current.node, nullable: current.nullable };
        ownerName = place.types.at(-1)?.name ?? place.element;
      } else return undefined;
      value = next;
    }
    return place;
  }

  /** The place of a parameter (its own marks, then its schema's), and the path below it for an array item. */
  placeOfParameter(param: ParameterObject, element: string): Place {
    const p = this.derefParameter(param);
    const types: Level[] = [];
    const schema = p.schema ?? {};
    const current = this.expand(schema, undefined, types);
    return {
      element,
      field: p.name,
      side: "request",
      property: [...marksOf(p), ...marksOf(schema)],
      types,
      owners: [],
      node: current.node,
      required: !!p.required && p.in !== "path",
      nullable: current.nullable,
    };
  }

  private derefParameter(param: ParameterObject): ParameterObject {
    const ref = param.$ref;
    if (!ref) return param;
    return this.doc.components?.parameters?.[ref.replace("#/components/parameters/", "")] ?? param;
  }

  /** Every parameter of every operation, once each (shared component parameters under their component name). */
  private *parameterPlaces(): Generator<Place> {
    const seen = new Set<string>();
    for (const item of Object.values(this.doc.paths ?? {}))
      for (const [method, op] of Object.entries(item)) {
        if (!op || typeof op !== "object" || !("responses" in op)) continue;
        const o = op as OperationObject;
        for (const param of [...(item.parameters ?? []), ...(o.parameters ?? [])]) {
          const p = this.derefParameter(param);
          const element = param.$ref
            ? param.$ref.replace("#/components/parameters/", "")
            : `${o.operationId ?? method} ${p.in} ${p.name}`;
          if (seen.has(element)) continue;
          seen.add(element);
          yield this.placeOfParameter(param, element);
        }
      }
  }

  /** The components these roots reach. */
  reachable(roots: JsonSchema[]): Set<string> {
    const out = new Set<string>();
    const visit = (n: unknown): void => {
      if (Array.isArray(n)) return n.forEach(visit);
      if (!n || typeof n !== "object") return;
      const node = n as JsonSchema;
      if (node.$ref?.startsWith("#/components/schemas/")) {
        const name = node.$ref.slice("#/components/schemas/".length);
        if (out.has(name)) return;
        out.add(name);
        visit(this.doc.components?.schemas?.[name]);
      }
      for (const [k, v] of Object.entries(node))
        if (k !== "x-provenance" && k !== "examples" && typeof v === "object") visit(v);
    };
    roots.forEach(visit);
    return out;
  }

  /** Every property of every component, with the constraints it carries (for the gate and the reports). */
  *constraints(): Generator<Constraint> {
    const requests = this.requests();
    const errorBodies = this.errorBodies();
    for (const [name, schema] of Object.entries(this.doc.components?.schemas ?? {})) {
      if (schema.properties) {
        for (const key of Object.keys(schema.properties)) {
          const place = this.placeOf({ $ref: `#/components/schemas/${name}` }, [key], undefined, name);
          if (!place) continue;
          const perOperation = key === "error_code" && errorBodies.has(name);
          yield* constraintsAt(place).map((c) =>
            perOperation && c.kind !== "required"
              ? { ...c, component: name, perOperation: true as const }
              : { ...c, component: name },
          );
        }
      } else if (!isModel(schema) && !schema.allOf) {
        const place = this.placeOf({ $ref: `#/components/schemas/${name}` }, [], undefined, name);
        if (place)
          yield* constraintsAt(place)
            .filter((c) => c.kind !== "required" && c.kind !== "nullable" && c.kind !== "type")
            .map((c) => ({
              ...c,
              component: name,
              side: requests.has(name) ? ("request" as const) : ("response" as const),
            }));
      }
    }
    for (const place of this.parameterPlaces()) yield* constraintsAt(place);
  }

  /** The components an error status (4xx, 5xx) answers with, directly or as a branch of its union. */
  errorBodies(): Set<string> {
    const out = new Set<string>();
    const add = (n: JsonSchema | undefined, depth = 0): void => {
      if (!n || depth > 5) return;
      if (n.$ref?.startsWith("#/components/schemas/")) {
        const name = n.$ref.slice("#/components/schemas/".length);
        out.add(name);
        add(this.doc.components?.schemas?.[name], depth + 1);
      }
      for (const a of [...(n.anyOf ?? []), ...(n.oneOf ?? [])]) add(a, depth + 1);
    };
    for (const item of Object.values(this.doc.paths ?? {}))
      for (const op of Object.values(item))
        if (op && typeof op === "object" && "responses" in op)
          for (const [status, r] of Object.entries((op as OperationObject).responses ?? {})) {
            if (!/^[45]/.test(status)) continue;
            const res = r.$ref ? this.doc.components?.responses?.[r.$ref.replace("#/components/responses/", "")] : r;
            for (const m of Object.values(res?.content ?? {})) add(m.schema);
          }
    return out;
  }

  private requestSet?: Set<string>;
  /** The components a request body or parameter reaches, computed once. */
  private requests(): Set<string> {
    return (this.requestSet ??= this.requestComponents());
  }

  /** The components a request body or parameter reaches (a model used by both sides counts as a request's). */
  requestComponents(): Set<string> {
    return this.reachable(schemaRoots(this.doc, "requests"));
  }
}

function ownerMarks(place: Place): Mark[] {
  return place.types.at(-1)?.marks ?? [];
}

/** The constraints a place carries, without their provenance. */
function bareConstraints(place: Place): Constraint[] {
  const out: Constraint[] = [];
  const n = place.node;
  const type = Array.isArray(n.type) ? n.type.find((t) => t !== "null") : n.type;
  const values = n.enum ?? (n.const !== undefined ? [n.const] : undefined);
  const add = (kind: ConstraintKind, demand: string, more: Partial<Constraint> = {}) =>
    out.push({ element: place.element, kind, demand, field: place.field, side: place.side, ...more });
  if (place.required && (place.element.includes(".") || place.element.includes(" "))) add("required", "present");
  if (n.type || n.$ref || n.properties || n.items)
    add("type", `type ${String(n.type ?? "object")}`, {
      type: type ?? "object",
      detail: values ? { values } : undefined,
    });
  if (!place.nullable && n.type !== "null")
    add("nullable", "not null", { type: type ?? "object", detail: values ? { values } : undefined });
  if (n.format) add("format", `format ${n.format}`, { detail: { format: n.format } });
  if (n.pattern) add("pattern", `pattern ${n.pattern}`, { detail: { pattern: n.pattern } });
  for (const k of [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
  ] as const)
    if (n[k] !== undefined) add("bounds", `${k} ${String(n[k])}`, { detail: { bound: [k, Number(n[k])] } });
  if (n.enum) add("enum", `one of ${n.enum.map(String).join(", ")}`, { detail: { values: n.enum } });
  if (n.const !== undefined) add("enum", `= ${String(n.const)}`, { detail: { values: [n.const] } });
  // collapse the structural pair of a property that carries the same mark (one row per kind is enough)
  return out.filter((c) => c.kind !== "nullable" || place.element.includes("."));
}

/** The constraints a place carries, each with its provenance. */
export function constraintsAt(place: Place): Constraint[] {
  return bareConstraints(place).map((c) => ({ ...c, provenance: resolve(place, c) }));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isModel = (s: JsonSchema) => s.type === "object" || !!s.properties;

function typeFits(s: JsonSchema, v: unknown): boolean {
  const t = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (!t.length) return true;
  if (v === null) return t.includes("null");
  if (Array.isArray(v)) return t.includes("array");
  if (typeof v === "number") return t.includes("number") || (t.includes("integer") && Number.isInteger(v));
  return t.includes(typeof v);
}

/** A zod issue as the kit reads one (zod 4's issue shape, only the fields used). */
export interface ZodIssueLike {
  code: string;
  path: PropertyKey[];
  format?: string;
  errors?: ZodIssueLike[][];
  note?: string;
  discriminator?: string;
}

/** One failed constraint of a body: where, which, and the rule it states (undefined: not found in the schema). */
export interface Judged {
  path: PropertyKey[];
  constraint?: Constraint;
}

const valueAt = (v: unknown, path: ReadonlyArray<PropertyKey>): unknown =>
  path.reduce<unknown>(
    (cur, p) => (cur === null || cur === undefined ? undefined : (cur as Record<PropertyKey, unknown>)[p]),
    v,
  );

function kindOf(issue: ZodIssueLike, value: unknown, place: Place): ConstraintKind {
  switch (issue.code) {
    case "invalid_type":
      return value === undefined ? "required" : value === null ? "nullable" : "type";
    case "too_big":
    case "too_small": {
      const n = place.node;
      const bounded = [n.minimum, n.maximum, n.minLength, n.maxLength, n.minItems, n.maxItems].some(
        (b) => b !== undefined,
      );
      return !bounded && n.format && WIDTH_FORMATS.has(n.format) ? "format" : "bounds";
    }
    case "invalid_format":
      return issue.format === "regex" ? "pattern" : "format";
    case "invalid_value":
      return "enum";
    default:
      return "type";
  }
}

/**
 * The constraint each zod issue of a body broke, with its provenance. A
 * union that failed as a whole is judged by its closest alternative: when
 * every issue of some alternative is a decision, the union's failure is that
 * alternative's decisions (a deployment that took the other choice on a point
 * the seed leaves open); otherwise the plainly closest alternative's own
 * constraints (the fewest issues), or the union's own type constraint.
 */
export function judgeIssues(map: ProvenanceMap, root: JsonSchema, issues: ZodIssueLike[], body: unknown): Judged[] {
  return issues.flatMap((issue) => judgeIssue(map, root, issue, body));
}

function judgeIssue(map: ProvenanceMap, root: JsonSchema, issue: ZodIssueLike, body: unknown): Judged[] {
  if (issue.code === "invalid_union" && issue.errors?.length) {
    const branches = issue.errors.map((branch) =>
      judgeIssues(
        map,
        root,
        branch.map((i) => ({ ...i, path: startsWith(i.path, issue.path) ? i.path : [...issue.path, ...i.path] })),
        body,
      ),
    );
    const decided = branches
      .filter((b) => b.length && b.every((j) => j.constraint?.provenance?.kind === "decision"))
      .sort((a, b) => a.length - b.length)[0];
    if (decided) return decided;
    // otherwise the closest alternative's own constraints, when one is plainly closest (the others fail more)
    const sorted = branches.filter((b) => b.length && b.every((j) => j.constraint)).sort((a, b) => a.length - b.length);
    if (sorted.length && (sorted.length === 1 || sorted[0]!.length < sorted[1]!.length)) return sorted[0]!;
  }
  const place = map.placeOf(root, issue.path, body);
  if (!place) return [{ path: issue.path }];
  const kind = kindOf(issue, valueAt(body, issue.path), place);
  const all = constraintsAt(place);
  // a bound broken from below is the lower bound's, from above the upper one's
  const end = issue.code === "too_small" ? "min" : issue.code === "too_big" ? "max" : undefined;
  const constraint = all.find(
    (c) =>
      c.kind === kind && (kind !== "bounds" || !end || isLowerBound(c.detail?.bound?.[0] ?? "") === (end === "min")),
  ) ??
    all.find((c) => c.kind === kind) ?? {
      element: place.element,
      kind,
      demand: kind,
      provenance: provenanceAt(place, kind, end),
    };
  return [{ path: issue.path, constraint }];
}

const startsWith = (path: PropertyKey[], prefix: PropertyKey[]) => prefix.every((p, i) => path[i] === p);

const maps = new WeakMap<OpenApiDocument, ProvenanceMap>();
/** The provenance map of a document, built once. */
export function provenanceOf(doc: OpenApiDocument): ProvenanceMap {
  let m = maps.get(doc);
  if (!m) maps.set(doc, (m = new ProvenanceMap(doc)));
  return m;
}

/** `Mentions.MentionAuthor.headline_url: format uri`, the words every report uses for a constraint. */
export const describeConstraint = (c: Constraint) => `${c.element}: ${c.demand}`;

/** Every decision a mark names in the schemas reachable from these roots (the decisions a schema check judges). */
export function decisionsUnder(doc: OpenApiDocument, roots: JsonSchema[]): string[] {
  const out = new Set<string>();
  const seen = new Set<string>();
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(visit);
    if (!n || typeof n !== "object") return;
    const node = n as JsonSchema;
    for (const m of marksOf(node)) if (m.decision) out.add(m.decision);
    if (node.format && WIDTH_FORMATS.has(node.format)) out.add(NUMBER_WIDTH_DECISION);
    if (node.$ref?.startsWith("#/components/schemas/") && !seen.has(node.$ref)) {
      seen.add(node.$ref);
      visit(doc.components?.schemas?.[node.$ref.slice("#/components/schemas/".length)]);
    }
    for (const [k, v] of Object.entries(node)) if (k !== "x-provenance" && typeof v === "object") visit(v);
  };
  roots.forEach(visit);
  return [...out].sort();
}

/** The marks operations carry for their error codes (`errors`, `errors:<status>`): decisions and seed passages. */
export function operationErrorMarks(doc: OpenApiDocument): { decisions: string[]; quotes: string[] } {
  const decisions = new Set<string>();
  const quotes = new Set<string>();
  for (const item of Object.values(doc.paths ?? {}))
    for (const op of Object.values(item))
      if (op && typeof op === "object" && "responses" in op)
        for (const m of marksOf(op))
          if (m.kinds?.some((k) => k.startsWith("errors"))) {
            if (m.decision) decisions.add(m.decision);
            if (m.seed) quotes.add(m.seed);
          }
  return { decisions: [...decisions].sort(), quotes: [...quotes] };
}

/** The JSON schemas of every response body, or of every request body and parameter, of a document. */
export function schemaRoots(doc: OpenApiDocument, side: "responses" | "requests"): JsonSchema[] {
  const ops = Object.values(doc.paths ?? {}).flatMap((item) =>
    Object.values(item).filter((o): o is OperationObject => !!o && typeof o === "object" && "responses" in o),
  );
  const param = (p: ParameterObject) =>
    p.$ref ? doc.components?.parameters?.[p.$ref.replace("#/components/parameters/", "")] : p;
  if (side === "responses")
    return ops.flatMap((o) =>
      Object.values(o.responses ?? {}).flatMap((r) => {
        const res = r.$ref ? doc.components?.responses?.[r.$ref.replace("#/components/responses/", "")] : r;
        return Object.values(res?.content ?? {}).flatMap((m) => (m.schema ? [m.schema] : []));
      }),
    );
  return ops.flatMap((o) => [
    ...Object.values(o.requestBody?.content ?? {}).flatMap((m) => (m.schema ? [m.schema] : [])),
    ...(o.parameters ?? []).flatMap((p) => {
      const q = param(p);
      return q ? [q as unknown as JsonSchema] : [];
    }),
  ]);
}

// ---- error codes per operation ---------------------------------------------------------

/**
 * Codes the seed gives every operation, by status, with the seed's words: a
 * missing or invalid key, the rate limit, a server fault, a malformed body or
 * query (the Errors table, read with "All require the API key header" and
 * "every endpoint with a body or query can return 422"). The gate finds each
 * quote verbatim.
 */
export const EVERY_OPERATION_CODES: Record<string, { code: string; quote: string }> = {
  "401": { code: "unauthorized", quote: "A missing or invalid key yields 401 `unauthorized`." },
  "429": { code: "too_many_requests", quote: "| 429 | `too_many_requests` | rate limit |" },
  "500": {
    code: "internal_server_error",
    quote: "| 5xx | `internal_server_error` | server fault, often `transient` true |",
  },
  "422": { code: "unprocessable_entity", quote: "| 422 | `unprocessable_entity` | malformed body or query |" },
};

/**
 * Where the seed gives an error code its status, by status: the Errors
 * table's rows and the list of 402 variants (verbatim; the gate finds them).
 * A code these do not list has its status only where a passage writes the
 * status beside it (`402 \`insufficient_credits_dataset_run\``); for the
 * others "HTTP status …: not shown".
 */
export const CODE_STATUSES: Record<string, string[]> = {
  "400": [
    "| 400 | `bad_request`, `source_dataset_has_no_completed_run`, `audience_youtube_only_source`, `audience_insufficient_source_mentions` | semantics or state; audience dataset creation without plan support is also 400 |",
  ],
  "402": [
    "| 402 | `insufficient_credits` and endpoint-specific variants |",
    "- 402: `insufficient_credits_dataset_run`, `insufficient_credits_audience_dataset_run`, `insufficient_credits_pattern_detection`, `insufficient_credits_content_analysis`, `insufficient_credits_research_preview`, `insufficient_credits_ask`, `insufficient_credits` (tracking trigger).",
  ],
  "404": [
    "| 404 | `dataset_not_found`, `audience_dataset_not_found`, `pattern_not_found`, `pattern_detection_run_not_found`, `chat_not_found`, `custom_parameter_not_found`, `not_found` | missing or foreign resource |",
  ],
  "409": ["| 409 | `audience_dataset_run_already_in_flight` | a pending or working run blocks a new one |"],
};

/** Whether the seed gives `code` the status `status`: in the Errors table, or beside the code in a passage. */
function statusStated(code: string, status: string, passages: string[]): boolean {
  if ((CODE_STATUSES[status] ?? []).some((q) => factIn(q, codeFact(code)))) return true;
  // the status and the code in one clause of the passage: `402 \`insufficient_credits\``, `422 family including \`…\``
  const clauses = passages.flatMap((p) => plain(p).split(/[;|]/));
  return clauses.some((c) => factIn(c, statusFact(Number(status))) && factIn(c, codeFact(code)));
}

/** An operation's own marks of kind `errors` / `errors:<status>` that apply to one status. */
function errorMarks(op: OperationObject, status: string): Mark[] {
  return marksOf(op).filter((m) => m.kinds?.some((k) => k === "errors" || k === `errors:${status}`));
}

/** The seed passages an operation's marks quote for its errors (any status). */
export function errorPassages(op: OperationObject): string[] {
  return marksOf(op)
    .filter((m) => m.seed && m.kinds?.some((k) => k.startsWith("errors")))
    .map((m) => m.seed!);
}

/**
 * What grounds one error code an operation documents at one status: the
 * seed, when a passage the operation's `errors` marks quote names the code
 * and the seed gives the code that status (CODE_STATUSES, or the status
 * beside the code in the passage), or the code is every operation's at that
 * status; otherwise the
 * operation's `errors` decision for that status, or the decision on the error
 * model's `error_code`; undefined when neither (the gate fails it). The kit
 * judges an error body's code by this, never by the model's own mark: a
 * model shared by several operations is the seed's on some and a decision
 * on others.
 */
export function errorCodeProvenance(
  doc: OpenApiDocument,
  op: OperationObject,
  status: string,
  code: string,
): Provenance | undefined {
  const every = EVERY_OPERATION_CODES[/^5/.test(status) ? "500" : status];
  if (every?.code === code) return { kind: "seed", quote: every.quote };
  const marks = errorMarks(op, status);
  // the operation's passage names the code, and the seed gives the code this status (there or in the Errors table)
  const stated = marks.find((m) => m.seed && factIn(m.seed, codeFact(code)));
  if (stated?.seed && statusStated(code, status, errorPassages(op))) return { kind: "seed", quote: stated.seed };
  const own = marks.find((m) => m.decision && m.kinds?.includes(`errors:${status}`)) ?? marks.find((m) => m.decision);
  if (own?.decision) return { kind: "decision", decision: own.decision };
  const schema = errorSchema(doc, op, status);
  const place = schema ? provenanceOf(doc).placeOf(schema, ["error_code"], { error_code: code }) : undefined;
  const model = place ? provenanceAt(place, "enum") : undefined;
  return model?.kind === "decision" ? model : undefined;
}

/** The JSON body schema an operation documents at a status. */
function errorSchema(doc: OpenApiDocument, op: OperationObject, status: string): JsonSchema | undefined {
  const r = op.responses?.[status];
  const res = r?.$ref ? doc.components?.responses?.[r.$ref.replace("#/components/responses/", "")] : r;
  return Object.values(res?.content ?? {})[0]?.schema;
}

/** One error code an operation documents at one status, and what grounds it there. */
export interface ErrorCodeFinding {
  operationId: string;
  /** `POST /v1/ask` */
  key: string;
  status: string;
  code: string;
  /** the seed passages the operation's marks quote for its errors */
  passages: string[];
  grounds?: Provenance;
}

/** The error codes an error body schema can carry (its `error_code` enum or const, through unions and refs). */
export function codesOf(doc: OpenApiDocument, schema: JsonSchema | undefined, seen = new Set<string>()): string[] {
  if (!schema) return [];
  if (schema.$ref) {
    if (seen.has(schema.$ref)) return [];
    seen.add(schema.$ref);
    return codesOf(doc, doc.components?.schemas?.[schema.$ref.replace("#/components/schemas/", "")], seen);
  }
  const own = schema.properties?.error_code;
  const here = own ? [...(enumOf(doc, own) ?? [])] : [];
  const alts = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  return [...new Set([...here, ...alts.flatMap((a) => codesOf(doc, a, seen))])];
}

function enumOf(doc: OpenApiDocument, n: JsonSchema): string[] | undefined {
  let s = n;
  for (let i = 0; s.$ref && i < 10; i++)
    s = doc.components?.schemas?.[s.$ref.replace("#/components/schemas/", "")] ?? {};
  if (s.enum) return s.enum.map(String);
  if (s.const !== undefined) return [String(s.const)];
  return undefined;
}

/** Every error code every operation documents, each with what grounds it for that operation. */
export function errorCodeFindings(doc: OpenApiDocument): ErrorCodeFinding[] {
  const out: ErrorCodeFinding[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const [method, raw] of Object.entries(item)) {
      if (!raw || typeof raw !== "object" || !("responses" in raw)) continue;
      const op = raw as OperationObject;
      const key = `${method.toUpperCase()} ${path}`;
      for (const status of Object.keys(op.responses ?? {})) {
        if (!/^[45]/.test(status)) continue;
        for (const code of codesOf(doc, errorSchema(doc, op, status)))
          out.push({
            operationId: op.operationId ?? key,
            key,
            status,
            code,
            passages: errorPassages(op),
            grounds: errorCodeProvenance(doc, op, status, code),
          });
      }
    }
  return out;
}
