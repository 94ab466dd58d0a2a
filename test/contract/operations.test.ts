// The generated document against the seed: the 49 operations, their success
// statuses, their named error codes, the shared responses every operation
// must carry, and an example on every success response.
import { describe, expect, it } from "vitest";
import { deref, loadDocument, operationsOf, responseCodes } from "./document.js";
import { addedErrorCodes, seedErrorCodes, seedOperations } from "./seed-operations.js";

const doc = loadDocument();
const operations = operationsOf(doc);
const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const byKey = new Map(operations.map((o) => [key(o.method, o.path), o]));

describe("generated OpenAPI document", () => {
  it("is OpenAPI 3.1.0 with info.version 0.1.0", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("0.1.0");
  });

  it("holds exactly the seed's 49 operations", () => {
    expect(seedOperations).toHaveLength(49);
    const documented = operations.map((o) => key(o.method, o.path)).sort();
    const expected = seedOperations.map((o) => key(o.method, o.path)).sort();
    expect(documented).toEqual(expected);
  });

  it("admits all 36 error codes of the seed plus the recorded additions, and no others", () => {
    const schemaCodes = deref(doc, doc.components.schemas["Common.ErrorCode"]);
    const listed = (schemaCodes.enum ?? schemaCodes.anyOf?.flatMap((b: any) => b.enum ?? [b.const]) ?? []) as string[];
    expect(new Set(listed)).toEqual(
      new Set([...seedErrorCodes, ...addedErrorCodes.perOperation, ...addedErrorCodes.transport]),
    );
    const answered = new Set<string>();
    for (const o of operations)
      for (const codes of responseCodes(doc, o.operation).values()) codes.forEach((c) => answered.add(c));
    const unknown = [...answered].filter(
      (c) => !seedErrorCodes.includes(c) && !addedErrorCodes.perOperation.includes(c),
    );
    expect(unknown).toEqual([]);
  });

  describe.each(seedOperations)("$method $path", (seed) => {
    const found = byKey.get(key(seed.method, seed.path));
    const responses = found?.operation.responses ?? {};

    it("exists with an operationId, a tag, a summary and a description", () => {
      expect(found).toBeDefined();
      expect(found!.operation.operationId).toBeTruthy();
      expect(found!.operation.tags?.length).toBeGreaterThan(0);
      expect(found!.operation.summary).toBeTruthy();
      expect(found!.operation.description).toBeTruthy();
    });

    it(`answers ${seed.success} on success and no other 2xx`, () => {
      const successes = Object.keys(responses).filter((s) => s.startsWith("2"));
      expect(successes).toEqual([String(seed.success)]);
    });

    it("documents every error code the seed names for it", () => {
      const codes = new Set([...responseCodes(doc, found!.operation).values()].flat());
      for (const c of seed.codes) expect([...codes], `missing ${c}`).toContain(c);
    });

    it("documents 401, 429 with Retry-After, and 500", () => {
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(["401", "429", "500"]));
      const tooMany = deref(doc, responses["429"]);
      expect(Object.keys(tooMany.headers ?? {})).toContain("Retry-After");
    });

    it("carries RateLimit headers on every response but 401, 417 and 431", () => {
      for (const [status, response] of Object.entries<any>(responses)) {
        // No key is known on these: 401 refuses it, 417 and 431 are answered
        // by the HTTP layer before it is read (D-AUTH-ORDER, D-TRANSPORT-ERRORS).
        if (status === "401" || status === "417" || status === "431") continue;
        const headers = Object.keys(deref(doc, response).headers ?? {});
        expect(headers, `status ${status}`).toEqual(
          expect.arrayContaining(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]),
        );
      }
    });

    it("documents 422 when it takes a parameter or a body", () => {
      const takesInput = (found!.operation.parameters?.length ?? 0) > 0 || !!found!.operation.requestBody;
      expect("422" in responses).toBe(takesInput);
    });

    it("has an example on its success response", () => {
      if (seed.success === 204) return;
      const media = deref(doc, responses[String(seed.success)])?.content?.["application/json"];
      const examples = Object.keys(media?.examples ?? {});
      expect(examples.length + (media?.example ? 1 : 0)).toBeGreaterThan(0);
    });

    it("names every schema it uses (no inline objects in bodies)", () => {
      const schemas = [found!.operation.requestBody?.content?.["application/json"]?.schema];
      for (const r of Object.values<any>(responses)) schemas.push(deref(doc, r)?.content?.["application/json"]?.schema);
      for (const s of schemas.filter(Boolean)) {
        const named =
          typeof s.$ref === "string" || (s.anyOf ?? s.oneOf ?? []).every((b: any) => typeof b.$ref === "string");
        expect(named, JSON.stringify(s).slice(0, 200)).toBe(true);
      }
    });
  });
});
