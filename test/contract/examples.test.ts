// Every example in the document (request bodies and responses) parses with
// the generated zod schema of the element it illustrates, so the mock never
// serves data that a client validating with the same schemas would refuse.
import { describe, expect, it } from "vitest";
import * as zod from "../../generated/client/zod.gen.js";
import { deref, loadDocument, operationsOf } from "./document.js";

const doc = loadDocument();

/** `#/components/schemas/Datasets.DatasetPage` → the export `zDatasetsDatasetPage`. */
function zodFor(schema: any): { safeParse(v: unknown): { success: boolean; error?: unknown } } | undefined {
  const ref: string | undefined = schema?.$ref;
  if (!ref) return undefined;
  const name = "z" + ref.split("/").pop()!.replace(/\./g, "");
  return (zod as Record<string, any>)[name];
}

interface Case {
  where: string;
  schema: any;
  value: unknown;
}

const cases: Case[] = [];
for (const { method, path, operation } of operationsOf(doc)) {
  const body = operation.requestBody?.content?.["application/json"];
  for (const [title, ex] of Object.entries<any>(body?.examples ?? {})) {
    cases.push({ where: `${method.toUpperCase()} ${path} request "${title}"`, schema: body.schema, value: ex.value });
  }
  for (const [status, response] of Object.entries<any>(operation.responses ?? {})) {
    const media = deref(doc, response)?.content?.["application/json"];
    for (const [title, ex] of Object.entries<any>(media?.examples ?? {})) {
      cases.push({
        where: `${method.toUpperCase()} ${path} ${status} "${title}"`,
        schema: media.schema,
        value: ex.value,
      });
    }
  }
}

describe("document examples", () => {
  it("exist in number", () => {
    expect(cases.length).toBeGreaterThanOrEqual(49);
  });

  it.each(cases.map((c) => [c.where, c] as const))("%s matches its schema", (_, c) => {
    const branches = c.schema.anyOf ?? c.schema.oneOf ?? [c.schema];
    const validators = branches.map(zodFor).filter(Boolean);
    expect(validators.length, "schema has a generated validator").toBeGreaterThan(0);
    const results = validators.map((v: any) => v.safeParse(c.value));
    expect(
      results.some((r: any) => r.success),
      JSON.stringify(results.map((r: any) => r.error?.issues?.slice(0, 3))),
    ).toBe(true);
  });
});
