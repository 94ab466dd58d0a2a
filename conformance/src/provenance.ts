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
  kinds?: ConstraintKind[];
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
}

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
}

const marksOf = (n: unknown): Mark[] =>
  n && typeof n === "object" && Array.isArray((n as Record<string, unknown>)["x-provenance"])
    ? ((n as Record<string, unknown>)["x-provenance"] as Mark[])
    : [];

function covering(
  marks: Mark[],
  kind: ConstraintKind,
  seedCoversAll: boolean,
  decisionsOnly = false,
): Provenance | undefined {
  const d = marks.find((m) => m.decision && (!m.kinds || m.kinds.includes(kind)));
  if (d?.decision) return { kind: "decision", decision: d.decision };
  if (decisionsOnly) return undefined;
  const s = marks.find((m) => m.seed && (m.kinds ? m.kinds.includes(kind) : seedCoversAll || STRUCTURAL.has(kind)));
  return s?.seed ? { kind: "seed", quote: s.seed } : undefined;
}

/** The rule one kind of constraint at a place states. */
export function provenanceAt(place: Place, kind: ConstraintKind): Provenance | undefined {
  if (kind === "format" && place.node.format && WIDTH_FORMATS.has(place.node.format))
    return { kind: "decision", decision: NUMBER_WIDTH_DECISION };
  const own = covering(place.property, kind, true);
  if (own) return own;
  const types = () => place.types.map((t) => covering(t.marks, kind, !t.model)).find(Boolean);
  const owner = () => (place.owners[0] ? covering(place.owners[0].marks, kind, false) : undefined);
  const order =
    kind === "required" ? [owner] : kind === "nullable" ? [owner, types] : kind === "type" ? [types, owner] : [types];
  for (const step of order) {
    const p = step();
    if (p) return p;
  }
  // a decision on any enclosing model covers what nothing nearer marks
  for (const o of place.owners) {
    const d = covering(o.marks, kind, false, true);
    if (d) return d;
  }
  return undefined;
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

  /** Every property of every component, with the constraints it carries (for the gate and the reports). */
  *constraints(): Generator<Constraint> {
    for (const [name, schema] of Object.entries(this.doc.components?.schemas ?? {})) {
      if (schema.properties) {
        for (const key of Object.keys(schema.properties)) {
          const place = this.placeOf({ $ref: `#/components/schemas/${name}` }, [key], undefined, name);
          if (place) yield* constraintsAt(place);
        }
      } else if (!isModel(schema) && !schema.allOf) {
        const place = this.placeOf({ $ref: `#/components/schemas/${name}` }, [], undefined, name);
        if (place)
          yield* constraintsAt(place).filter(
            (c) => c.kind !== "required" && c.kind !== "nullable" && c.kind !== "type",
          );
      }
    }
    for (const place of this.parameterPlaces()) yield* constraintsAt(place);
  }
}

function ownerMarks(place: Place): Mark[] {
  return place.types.at(-1)?.marks ?? [];
}

/** The constraints a place carries, each with its provenance. */
export function constraintsAt(place: Place): Constraint[] {
  const out: Constraint[] = [];
  const n = place.node;
  const add = (kind: ConstraintKind, demand: string) =>
    out.push({ element: place.element, kind, demand, provenance: provenanceAt(place, kind) });
  if (place.required && (place.element.includes(".") || place.element.includes(" "))) add("required", "present");
  if (n.type || n.$ref || n.properties || n.items) add("type", `type ${String(n.type ?? "object")}`);
  if (!place.nullable && n.type !== "null") add("nullable", "not null");
  if (n.format) add("format", `format ${n.format}`);
  if (n.pattern) add("pattern", `pattern ${n.pattern}`);
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
    if (n[k] !== undefined) add("bounds", `${k} ${String(n[k])}`);
  if (n.enum) add("enum", `one of ${n.enum.map(String).join(", ")}`);
  if (n.const !== undefined) add("enum", `= ${String(n.const)}`);
  // collapse the structural pair of a property that carries the same mark (one row per kind is enough)
  return out.filter((c) => c.kind !== "nullable" || place.element.includes("."));
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
 * the seed leaves open); otherwise it is the union's own type constraint.
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
  }
  const place = map.placeOf(root, issue.path, body);
  if (!place) return [{ path: issue.path }];
  const kind = kindOf(issue, valueAt(body, issue.path), place);
  const all = constraintsAt(place);
  const constraint = all.find((c) => c.kind === kind) ?? {
    element: place.element,
    kind,
    demand: kind,
    provenance: provenanceAt(place, kind),
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
