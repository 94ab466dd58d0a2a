// Every error an operation documents has a realistic example a mock can
// serve: the media type's own examples, or an example on every schema the
// body may take. A 422's first example (the one Prism answers an invalid
// request with) is the validation body, and its `loc` names a real field of
// that operation: a parameter of the named location, or a property of the
// request body.
import { describe, expect, it } from "vitest";
import * as zod from "../../generated/client/zod.gen.js";
import { deref, loadDocument, operationsOf, type Json } from "./document.js";

const doc = loadDocument();
const operations = operationsOf(doc);

const branchesOf = (schema: Json): Json[] => schema.anyOf ?? schema.oneOf ?? [schema];
const schemaExamples = (schema: Json): unknown[] => {
  const s = deref(doc, schema);
  return [...(s?.examples ?? []), ...(s?.example !== undefined ? [s.example] : [])];
};
const zodFor = (schema: Json): { safeParse(v: unknown): { success: boolean } } | undefined =>
  typeof schema?.$ref === "string"
    ? (zod as Record<string, any>)["z" + schema.$ref.split("/").pop().replace(/\./g, "")]
    : undefined;

/** Property names a request body schema admits at its top level, through unions. */
function bodyFields(schema: Json, depth = 0): Set<string> {
  const s = deref(doc, schema);
  const out = new Set<string>(Object.keys(s?.properties ?? {}));
  if (depth < 6)
    for (const b of [...(s?.anyOf ?? []), ...(s?.oneOf ?? [])]) for (const f of bodyFields(b, depth + 1)) out.add(f);
  return out;
}

const errorResponses = operations.flatMap(({ method, path, operation }) =>
  Object.entries<Json>(operation.responses ?? {})
    .filter(([status]) => Number(status) >= 400)
    .map(([status, response]) => ({
      where: `${method.toUpperCase()} ${path} ${status}`,
      operation,
      status,
      media: deref(doc, response)?.content?.["application/json"],
    })),
);

describe("error examples", () => {
  it("cover the documented errors", () => {
    // 49 operations, each with at least 401, 413, 415, 417, 429, 431 and 500.
    expect(errorResponses.length).toBeGreaterThanOrEqual(49 * 7);
  });

  it.each(errorResponses.map((r) => [r.where, r] as const))("%s has an example a mock can serve", (_, r) => {
    const own = Object.values<Json>(r.media?.examples ?? {});
    if (own.length > 0) return;
    for (const branch of branchesOf(r.media.schema)) {
      const examples = schemaExamples(branch);
      expect(examples.length, `${branch.$ref ?? "inline schema"} has no example`).toBeGreaterThan(0);
      const validator = zodFor(branch);
      expect(validator, `${branch.$ref} has a generated validator`).toBeDefined();
      for (const e of examples) expect(validator!.safeParse(e).success, JSON.stringify(e)).toBe(true);
    }
  });

  const unprocessable = errorResponses.filter((r) => r.status === "422");
  it("include a 422 on every operation that takes input", () => {
    expect(unprocessable.length).toBe(47);
  });

  it.each(unprocessable.map((r) => [r.where, r] as const))(
    "%s shows a validation body naming a field of the operation first",
    (_, r) => {
      const first = Object.values<Json>(r.media.examples ?? {})[0]?.value;
      expect(Array.isArray(first?.detail), "first example is the validation body").toBe(true);
      expect(first.detail.length).toBeGreaterThan(0);
      for (const issue of first.detail as { loc: string[] }[]) {
        const [where, field] = issue.loc;
        expect(["body", "query", "path"]).toContain(where);
        const names =
          where === "body"
            ? bodyFields(r.operation.requestBody?.content?.["application/json"]?.schema ?? {})
            : new Set<string>(
                (r.operation.parameters ?? [])
                  .map((p: Json) => deref(doc, p))
                  .filter((p: Json) => p.in === where)
                  .map((p: Json) => p.name),
              );
        expect([...names], `loc ${JSON.stringify(issue.loc)}`).toContain(field);
        expect(issue.loc).not.toContain("string");
      }
    },
  );
});
