// Contract loader: reads generated/openapi.json at run time and maps every
// operation × documented status to the generated zod schema of its body.
// Nothing here restates a schema: bodies are validated with generated/client/zod.gen.ts.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod";
import type { ZodType } from "zod";

export type JsonSchema = Record<string, unknown>;

export interface ResponseSpec {
  status: string; // "200", "404", "default"
  schemaRef?: string; // "Datasets.DatasetPage"
  zodName?: string; // "zDatasetsDatasetPage"
  zod?: ZodType;
  hasJson: boolean;
  headers: string[];
}

export interface ParamSpec {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required: boolean;
  schema: JsonSchema;
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
  responsesRaw: Record<string, any>;
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
const generatedZod: Record<string, unknown> = await import(new URL("client/zod.gen.ts", contractDir).href);

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
  const beside = join(dirname(docPath), "client", "zod.gen.ts");
  if (!existsSync(beside) || resolvePath(beside) === fileURLToPath(new URL("client/zod.gen.ts", contractDir)))
    return bundledZod;
  return createRequire(import.meta.url)(resolvePath(beside)) as ZodTable;
}

export class Contract {
  readonly doc: Record<string, any>;
  readonly operations: Operation[] = [];
  private byKey = new Map<string, Operation>();

  private readonly zodTable: ZodTable;

  constructor(doc: Record<string, any>, zodTable: ZodTable = bundledZod) {
    this.doc = doc;
    this.zodTable = zodTable;
    const globalSecurity = Array.isArray(doc.security) && doc.security.length > 0;
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths ?? {})) {
      const shared: any[] = item.parameters ?? [];
      for (const [m, op] of Object.entries<any>(item)) {
        if (!["get", "post", "put", "patch", "delete"].includes(m)) continue;
        const method = m.toUpperCase();
        const params: ParamSpec[] = [...shared, ...(op.parameters ?? [])]
          .map((p) => this.deref(p))
          .map((p) => ({
            name: p.name,
            in: p.in,
            required: !!p.required,
            schema: this.deref(p.schema ?? {}),
          }));
        const rb = op.requestBody ? this.deref(op.requestBody) : undefined;
        const jsonBody = rb?.content?.["application/json"];
        const bodyRefRaw: string | undefined = jsonBody?.schema?.$ref;
        const responses = new Map<string, ResponseSpec>();
        for (const [status, r0] of Object.entries<any>(op.responses ?? {})) {
          const r = this.deref(r0);
          const json = r.content?.["application/json"];
          const ref: string | undefined = json?.schema?.$ref;
          let schemaRef = ref ? ref.replace("#/components/schemas/", "") : undefined;
          let zodName = schemaRef ? zodNameOf(schemaRef) : undefined;
          let zod = zodName ? this.zodTable[zodName] : undefined;
          // a response that is a union of named schemas: the union of their generated zod
          const alts: any[] | undefined = json?.schema?.anyOf ?? json?.schema?.oneOf;
          if (!ref && Array.isArray(alts) && alts.every((a) => typeof a?.$ref === "string")) {
            const names = alts.map((a) => a.$ref.replace("#/components/schemas/", "") as string);
            const members = names.map((n) => this.zodTable[zodNameOf(n)]);
            if (members.every(Boolean) && members.length >= 2) {
              schemaRef = names.join(" | ");
              zodName = names.map(zodNameOf).join(" | ");
              zod = z.union(members as [ZodType, ZodType, ...ZodType[]]);
            }
          }
          responses.set(status, {
            status,
            schemaRef,
            zodName,
            zod,
            hasJson: !!json,
            headers: Object.keys(r.headers ?? {}),
          });
        }
        const operation: Operation = {
          key: `${method} ${path}`,
          operationId: op.operationId ?? `${method} ${path}`,
          method,
          path,
          pathRegex: new RegExp(
            "^" + path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, "([^/]+)") + "$",
          ),
          params,
          bodySchema: jsonBody?.schema ? this.resolve(jsonBody.schema) : undefined,
          bodyRef: bodyRefRaw?.replace("#/components/schemas/", ""),
          bodyExamples: orderExamples(jsonBody),
          bodyRequired: !!rb?.required,
          responses,
          responsesRaw: op.responses ?? {},
          secured: op.security ? op.security.length > 0 : globalSecurity,
        };
        this.operations.push(operation);
        this.byKey.set(operation.key, operation);
      }
    }
  }

  static load(path = defaultContractPath, scope?: string[]): Contract {
    const c = new Contract(JSON.parse(readFileSync(path, "utf8")), zodBeside(path));
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

  deref(node: any): any {
    let n = node;
    let guard = 0;
    while (n && typeof n === "object" && typeof n.$ref === "string" && guard++ < 20) {
      const parts = n.$ref.replace(/^#\//, "").split("/");
      let target: any = this.doc;
      for (const part of parts) target = target?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
      const { $ref: _ignored, ...rest } = n;
      n = { ...target, ...rest };
    }
    return n;
  }

  /** Resolve $ref and merge allOf so a generator can walk the schema. */
  resolve(node: any, depth = 0): JsonSchema {
    if (depth > 12) return {};
    const n = this.deref(node);
    if (!n || typeof n !== "object") return {};
    let out: any = { ...n };
    if (Array.isArray(n.allOf)) {
      delete out.allOf;
      for (const part of n.allOf) {
        const r = this.resolve(part, depth + 1) as any;
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
    for (const key of ["anyOf", "oneOf"])
      if (Array.isArray(out[key])) out[key] = out[key].map((x: any) => this.resolve(x, depth + 1));
    return out;
  }

  /** Every (operation, status) pair the document lists, for the coverage ledger. */
  pairs(): Array<{ op: Operation; status: string }> {
    return this.operations.flatMap((op) => [...op.responses.keys()].map((status) => ({ op, status })));
  }
}

/** Request examples, the ones that do not describe a refusal first (a clean base for negative data). */
function orderExamples(jsonBody: any): unknown[] {
  const refusal =
    /beyond|too low|insufficient|invalid|unknown|missing|error|fail|reject|duplicate|limit|over|blank|empty|without|cap reached|conflict|in flight|not found/i;
  const named = Object.entries<any>(jsonBody?.examples ?? {}).map(([k, e]) => ({
    label: `${k} ${e?.summary ?? ""}`,
    value: e?.value,
  }));
  named.sort((a, b) => Number(refusal.test(a.label)) - Number(refusal.test(b.label)));
  const out = named.map((e) => e.value);
  if (jsonBody?.example !== undefined) out.push(jsonBody.example);
  return out;
}
