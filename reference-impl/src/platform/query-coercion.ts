// Query strings arrive as text. Before the generated zod sees them, each
// parameter is coerced by the type its OpenAPI parameter schema declares
// (integer, number, boolean, array). Anything that does not parse is left as
// text so zod reports it as a 422.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

type JsonSchema = {
  type?: string | string[];
  items?: JsonSchema;
  $ref?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};
type Parameter = { name: string; in: string; schema?: JsonSchema; $ref?: string };
type OpenApiDoc = {
  paths: Record<string, Record<string, { operationId?: string; parameters?: Parameter[] }>>;
  components?: { parameters?: Record<string, Parameter>; schemas?: Record<string, JsonSchema> };
};

const openapiPath = fileURLToPath(new URL("../../../generated/openapi.json", import.meta.url));

export function loadOpenApi(): OpenApiDoc {
  return JSON.parse(readFileSync(openapiPath, "utf8")) as OpenApiDoc;
}

export type QueryParamTypes = Map<string, JsonSchema>;

let cache: Map<string, QueryParamTypes> | undefined;

function resolve<T extends { $ref?: string }>(doc: OpenApiDoc, node: T): T {
  let current: T = node;
  for (let i = 0; i < 10 && current.$ref; i++) {
    const [, , kind, name] = current.$ref.split("/");
    const table = (doc.components as Record<string, Record<string, T>> | undefined)?.[kind!];
    const next = table?.[decodeURIComponent(name!)];
    if (!next) break;
    current = next;
  }
  return current;
}

/** Query parameter schemas of one operation, by operationId. */
export function queryParamTypes(operationId: string): QueryParamTypes {
  if (!cache) {
    cache = new Map();
    const doc = loadOpenApi();
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) {
        if (!op?.operationId) continue;
        const params: QueryParamTypes = new Map();
        for (const raw of op.parameters ?? []) {
          const p = resolve(doc, raw);
          if (p.in === "query") params.set(p.name, flatten(doc, p.schema ?? {}));
        }
        cache.set(op.operationId, params);
      }
    }
  }
  const found = cache.get(operationId);
  if (!found) throw new Error(`operation ${operationId} is not in generated/openapi.json`);
  return found;
}

function flatten(doc: OpenApiDoc, schema: JsonSchema): JsonSchema {
  const s = resolve(doc, schema);
  const alt = s.anyOf ?? s.oneOf ?? s.allOf;
  if (!s.type && alt) {
    const typed = alt.map((a) => flatten(doc, a)).find((a) => a.type && a.type !== "null");
    if (typed) return typed;
  }
  if (s.type === "array" && s.items) return { type: "array", items: flatten(doc, s.items) };
  return s;
}

function primaryType(schema: JsonSchema): string | undefined {
  const t = schema.type;
  if (Array.isArray(t)) return t.find((x) => x !== "null");
  return t;
}

function coerceScalar(text: string, schema: JsonSchema): unknown {
  switch (primaryType(schema)) {
    // Decimal text becomes a number too, so `limit=2.5` reads "expected int,
    // received number" rather than "received string".
    case "integer":
      return /^[+-]?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    case "number":
      return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : text;
    case "boolean":
      return text === "true" ? true : text === "false" ? false : text;
    default:
      return text;
  }
}

/** Coerce raw query values (`name -> all values`) for one operation. */
export function coerceQuery(raw: Record<string, string[]>, types: QueryParamTypes): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(raw)) {
    const schema = types.get(name);
    if (!schema) {
      out[name] = values.length === 1 ? values[0] : values;
      continue;
    }
    if (primaryType(schema) === "array") {
      const items = values.flatMap((v) => v.split(",")).filter((v) => v !== "");
      out[name] = items.map((v) => coerceScalar(v, schema.items ?? {}));
    } else {
      // A repeated scalar stays an array so the schema rejects it.
      out[name] = values.length === 1 ? coerceScalar(values[0]!, schema) : values;
    }
  }
  return out;
}
