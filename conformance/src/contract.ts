// Contract loader: reads generated/openapi.json at run time and maps every
// operation × documented status to the generated zod schema of its body.
// Nothing here restates a schema: bodies are validated with generated/client/zod.gen.ts.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve as resolvePath } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as z from "zod";
import type { ZodType } from "zod";
import {
  HTTP_METHODS,
  type HttpMethod,
  type JsonSchema,
  type MediaTypeObject,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  type Refable,
  type ResponseObject,
} from "./openapi.ts";
import { decisionsUnder, errorCodeFindings, operationErrorMarks, provenanceOf, schemaRoots } from "./provenance.ts";
import { LEDGER } from "./seed-ledger/rules.ts";
import { segmentsOf } from "./grounding/facts.ts";
import { isRule } from "./seed-ledger/types.ts";

export type { JsonSchema, OpenApiDocument } from "./openapi.ts";

export interface ResponseSpec {
  status: string; // "200", "404", "default"
  schemaRef?: string; // "Datasets.DatasetPage"
  zodName?: string; // "zDatasetsDatasetPage"
  zod?: ZodType;
  /** the JSON body's schema as the document writes it (a `$ref` or a union of them), for provenance lookups */
  schema?: JsonSchema;
  hasJson: boolean;
  headers: string[];
}

export interface ParamSpec {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required: boolean;
  schema: JsonSchema;
  /** the parameter as the document writes it (its provenance marks included) */
  raw: ParameterObject;
}

export interface Operation {
  key: string; // "GET /v1/datasets/{dataset_id}"
  operationId: string;
  method: string; // upper case
  path: string;
  pathRegex: RegExp;
  params: ParamSpec[];
  bodySchema?: JsonSchema;
  bodyRef?: string;
  bodyExamples: unknown[];
  bodyRequired: boolean;
  responses: Map<string, ResponseSpec>;
  /** the document's response objects as written (for derivations such as the error codes a status may carry) */
  responsesRaw: Record<string, ResponseObject>;
  secured: boolean;
}

/**
 * Where the generated contract lives: `contract/` inside the published
 * package (copied there by `npm pack`, see scripts/bundle-contract.mjs), else
 * the repository's `generated/` next to the kit.
 */
const contractDir = [new URL("../contract/", import.meta.url), new URL("../../generated/", import.meta.url)].find((u) =>
  existsSync(fileURLToPath(new URL("openapi.json", u))),
)!;
export const defaultContractPath = fileURLToPath(new URL("openapi.json", contractDir));
let bundledDoc: OpenApiDocument | undefined;
/**
 * The decisions the provenance marks of the bundled contract name in every
 * response body, or in every request body and parameter: what a check that
 * validates against those schemas judges, besides its own rules.
 */
export function schemaDecisions(side: "responses" | "requests"): string[] {
  bundledDoc ??= JSON.parse(readFileSync(defaultContractPath, "utf8")) as OpenApiDocument;
  const own = decisionsUnder(bundledDoc, schemaRoots(bundledDoc, side));
  // an error body's code is judged per operation: the operations' own decisions on their codes
  return side === "responses" ? [...new Set([...own, ...operationErrorMarks(bundledDoc).decisions])] : own;
}

/** The decisions operations carry on their error codes (`@decided(…, "errors:<status>")`), in the bundled contract. */
export function errorCodeDecisions(): string[] {
  bundledDoc ??= JSON.parse(readFileSync(defaultContractPath, "utf8")) as OpenApiDocument;
  return operationErrorMarks(bundledDoc).decisions;
}

/** The kinds of ledger row a schema constraint states: a shape (fields, types, values) or a bound. */
const SCHEMA_KINDS = new Set(["shape", "bound"]);
const SHAPES = new Set(["shape"]);
const ERRORS = new Set(["error"]);

/** Flattened as the ledger and the gate compare quotes. */
const flatQuote = (q: string) => q.replace(/[`*]/g, "").replace(/\s+/g, " ").trim();

/**
 * The seed-ledger rows (rules to judge) one quote carries: the rows whose
 * words stand in the quote, or the row whose words hold the whole quote. A
 * schema check's finding names the mark it broke; these are its rows.
 */
export function rowsQuoting(quote: string | undefined, kinds: ReadonlySet<string> = SCHEMA_KINDS): string[] {
  if (!quote) return [];
  const q = flatQuote(quote);
  // an endpoint's status row a schema mark quotes word for word states what the answer carries (`| GET /v1/me | user, account, plan… |`)
  return LEDGER.filter(
    (r) => isRule(r) && (kinds.has(r.kind) || (kinds !== ERRORS && r.kind === "status" && flatQuote(r.quote) === q)),
  )
    .filter((r) =>
      [r.quote, ...(r.also ?? [])].some((w) => {
        // an endpoint row's body cell quoted on its own is the row's words
        const words = flatQuote(w).replace(/^\| (?:GET|POST|PATCH|PUT|DELETE) \S+ \| /, "");
        return q.includes(words) || words.includes(q);
      }),
    )
    .map((r) => r.id);
}

/**
 * The seed-ledger rows (shapes and bounds) the provenance marks of the
 * bundled contract quote in every response body, or in every request body
 * and parameter: the seed rules a schema check judges, derived from the marks
 * (never restated).
 */
export function schemaRows(side: "responses" | "requests"): string[] {
  bundledDoc ??= JSON.parse(readFileSync(defaultContractPath, "utf8")) as OpenApiDocument;
  // the quotes that are some constraint's provenance (a quote that states nothing it covers judges nothing)
  const map = provenanceOf(bundledDoc);
  const reached = map.reachable(schemaRoots(bundledDoc, side));
  const rows: string[] = [];
  for (const c of map.constraints()) {
    const inSide = c.component ? reached.has(c.component) : side === "requests";
    if (!inSide || c.perOperation || c.provenance?.kind !== "seed") continue;
    // a request model's mark states which fields are required, a rule the ledger files with the bounds
    const bound = !["required", "type", "nullable"].includes(c.kind) || side === "requests";
    // a row inside a longer quote is the constraint's when its words name the field (or it is the whole quote)
    const whole = flatQuote(c.provenance.quote);
    rows.push(
      ...rowsQuoting(c.provenance.quote, bound ? SCHEMA_KINDS : SHAPES).filter((id) => {
        const row = LEDGER.find((r) => r.id === id)!;
        const words = [row.quote, ...(row.also ?? [])].map(flatQuote);
        // …or when they stand in the field's own place in the quote (its table row, its piece of a list)
        const places = c.field ? segmentsOf(whole, c.field).map(flatQuote) : [];
        return (
          !c.field ||
          words.some(
            (w) => w.includes(whole) || new RegExp(`\\b${c.field}\\b`).test(w) || places.some((p) => p.includes(w)),
          )
        );
      }),
    );
  }
  // an error body's code is judged per operation: the error rows of the passages that state a code for its operation
  const findings = side === "responses" ? errorCodeFindings(bundledDoc) : [];
  if (side === "responses")
    for (const f of findings) {
      // a code is a seed finding only where every code the operation documents at that status is the seed's
      const g = f.grounds;
      if (
        g?.kind !== "seed" ||
        findings.some((o) => o.key === f.key && o.status === f.status && o.grounds?.kind !== "seed")
      )
        continue;
      const code = new RegExp(`\\b${f.code}\\b`);
      const ids = rowsQuoting(g.quote, ERRORS).filter((id) => code.test(LEDGER.find((r) => r.id === id)!.quote));
      rows.push(...ids);
    }
  return [...new Set(rows)].sort();
}
/** The generated zod of a contract folder: `zod.gen.js` in the published package (transpiled at pack time), else `zod.gen.ts`. */
function zodFileIn(dir: string): string | undefined {
  return ["zod.gen.js", "zod.gen.ts"].map((f) => join(dir, "client", f)).find((f) => existsSync(f));
}
const bundledZodFile = zodFileIn(fileURLToPath(contractDir))!;
const generatedZod = (await import(pathToFileURL(bundledZodFile).href)) as Record<string, unknown>;

/** `Datasets.DatasetPage` → `zDatasetsDatasetPage` (hey-api's naming of component schemas). */
export function zodNameOf(schemaRef: string): string {
  const parts = schemaRef.split(/[.\-_ ]/).filter(Boolean);
  return "z" + parts.map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join("");
}

type ZodTable = Record<string, ZodType | undefined>;
const bundledZod = generatedZod as unknown as ZodTable;

/**
 * The generated zod that belongs to a document: `client/zod.gen.ts` beside it
 * when there is one (a frozen release under releases/<version>/ has the same
 * layout as the bundled contract), else the bundled one. Loaded synchronously
 * (require of an ES module), so `Contract.load` stays synchronous.
 */
function zodBeside(docPath: string): ZodTable {
  const beside = zodFileIn(dirname(docPath));
  if (!beside || resolvePath(beside) === bundledZodFile) return bundledZod;
  try {
    return createRequire(import.meta.url)(resolvePath(beside)) as ZodTable;
  } catch (e) {
    // the published kit carries no TypeScript loader: a .ts file needs Node's own type stripping
    if (beside.endsWith(".ts") && (e as { code?: string }).code === "ERR_UNKNOWN_FILE_EXTENSION")
      throw new Error(
        `${beside} is TypeScript, which Node ${process.version} cannot load by itself: run the kit on Node 22.18 or later, or transpile the file to zod.gen.js beside it`,
      );
    throw e;
  }
}

export class Contract {
  readonly doc: OpenApiDocument;
  readonly operations: Operation[] = [];
  private byKey = new Map<string, Operation>();

  private readonly zodTable: ZodTable;

  constructor(doc: OpenApiDocument, zodTable: ZodTable = bundledZod) {
    this.doc = doc;
    this.zodTable = zodTable;
    const globalSecurity = Array.isArray(doc.security) && doc.security.length > 0;
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      // in the document's order of methods, as the checks and reports list operations
      for (const m of Object.keys(item)) {
        const op = isHttpMethod(m) ? item[m] : undefined;
        if (!op) continue;
        const operation = this.operationOf(m.toUpperCase(), path, op, item.parameters ?? [], globalSecurity);
        this.operations.push(operation);
        this.byKey.set(operation.key, operation);
      }
    }
  }

  private operationOf(
    method: string,
    path: string,
    op: OperationObject,
    shared: ParameterObject[],
    globalSecurity: boolean,
  ): Operation {
    const params: ParamSpec[] = [...shared, ...(op.parameters ?? [])].map((raw) => {
      const p = this.deref(raw);
      return { name: p.name, in: p.in, required: !!p.required, schema: this.deref(p.schema ?? {}), raw };
    });
    const rb = op.requestBody ? this.deref(op.requestBody) : undefined;
    const jsonBody = rb?.content?.["application/json"];
    const responses = new Map<string, ResponseSpec>();
    for (const [status, r] of Object.entries(op.responses ?? {})) responses.set(status, this.responseOf(status, r));
    return {
      key: `${method} ${path}`,
      operationId: op.operationId ?? `${method} ${path}`,
      method,
      path,
      pathRegex: new RegExp(
        "^" + path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, "([^/]+)") + "$",
      ),
      params,
      bodySchema: jsonBody?.schema ? this.resolve(jsonBody.schema) : undefined,
      bodyRef: jsonBody?.schema?.$ref?.replace("#/components/schemas/", ""),
      bodyExamples: orderExamples(jsonBody),
      bodyRequired: !!rb?.required,
      responses,
      responsesRaw: op.responses ?? {},
      secured: op.security ? op.security.length > 0 : globalSecurity,
    };
  }

  /** One documented response: the generated zod of its JSON body (a named schema, or a union of named schemas). */
  private responseOf(status: string, raw: ResponseObject): ResponseSpec {
    const r = this.deref(raw);
    const json = r.content?.["application/json"];
    const ref = json?.schema?.$ref;
    let schemaRef = ref ? ref.replace("#/components/schemas/", "") : undefined;
    let zodName = schemaRef ? zodNameOf(schemaRef) : undefined;
    let zod = zodName ? this.zodTable[zodName] : undefined;
    const alts = json?.schema?.anyOf ?? json?.schema?.oneOf;
    const altRefs = (alts ?? []).map((a) => a?.$ref).filter((x): x is string => typeof x === "string");
    if (!ref && Array.isArray(alts) && altRefs.length === alts.length) {
      const names = altRefs.map((a) => a.replace("#/components/schemas/", ""));
      const members = names.map((n) => this.zodTable[zodNameOf(n)]);
      if (members.every(Boolean) && members.length >= 2) {
        schemaRef = names.join(" | ");
        zodName = names.map(zodNameOf).join(" | ");
        zod = z.union(members as [ZodType, ZodType, ...ZodType[]]);
      }
    }
    return {
      status,
      schemaRef,
      zodName,
      zod,
      schema: json?.schema,
      hasJson: !!json,
      headers: Object.keys(r.headers ?? {}),
    };
  }

  static load(path = defaultContractPath, scope?: string[]): Contract {
    const c = new Contract(JSON.parse(readFileSync(path, "utf8")) as OpenApiDocument, zodBeside(path));
    if (scope?.length) c.restrict(scope);
    return c;
  }

  /**
   * Keep only operations whose path starts with one of the prefixes (or whose
   * operationId or tag group matches), for deployments that implement part of the API.
   */
  restrict(scope: string[]): void {
    const keep = (o: Operation) =>
      scope.some((s) =>
        s.startsWith("/")
          ? o.path === s || o.path.startsWith(s.endsWith("/") ? s : s + "/") || o.path.startsWith(s + "?")
          : o.operationId === s || o.operationId.startsWith(s + "_"),
      );
    const kept = this.operations.filter(keep);
    this.operations.length = 0;
    this.operations.push(...kept);
    this.byKey.clear();
    for (const o of kept) this.byKey.set(o.key, o);
  }

  /** Look an operation up by `METHOD /path/{template}`. */
  op(key: string): Operation | undefined {
    return this.byKey.get(key);
  }

  has(...keys: string[]): boolean {
    return keys.every((k) => this.byKey.has(k));
  }

  /** Which operation a concrete request (method + URL path) belongs to. */
  match(method: string, urlPath: string): Operation | undefined {
    const p = urlPath.split("?")[0];
    const exact = this.byKey.get(`${method} ${p}`);
    if (exact) return exact;
    // prefer the template with the fewest parameters (static segments win)
    const candidates = this.operations.filter((o) => o.method === method && o.pathRegex.test(p));
    candidates.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
    return candidates[0];
  }

  /** The generated zod schema of a component (`Common.ValidationError`). */
  zodOf(schemaRef: string): ZodType | undefined {
    return this.zodTable[zodNameOf(schemaRef)];
  }

  /** The node with its `$ref` followed (siblings of the `$ref` kept over the target's fields). */
  deref<T extends Refable>(node: T): T;
  deref<T extends Refable>(node: T | undefined): T | undefined;
  deref<T extends Refable>(node: T | undefined): T | undefined {
    let n = node;
    let guard = 0;
    while (n && typeof n === "object" && typeof n.$ref === "string" && guard++ < 20) {
      const { $ref, ...rest } = n;
      n = { ...this.pointee($ref), ...rest } as T;
    }
    return n;
  }

  /** What a local JSON pointer (`#/components/schemas/X`) points at. */
  private pointee(ref: string): object | undefined {
    let target: unknown = this.doc;
    for (const part of ref.replace(/^#\//, "").split("/")) {
      const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
      target = typeof target === "object" && target !== null ? (target as Record<string, unknown>)[key] : undefined;
    }
    return target as object | undefined;
  }

  /** Resolve $ref and merge allOf so a generator can walk the schema. */
  resolve(node: JsonSchema | undefined, depth = 0): JsonSchema {
    if (depth > 12) return {};
    const n = this.deref(node);
    if (!n || typeof n !== "object") return {};
    let out: JsonSchema = { ...n };
    if (Array.isArray(n.allOf)) {
      delete out.allOf;
      for (const part of n.allOf) {
        const r = this.resolve(part, depth + 1);
        out = {
          ...r,
          ...out,
          properties: { ...(r.properties ?? {}), ...(out.properties ?? {}) },
          required: [...(r.required ?? []), ...(out.required ?? [])],
        };
      }
    }
    if (out.properties) {
      const props: Record<string, JsonSchema> = {};
      for (const [k, v] of Object.entries(out.properties)) props[k] = this.resolve(v, depth + 1);
      out.properties = props;
    }
    if (out.items) out.items = this.resolve(out.items, depth + 1);
    for (const key of ["anyOf", "oneOf"] as const) {
      const alts = out[key];
      if (Array.isArray(alts)) out[key] = alts.map((x) => this.resolve(x, depth + 1));
    }
    return out;
  }

  /** Every (operation, status) pair the document lists, for the coverage ledger. */
  pairs(): Array<{ op: Operation; status: string }> {
    return this.operations.flatMap((op) => [...op.responses.keys()].map((status) => ({ op, status })));
  }
}

function isHttpMethod(m: string): m is HttpMethod {
  return (HTTP_METHODS as readonly string[]).includes(m);
}

/** Request examples, the ones that do not describe a refusal first (a clean base for negative data). */
function orderExamples(jsonBody: MediaTypeObject | undefined): unknown[] {
  const refusal =
    /beyond|too low|insufficient|invalid|unknown|missing|error|fail|reject|duplicate|limit|over|blank|empty|without|cap reached|conflict|in flight|not found/i;
  const named = Object.entries(jsonBody?.examples ?? {}).map(([k, e]) => ({
    label: `${k} ${e?.summary ?? ""}`,
    value: e?.value,
  }));
  named.sort((a, b) => Number(refusal.test(a.label)) - Number(refusal.test(b.label)));
  const out = named.map((e) => e.value);
  if (jsonBody?.example !== undefined) out.push(jsonBody.example);
  return out;
}
