import type { DatasetsDataset } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { bodyOf, dataOf, isObject } from "../typed.ts";
import { cpSource } from "./support/custom-parameters.ts";
import type { Mention } from "./support/mentions.ts";

/** Analysis actions whose mention field carries the action's own name. */
const SAME_NAME = [
  "tone_of_voice",
  "narrative_structure",
  "hook",
  "cta",
  "mentioned_brands",
  "emotions",
  "questions",
  "entities",
  "sentiment",
] as const;

/** A value that carries something: not null, "", an empty array, or an object whose every value is unpopulated (`{text: null}`). */
function populated(v: unknown): boolean {
  if (v === null || v === undefined || v === "") return false;
  if (Array.isArray(v)) return v.some(populated);
  if (isObject(v)) return Object.values(v).some(populated);
  return true;
}

/** A dataset's mentions as POST /v1/mentions lists them agree with its mentions_count, and carry no analysis its run did not ask for. */
export default defineCheck({
  id: "dataset-mentions-consistent",
  phase: "groups",
  rule: "A dataset filled by one run: mentions_count equals the distinct (source, id) posts POST /v1/mentions lists for it; its mentions carry no analysis field (named as its action) that the run did not ask for",
  section: "Resources › Dataset (mentions_count); Resources › Mention (analysis fields)",
  severity: "major",
  asserts: {
    count: seed("dataset.mentions-count-dedup", words("posts counted once per (source, post id)")),
    analysis: seed(
      "mention.analysis-only-when-ran",
      words("Analysis fields are populated only when the matching analysis ran on the parent run."),
    ),
  },
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/datasets/{dataset_id}", "POST /v1/mentions"],
  async run(ctx) {
    const src = await cpSource(ctx);
    const read = await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(src.id)}` });
    const count = dataOf<DatasetsDataset>(read)?.mentions_count;
    if (read.status !== 200 || typeof count !== "number")
      ctx.skip(`the source dataset could not be read (${read.status})`);
    const posts = new Set<string>();
    const mentions: Mention[] = [];
    let cursor: string | undefined;
    let complete = false;
    let last = read;
    for (let page = 0; page < 5; page++) {
      last = await ctx.req({
        method: "POST",
        path: "/v1/mentions",
        body: { dataset_ids: [src.id], limit: 100, ...(cursor ? { cursor } : {}) },
      });
      const body = bodyOf<{ data: Mention[]; has_next: boolean; cursor: string | null }>(last);
      if (last.status !== 200 || !Array.isArray(body?.data)) break;
      for (const m of body.data) {
        if (!isObject(m)) continue;
        mentions.push(m);
        posts.add(JSON.stringify([m.source, m.id]));
      }
      if (!body.has_next) {
        complete = true;
        break;
      }
      if (typeof body.cursor !== "string") break;
      cursor = body.cursor;
    }
    if (!complete) ctx.notExercised(`the dataset's mentions could not be listed to the end (${last.status})`);
    else
      ctx.expect(
        count === posts.size,
        {
          judges: "count",
          title: `mentions_count ${count} but POST /v1/mentions lists ${posts.size} distinct (source, id) posts for the dataset`,
          received: { mentions_count: count, distinct_posts: posts.size, listed: mentions.length },
          expected: `mentions_count ${posts.size}`,
        },
        read,
      );

    // the analysis the run asked for, as its params echo it
    const asked: unknown = src.run?.params?.content_analysis_actions;
    if (!Array.isArray(asked))
      return ctx.notExercised("the run's params echo no content_analysis_actions: what it asked for is unknown");
    const notAsked = SAME_NAME.filter((a) => !asked.includes(a));
    // a post that also sits in another dataset may carry analysis another run did
    const own = mentions.filter(
      (m) => Array.isArray(m.datasets) && m.datasets.every((d) => isObject(d) && d.id === src.id),
    );
    if (own.length === 0 || notAsked.length === 0)
      return ctx.notExercised("no mention of this dataset alone, or the run asked for every analysis");
    const bad = own.flatMap((m) =>
      notAsked
        .filter((f) => populated((m as Record<string, unknown>)[f]))
        .map((f) => ({ source: m.source, id: m.id, field: f, value: (m as Record<string, unknown>)[f] })),
    );
    ctx.expect(
      bad.length === 0,
      {
        judges: "analysis",
        title: `${bad.length} analysis field(s) populated on mentions whose run did not ask for that analysis (${[...new Set(bad.map((b) => b.field))].join(", ")})`,
        received: { content_analysis_actions: asked, populated: bad.slice(0, 5) },
        expected: `${notAsked.join(", ")}: not populated`,
      },
      last,
    );
  },
});
