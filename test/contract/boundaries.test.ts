// The generated zod validators against the seed's bounds: each valid body is
// accepted, and each body that crosses one bound by one step is rejected.
// Cross-field rules that JSON Schema cannot state (a reversed date_range,
// more than 10 filters spread over several groups) are enforced by the server
// and tested in reference-impl/test.
import { describe, expect, it } from "vitest";
import * as z from "../../generated/client/zod.gen.js";

const accepts = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value).slice(0, 160)).toBe(true);
const rejects = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value).slice(0, 160)).toBe(false);

const promptQuery = { type: "prompt", sources: ["reddit", "tiktok"], search_query: "oat milk barista" };
const run = (extra: Record<string, unknown> = {}) => ({ search_query: promptQuery, ...extra });
const urls = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ source: "reddit", url: `https://www.reddit.com/r/coffee/comments/${i}` }));
const keyword = (value: string) => ({ type: "keyword", operator: "is", value });
const ref = (i: number) => ({ id: `t3_${i}`, source: "reddit" });

describe("dataset run body", () => {
  it("accepts a prompt search with defaults and a url search", () => {
    accepts(z.zDatasetRunsCreateBody, run());
    accepts(z.zDatasetRunsCreateBody, { search_query: { type: "url", source_urls: urls(100) } });
  });
  it("bounds count to 20-1000", () => {
    accepts(z.zDatasetRunsCreateBody, run({ count: 20 }));
    accepts(z.zDatasetRunsCreateBody, run({ count: 1000 }));
    rejects(z.zDatasetRunsCreateBody, run({ count: 19 }));
    rejects(z.zDatasetRunsCreateBody, run({ count: 1001 }));
  });
  it("bounds num_comments_per_post to 0-100", () => {
    accepts(z.zDatasetRunsCreateBody, run({ num_comments_per_post: 100 }));
    rejects(z.zDatasetRunsCreateBody, run({ num_comments_per_post: 101 }));
  });
  it("takes at most 100 source URLs", () => {
    rejects(z.zDatasetRunsCreateBody, { search_query: { type: "url", source_urls: urls(101) } });
  });
  it("bounds search_query to 1-5000 characters", () => {
    accepts(z.zDatasetRunsCreateBody, run({ search_query: { ...promptQuery, search_query: "x".repeat(5000) } }));
    rejects(z.zDatasetRunsCreateBody, run({ search_query: { ...promptQuery, search_query: "x".repeat(5001) } }));
    rejects(z.zDatasetRunsCreateBody, run({ search_query: { ...promptQuery, search_query: "" } }));
  });
  it("rejects an unknown source and an unknown search type", () => {
    rejects(z.zDatasetRunsCreateBody, run({ search_query: { ...promptQuery, sources: ["myspace"] } }));
    rejects(z.zDatasetRunsCreateBody, run({ search_query: { ...promptQuery, type: "hashtag" } }));
  });
  it("rejects an unknown content analysis action", () => {
    accepts(z.zDatasetRunsCreateBody, run({ content_analysis_actions: ["sentiment", "hook"] }));
    rejects(z.zDatasetRunsCreateBody, run({ content_analysis_actions: ["vibes"] }));
  });
  it("requires the search_query", () => {
    rejects(z.zDatasetRunsCreateBody, { count: 200 });
  });
});

describe("pagination query", () => {
  it("bounds limit to 1-100 and defaults it per list", () => {
    accepts(z.zDatasetsListQuery, { limit: 1 });
    accepts(z.zDatasetsListQuery, { limit: 100 });
    rejects(z.zDatasetsListQuery, { limit: 0 });
    rejects(z.zDatasetsListQuery, { limit: 101 });
    expect(z.zDatasetsListQuery.parse({}).limit).toBe(10);
    expect(z.zChatsListMessagesQuery.parse({}).limit).toBe(25);
    expect(z.zAccountUsageHistoryQuery.parse({}).limit).toBe(25);
    expect(z.zTrackingAgentsListMessagesQuery.parse({}).limit).toBe(25);
  });
  it("rejects an unknown order", () => {
    rejects(z.zDatasetsListQuery, { order: "sideways" });
  });
});

describe("mentions search body", () => {
  it("accepts ten filters and rejects eleven in one group", () => {
    accepts(z.zMentionsSearchBody, { filters: [Array.from({ length: 10 }, () => keyword("oat"))] });
    rejects(z.zMentionsSearchBody, { filters: [Array.from({ length: 11 }, () => keyword("oat"))] });
  });
  it("limits a keyword filter to two words", () => {
    accepts(z.zMentionsSearchBody, { filters: [[keyword("oat milk")]] });
    rejects(z.zMentionsSearchBody, { filters: [[keyword("oat milk latte")]] });
  });
  it("bounds limit to 1-100 with default 20 and rejects an unknown sort", () => {
    expect(z.zMentionsSearchBody.parse({}).limit).toBe(20);
    rejects(z.zMentionsSearchBody, { limit: 101 });
    rejects(z.zMentionsSearchBody, { sort: "random" });
  });
});

describe("ask body", () => {
  it("takes at most 50 post_refs", () => {
    accepts(z.zAskAskBody, {
      message: "What do people hate about oat milk?",
      context: { post_refs: Array.from({ length: 50 }, (_, i) => ref(i)) },
    });
    rejects(z.zAskAskBody, {
      message: "What do people hate about oat milk?",
      context: { post_refs: Array.from({ length: 51 }, (_, i) => ref(i)) },
    });
  });
  it("requires the message", () => {
    rejects(z.zAskAskBody, { context: {} });
  });
});

describe("custom parameter preview body", () => {
  const body = (n: number) => ({
    instructions: "Is the post about price?",
    value_type: "boolean",
    post_refs: Array.from({ length: n }, (_, i) => ref(i)),
  });
  it("takes 1-5 post_refs", () => {
    accepts(z.zCustomParametersPreviewBody, body(1));
    accepts(z.zCustomParametersPreviewBody, body(5));
    rejects(z.zCustomParametersPreviewBody, body(0));
    rejects(z.zCustomParametersPreviewBody, body(6));
  });
});

describe("names bounded to 1-255 characters", () => {
  it.each([
    ["dataset create", z.zDatasetsCreateBody],
    ["audience dataset create", z.zAudienceDatasetsCreateBody],
  ])("%s", (_, schema) => {
    accepts(schema, { name: "x" });
    accepts(schema, { name: "x".repeat(255) });
    rejects(schema, { name: "" });
    rejects(schema, { name: "x".repeat(256) });
  });
  it("dataset PATCH takes at most 255 characters and allows an empty string (stores null)", () => {
    accepts(z.zDatasetsUpdateBody, { name: "" });
    accepts(z.zDatasetsUpdateBody, {});
    rejects(z.zDatasetsUpdateBody, { name: "x".repeat(256) });
  });
});

describe("research preview body", () => {
  const base = { type: "prompt", search_query: "oat milk", sources: ["tiktok"] };
  it("takes exactly one time window", () => {
    accepts(z.zResearchPreviewsCreateBody, { ...base, time_filter: "past_month" });
    accepts(z.zResearchPreviewsCreateBody, { ...base, date_since: "2026-10-01", date_until: "2026-10-31" });
    rejects(z.zResearchPreviewsCreateBody, {
      ...base,
      time_filter: "past_month",
      date_since: "2026-10-01",
      date_until: "2026-10-31",
    });
    rejects(z.zResearchPreviewsCreateBody, base);
    rejects(z.zResearchPreviewsCreateBody, { ...base, date_since: "2026-10-01" });
  });
  it("rejects an unknown time_filter", () => {
    rejects(z.zResearchPreviewsCreateBody, { ...base, time_filter: "past_decade" });
  });
});

describe("tracking agent body", () => {
  const agent = (schedule: unknown) => ({
    name: "Oat milk weekly",
    instructions: "Flag price complaints",
    dataset_ids: ["ds_7Qm2vK9aLp"],
    schedule,
  });
  it("accepts daily and weekly schedules", () => {
    accepts(z.zTrackingAgentsCreateBody, agent({ frequency: "daily", time: "08:30" }));
    accepts(z.zTrackingAgentsCreateBody, agent({ frequency: "weekly", day: "monday", time: "23:59" }));
  });
  it("rejects a schedule time of 25:99 and a weekly schedule without a day", () => {
    rejects(z.zTrackingAgentsCreateBody, agent({ frequency: "daily", time: "25:99" }));
    rejects(z.zTrackingAgentsCreateBody, agent({ frequency: "weekly", time: "08:30" }));
  });
  it("bounds count to 20-1000", () => {
    rejects(z.zTrackingAgentsCreateBody, { ...agent({ frequency: "daily", time: "08:30" }), count: 1001 });
  });
});

describe("audience run body", () => {
  it("bounds total_profile_count to 1-2000 with default 300", () => {
    accepts(z.zAudienceDatasetsCreateRunBody, { source_dataset_id: "ds_7Qm2vK9aLp", total_profile_count: 2000 });
    rejects(z.zAudienceDatasetsCreateRunBody, { source_dataset_id: "ds_7Qm2vK9aLp", total_profile_count: 2001 });
    rejects(z.zAudienceDatasetsCreateRunBody, { source_dataset_id: "ds_7Qm2vK9aLp", total_profile_count: 0 });
    expect(z.zAudienceDatasetsCreateRunBody.parse({ source_dataset_id: "ds_1" }).total_profile_count).toBe(300);
  });
});

describe("discriminated unions", () => {
  it("come out of the generator as z.discriminatedUnion", async () => {
    const { readFileSync } = await import("node:fs");
    const source = readFileSync(new URL("../../generated/client/zod.gen.ts", import.meta.url), "utf8");
    for (const name of ["zDatasetsSearchQuery", "zMentionsFilter", "zCommonReference", "zTrackingAgentsSchedule"]) {
      expect(source, name).toMatch(new RegExp(`export const ${name} = z\\.discriminatedUnion\\(`));
    }
  });
});
