// The error catalogue: every `error_code`'s HTTP status and `transient`, read
// from the generated OpenAPI document rather than chosen at a throw site. A
// code documented under two statuses is a contract bug, so loading fails.
// The per-operation table lets a test prove that the reference never answers
// a code with a status the contract does not document for that operation.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CommonErrorCode } from "../../../generated/client/types.gen.ts";

export type ErrorCode = CommonErrorCode;

export interface ErrorSpec {
  status: number;
  transient: boolean;
}

type Schema = Record<string, unknown>;
interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }
    >
  >;
  components: { schemas: Record<string, Schema> };
}

const documentUrl = new URL("../../../generated/openapi.json", import.meta.url);

function loadDocument(): OpenApiDoc {
  return JSON.parse(readFileSync(fileURLToPath(documentUrl), "utf8")) as OpenApiDoc;
}

/** Every (error_code, transient) an error body schema admits, walking refs and unions. */
function errorBodies(
  doc: OpenApiDoc,
  schema: Schema | undefined,
  seen = new Set<string>(),
): { codes: string[]; transient: boolean | null }[] {
  if (!schema) return [];
  const ref = schema.$ref as string | undefined;
  if (ref) {
    const name = ref.split("/").pop()!;
    if (seen.has(name)) return [];
    seen.add(name);
    return errorBodies(doc, doc.components.schemas[name], seen);
  }
  const out: { codes: string[]; transient: boolean | null }[] = [];
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    for (const part of (schema[key] as Schema[] | undefined) ?? []) out.push(...errorBodies(doc, part, seen));
  }
  const props = schema.properties as Record<string, Schema> | undefined;
  if (props?.error_code) {
    const codes = literals(doc, props.error_code);
    const t = props.transient ? literals(doc, props.transient) : [];
    out.push({ codes: codes.map(String), transient: t.length === 1 ? Boolean(t[0]) : null });
  }
  return out;
}

/** Literal values a schema allows (enum, const, unions of those). */
function literals(doc: OpenApiDoc, schema: Schema): unknown[] {
  const ref = schema.$ref as string | undefined;
  if (ref) return literals(doc, doc.components.schemas[ref.split("/").pop()!]!);
  if (Array.isArray(schema.enum)) return schema.enum;
  if ("const" in schema) return [schema.const];
  const parts = [...((schema.anyOf as Schema[]) ?? []), ...((schema.oneOf as Schema[]) ?? [])];
  return parts.flatMap((p) => literals(doc, p));
}

function build(doc: OpenApiDoc) {
  const catalogue = new Map<string, ErrorSpec>();
  const byOperation = new Map<string, Map<string, number>>();
  for (const ops of Object.values(doc.paths)) {
    for (const op of Object.values(ops)) {
      if (!op?.responses) continue;
      const documented = new Map<string, number>();
      for (const [statusText, response] of Object.entries(op.responses)) {
        const status = Number(statusText);
        if (!Number.isInteger(status) || status < 400) continue;
        for (const body of errorBodies(doc, response.content?.["application/json"]?.schema)) {
          for (const code of body.codes) {
            const transient = body.transient ?? status >= 500;
            const known = catalogue.get(code);
            if (known && known.status !== status) {
              throw new Error(`error_code ${code} is documented as ${known.status} and ${status}`);
            }
            if (!known || (body.transient !== null && known.transient !== transient))
              catalogue.set(code, { status, transient });
            documented.set(code, status);
          }
        }
      }
      if (op.operationId) byOperation.set(op.operationId, documented);
    }
  }
  return { catalogue, byOperation };
}

const built = build(loadDocument());

/** Status and transient flag of a code, as the contract documents it. */
export function errorSpec(code: ErrorCode): ErrorSpec {
  const spec = built.catalogue.get(code);
  if (spec) return spec;
  // Reserved codes no operation documents (e.g. `unprocessable_entity`):
  // fall back to the status their doc names, so a throw never guesses.
  const reserved: Partial<Record<ErrorCode, ErrorSpec>> = { unprocessable_entity: { status: 422, transient: false } };
  const r = reserved[code];
  if (!r) throw new Error(`error_code ${code} is not documented by any operation of the contract`);
  return r;
}

/** Codes and their statuses the contract documents for one operation id. */
export function documentedErrors(operationId: string): ReadonlyMap<string, number> {
  return built.byOperation.get(operationId) ?? new Map();
}

/** The whole catalogue (code -> spec), for tests and docs. */
export function errorCatalogue(): ReadonlyMap<string, ErrorSpec> {
  return built.catalogue;
}
