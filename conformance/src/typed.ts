// Reading a deployment's answers through the generated contract.
//
// A check never assumes that a field it needs is there: a deployment under
// test may send anything. So bodies are read as `Untrusted<T>`, the generated
// type `T` (generated/client/types.gen.ts) with every field optional, and a
// check narrows what it uses (`typeof run.id === "string"`). Where a check
// needs the whole body to be what the contract says before it can judge its
// own rule, `parseAs` validates it with the generated zod and returns either
// the typed value or the schema's complaint, which the check reports as a
// part of its rule it could not exercise (response-schema-conformance judges
// the shape itself).
import type { output, ZodType } from "zod";
import type { Exchange } from "./http.ts";

/** `T` as a deployment may have sent it: the same fields, none of them promised. */
export type Untrusted<T> = T extends readonly (infer U)[]
  ? Untrusted<U>[]
  : T extends object
    ? { [K in keyof T]?: Untrusted<T[K]> }
    : T;

/** A JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The whole JSON body, read as the contract type `T` (an envelope, an error body). */
export function bodyOf<T>(ex: Exchange): Untrusted<T> | undefined {
  return isObject(ex.json) ? (ex.json as Untrusted<T>) : undefined;
}

/** `data` of a success envelope, read as the resource type `T`. */
export function dataOf<T>(ex: Exchange): Untrusted<T> | undefined {
  const data = isObject(ex.json) ? ex.json.data : undefined;
  return isObject(data) ? (data as Untrusted<T>) : undefined;
}

/** `data` of a list envelope, each item read as `T`; an empty list when the body is not a list. */
export function itemsOf<T>(ex: Exchange): Untrusted<T>[] {
  const data = isObject(ex.json) ? ex.json.data : undefined;
  return Array.isArray(data) ? (data.filter(isObject) as Untrusted<T>[]) : [];
}

export type Parsed<S extends ZodType> = { ok: true; value: output<S> } | { ok: false; problem: string };

/** The body validated by a generated zod schema: the typed value, or the first complaint in words. */
export function parseAs<S extends ZodType>(ex: Exchange, schema: S): Parsed<S> {
  const r = schema.safeParse(ex.json);
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0];
  const at = issue?.path.length ? issue.path.join(".") : "(body)";
  return { ok: false, problem: `${at}: ${issue?.message ?? "does not match the contract's schema"}` };
}
