// Provenance of constraints: marks authored in TypeSpec (@seed, @decided)
// reach the kit through the generated document, and a failed constraint is
// judged by the mark that covers it. A small hand-written document pins the
// resolution order; the real contract pins a few elements end to end.
import { describe, expect, it } from "vitest";
import type * as z from "zod";
import { Contract } from "../src/contract.ts";
import type { OpenApiDocument } from "../src/openapi.ts";
import {
  errorCodeFindings,
  errorCodeProvenance,
  judgeIssues,
  provenanceOf,
  ProvenanceMap,
  type ZodIssueLike,
} from "../src/provenance.ts";
import type { OperationObject } from "../src/openapi.ts";
import { factIn, lowerBound, notNull, requiredHere, typed, upperBound } from "../src/grounding/facts.ts";

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

describe("grounded marks (the provenance gate's facts)", () => {
  const row = (field: string) => `| ${field} | integer |`;
  const g = (marks: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) =>
    new ProvenanceMap({
      components: {
        schemas: {
          Thing: {
            type: "object",
            required: ["id", "count", "label"],
            properties: {
              id: { type: "string" },
              count: { type: "integer", minimum: 1, maximum: 5, ...extra },
              label: { type: "string", enum: ["a", "b"] },
            },
            "x-provenance": marks,
          },
        },
      },
    });
  const of = (map: ProvenanceMap, element: string, demand: string) =>
    [...map.constraints()].find((c) => c.element === element && c.demand === demand)?.provenance;

  it("picks, of several seed marks, the one whose quote states the constraint", () => {
    const map = g([
      seed("Thing: `id`, `count`, `label`."),
      seed("Ids are opaque strings.", "type", "nullable"),
      seed(row("count")),
    ]);
    expect(of(map, "Thing.id", "type string")).toEqual({ kind: "seed", quote: "Ids are opaque strings." });
    expect(of(map, "Thing.count", "type integer")).toEqual({ kind: "seed", quote: row("count") });
    // nothing states label's type: the first covering quote stays its provenance (the gate fails it)
    expect(of(map, "Thing.label", "type string")).toEqual({ kind: "seed", quote: "Thing: `id`, `count`, `label`." });
    expect(of(map, "Thing.id", "present")).toEqual({ kind: "seed", quote: "Thing: `id`, `count`, `label`." });
  });

  it("a decision of the same element still wins over a quote that states the constraint", () => {
    const map = g([seed(row("count")), decided("D-X", "type")]);
    expect(of(map, "Thing.count", "type integer")).toEqual({ kind: "decision", decision: "D-X" });
  });

  it("a mark naming one end of a bound covers that end only", () => {
    const map = new ProvenanceMap({
      components: {
        schemas: {
          N: {
            type: "integer",
            minimum: 1,
            maximum: 5,
            "x-provenance": [seed("at most 5", "max"), decided("D-MIN", "min")],
          },
        },
      },
    });
    const list = [...map.constraints()];
    expect(list.find((c) => c.demand === "maximum 5")?.provenance).toEqual({ kind: "seed", quote: "at most 5" });
    expect(list.find((c) => c.demand === "minimum 1")?.provenance).toEqual({ kind: "decision", decision: "D-MIN" });
  });

  it("asserts the facts the gate looks for: required words, types beside the field, values, bounds at their end", () => {
    expect(factIn("body `{name: string 1-255, required}`", requiredHere("name"))).toBe(true);
    expect(
      factIn("| POST /v1/custom_parameters | `{name, instructions, value_type}` |", requiredHere("instructions")),
    ).toBe(false);
    expect(
      factIn(
        "Custom parameter: `id`, `name` (string, required non-empty, unique per account), `instructions` (string)",
        requiredHere("instructions"),
      ),
    ).toBe(false);
    expect(factIn("| is_verified | boolean |", typed("id", "string"))).toBe(false);
    expect(factIn("Ids are opaque strings.", typed("dataset_id", "string"))).toBe(true);
    expect(factIn("`{detail: [{loc: [string], msg: string, type: string}]}`", typed("loc", "items:string"))).toBe(true);
    expect(factIn("Chat: `id`, `name` (string or null; named later)", notNull("name", "string"))).toBe(false);
    expect(factIn("`comment_count`, `new_mention_count` (integers)", typed("comment_count", "integer"))).toBe(true);
    expect(factIn("post_refs: 1-5 of {id, source}", upperBound(5))).toBe(true);
    expect(factIn("post_refs: 1-5 of {id, source}", lowerBound(5))).toBe(false);
  });
});

describe("error codes per operation", () => {
  const contract = Contract.load();
  const doc = contract.doc;
  const op = (path: string, method: string) => doc.paths![path]![method as "get"] as OperationObject;
  it("is the seed's where the operation's passage names the code and the seed gives it that status", () => {
    expect(errorCodeProvenance(doc, op("/v1/mentions", "post"), "404", "dataset_not_found")?.kind).toBe("seed");
    expect(
      errorCodeProvenance(doc, op("/v1/datasets/{dataset_id}/runs", "post"), "402", "insufficient_credits_dataset_run")
        ?.kind,
    ).toBe("seed");
  });
  it("is a decision where the row names no such code, or the seed shows the code's status nowhere", () => {
    // the ask's row names no 404; tracking_agent_limit_reached is named but its status is not shown
    expect(errorCodeProvenance(doc, op("/v1/ask", "post"), "404", "chat_not_found")).toEqual({
      kind: "decision",
      decision: "D-ASK-UNKNOWN-CHAT",
    });
    expect(errorCodeProvenance(doc, op("/v1/tracking_agents", "post"), "409", "tracking_agent_limit_reached")).toEqual({
      kind: "decision",
      decision: "D-409",
    });
  });
  it("leaves no documented code of any operation without a provenance (the gate's second rule)", () => {
    expect(errorCodeFindings(doc).filter((f) => !f.grounds)).toEqual([]);
  });
});
