// Provenance of constraints: marks authored in TypeSpec (@seed, @decided)
// reach the kit through the generated document, and a failed constraint is
// judged by the mark that covers it. A small hand-written document pins the
// resolution order; the real contract pins a few elements end to end.
import { describe, expect, it } from "vitest";
import type * as z from "zod";
import { Contract } from "../src/contract.ts";
import type { OpenApiDocument } from "../src/openapi.ts";
import { judgeIssues, provenanceOf, ProvenanceMap, type ZodIssueLike } from "../src/provenance.ts";

const seed = (quote: string, ...kinds: string[]) => ({ seed: quote, ...(kinds.length ? { kinds } : {}) });
const decided = (decision: string, ...kinds: string[]) => ({ decision, ...(kinds.length ? { kinds } : {}) });

const doc: OpenApiDocument = {
  components: {
    schemas: {
      Name: { type: "string", minLength: 1, maxLength: 255, "x-provenance": [seed("name 1-255")] },
      Link: { type: "string", format: "uri" },
      Post: {
        type: "object",
        required: ["id", "name", "url", "count", "extra"],
        properties: {
          id: { type: "string" },
          name: { $ref: "#/components/schemas/Name" },
          url: { type: "string", format: "uri", "x-provenance": [decided("D-URL", "format")] },
          link: { $ref: "#/components/schemas/Link" },
          count: { type: "integer", format: "int32" },
          extra: { type: "string", "x-provenance": [decided("D-EXTRA")] },
          author: { $ref: "#/components/schemas/Author" },
        },
        "x-provenance": [seed("Post table")],
      },
      Author: {
        type: "object",
        required: ["handle"],
        properties: { handle: { type: "string", pattern: "^@" } },
        "x-provenance": [decided("D-AUTHOR")],
      },
    },
  },
};
const map = new ProvenanceMap(doc);
const root = { $ref: "#/components/schemas/Post" };
const rule = (path: PropertyKey[], code: string, body: unknown, extra: Partial<ZodIssueLike> = {}) =>
  judgeIssues(map, root, [{ code, path, ...extra }], body)[0]?.constraint;

describe("provenance resolution", () => {
  const body = { id: "p1", name: "n", url: "u", count: 1, extra: "e", author: { handle: "x" } };
  it("a model's seed mark covers the structural kinds of its properties", () => {
    expect(rule(["id"], "invalid_type", { ...body, id: undefined })).toMatchObject({
      element: "Post.id",
      kind: "required",
      provenance: { kind: "seed", quote: "Post table" },
    });
    expect(rule(["id"], "invalid_type", { ...body, id: 3 })?.provenance).toEqual({ kind: "seed", quote: "Post table" });
  });
  it("a scalar's seed mark covers its bounds; a property's decision names only its kinds", () => {
    expect(rule(["name"], "too_big", body)).toMatchObject({ kind: "bounds", provenance: { kind: "seed" } });
    expect(rule(["url"], "invalid_format", body, { format: "url" })).toMatchObject({
      element: "Post.url",
      demand: "format uri",
      provenance: { kind: "decision", decision: "D-URL" },
    });
    expect(rule(["url"], "invalid_type", { ...body, url: undefined })?.provenance?.kind).toBe("seed");
  });
  it("a model's seed mark does not claim a format: an unmarked format has no provenance (the gate fails it)", () => {
    expect(rule(["link"], "invalid_format", body, { format: "url" })?.provenance).toBeUndefined();
    const missing = [...map.constraints()].filter((c) => !c.provenance).map((c) => `${c.element}: ${c.demand}`);
    expect(missing).toEqual(["Link: format uri", "Post.link: format uri"]);
  });
  it("number widths are D-NUMBER-WIDTH; a decision on a model covers what is inside it", () => {
    expect(rule(["count"], "too_big", body)?.provenance).toEqual({ kind: "decision", decision: "D-NUMBER-WIDTH" });
    expect(rule(["extra"], "invalid_type", { ...body, extra: undefined })?.provenance).toEqual({
      kind: "decision",
      decision: "D-EXTRA",
    });
    expect(rule(["author", "handle"], "invalid_format", body, { format: "regex" })).toMatchObject({
      element: "Author.handle",
      kind: "pattern",
      provenance: { kind: "decision", decision: "D-AUTHOR" },
    });
  });
});

describe("the contract's own marks", () => {
  const contract = Contract.load();
  const m = provenanceOf(contract.doc);
  const judged = (ref: string, schema: z.ZodType, body: unknown) => {
    const r = schema.safeParse(body);
    expect(r.success).toBe(false);
    return judgeIssues(m, { $ref: `#/components/schemas/${ref}` }, r.error!.issues, body).map((j) => j.constraint);
  };
  it("a dataset's url that is not a URI is a decision; a missing mentions_count breaks the seed's field list", () => {
    const zDataset = contract.zodOf("Datasets.Dataset")!;
    const ok = {
      id: "ds_1",
      name: "n",
      mentions_count: 0,
      estimated_mentions_count: 0,
      images_count: 0,
      videos_count: 0,
      created_at: "2026-01-01T00:00:00Z",
      updated_at: "2026-01-01T00:00:00Z",
      url: "https://example.com/ds_1",
    };
    expect(zDataset.safeParse(ok).success).toBe(true);
    expect(judged("Datasets.Dataset", zDataset, { ...ok, url: "not a uri" })[0]?.provenance?.kind).toBe("decision");
    const missing = { ...ok } as Record<string, unknown>;
    delete missing.mentions_count;
    expect(judged("Datasets.Dataset", zDataset, missing)[0]).toMatchObject({
      element: "Datasets.Dataset.mentions_count",
      kind: "required",
      provenance: { kind: "seed" },
    });
  });
});
