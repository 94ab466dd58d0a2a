// Small helpers to read the generated OpenAPI document in tests: load it,
// follow local $refs, and collect the error codes a response schema admits.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export type Json = any;

export const documentPath = fileURLToPath(new URL("../../generated/openapi.json", import.meta.url));

export function loadDocument(): Json {
  return JSON.parse(readFileSync(documentPath, "utf8"));
}

export function deref(doc: Json, node: Json): Json {
  let current = node;
  const seen = new Set<string>();
  while (current && typeof current === "object" && typeof current.$ref === "string") {
    if (seen.has(current.$ref)) throw new Error(`cyclic $ref ${current.$ref}`);
    seen.add(current.$ref);
    const parts = current.$ref
      .replace(/^#\//, "")
      .split("/")
      .map((p: string) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    current = parts.reduce((acc: Json, key: string) => acc?.[key], doc);
  }
  return current;
}

/** Every value the schema allows for `error_code`, looking through unions and allOf. */
export function errorCodesOf(doc: Json, schema: Json, depth = 0): string[] {
  const s = deref(doc, schema);
  if (!s || typeof s !== "object" || depth > 8) return [];
  const out: string[] = [];
  for (const key of ["oneOf", "anyOf", "allOf"]) {
    for (const branch of s[key] ?? []) out.push(...errorCodesOf(doc, branch, depth + 1));
  }
  const code = s.properties?.error_code ? deref(doc, s.properties.error_code) : undefined;
  if (code) {
    if (Array.isArray(code.enum)) out.push(...code.enum);
    if (typeof code.const === "string") out.push(code.const);
    for (const key of ["oneOf", "anyOf"]) {
      for (const branch of code[key] ?? []) {
        const b = deref(doc, branch);
        if (Array.isArray(b.enum)) out.push(...b.enum);
        if (typeof b.const === "string") out.push(b.const);
      }
    }
  }
  return out;
}

export interface DocOperation {
  method: string;
  path: string;
  operation: Json;
}

export function operationsOf(doc: Json): DocOperation[] {
  const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
  const out: DocOperation[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of methods) {
      if (item[method]) out.push({ method, path, operation: item[method] });
    }
  }
  return out;
}

export function responseCodes(doc: Json, operation: Json): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
    const r = deref(doc, response);
    const schema = r?.content?.["application/json"]?.schema;
    out.set(status, schema ? errorCodesOf(doc, schema) : []);
  }
  return out;
}
