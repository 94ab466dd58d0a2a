import { defineCheck } from "../define-check.ts";
import { bodyOf, dataOf, isObject } from "../typed.ts";
import type { Exchange } from "../http.ts";
import type { DatasetsDatasetRun } from "../../../generated/client/types.gen.ts";
import type { CheckContext } from "../types.ts";
import { seen } from "./support/util.ts";
import {
  pollUntil,
  postUrls,
  priceOf,
  refusedSetup,
  setupRefusal,
  sourceDataset,
  terminalType,
} from "./support/groups.ts";

/** The (source, id) posts a dataset's mention search lists (one page of 100: the dataset holds two posts). */
async function postsOf(ctx: CheckContext, dataset: string): Promise<{ ex: Exchange; posts: Set<string> }> {
  const ex = await ctx.req({ method: "POST", path: "/v1/mentions", body: { dataset_ids: [dataset], limit: 100 } });
  const data: unknown = bodyOf<{ data: unknown[] }>(ex)?.data;
  const rows = Array.isArray(data) ? data.filter(isObject) : [];
  return { ex, posts: new Set(rows.map((m) => JSON.stringify([m.source, m.id]))) };
}

/**
 * A second run into a dataset adds to its pool: the posts of the first run
 * are still listed after the second, and the second run's posts join them.
 * Two one-URL runs, so the cost is two mentions.
 */
export default defineCheck({
  id: "dataset-mentions-pool",
  phase: "resources",
  rule: "After a second URL run into a dataset completes, the dataset's mention search still lists the first run's posts and also the second run's",
  section: "Endpoints › Datasets (rules 3: mentions live across runs)",
  severity: "major",
  rules: { seed: "Mentions live across runs; a new run adds to the same pool." },
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/datasets/{dataset_id}/runs/{run_id}", "POST /v1/mentions"],
  async run(ctx) {
    const src = await sourceDataset(ctx, "pool", postUrls(ctx, "reddit", 1, "poolA"));
    const first = await postsOf(ctx, src.id);
    if (first.posts.size === 0) return ctx.notExercised("the first run collected no post");
    ctx.charge((await priceOf(ctx, "mention")).mul(20).toFixed(), "second run of the pool dataset (one URL)");
    const runs = `/v1/datasets/${encodeURIComponent(src.id)}/runs`;
    const create = await ctx.req({
      method: "POST",
      path: runs,
      body: {
        search_query: { type: "url", source_urls: postUrls(ctx, "reddit", 1, "poolB") },
        count: 20,
        num_comments_per_post: 0,
      },
    });
    const runId = dataOf<DatasetsDatasetRun>(create)?.id;
    if (create.status !== 202 || typeof runId !== "string") {
      const refusal = setupRefusal(create);
      if (refusal) refusedSetup(ctx, refusal, "the second run of the pool dataset");
      return ctx.fail(
        { title: `a second run into the dataset answered ${create.status}`, received: seen(create), expected: 202 },
        create,
      );
    }
    const obs = await pollUntil<DatasetsDatasetRun>(ctx, `${runs}/${encodeURIComponent(runId)}`, terminalType);
    const end = obs.at(-1)!.d;
    if (end?.status?.type !== "completed")
      return ctx.notExercised(`the second run ended ${end?.status?.type ?? obs.at(-1)!.ex.status}`);
    const after = await postsOf(ctx, src.id);
    const lost = [...first.posts].filter((p) => !after.posts.has(p));
    ctx.expect(
      after.ex.status === 200 && lost.length === 0,
      {
        title: `after a second run the dataset no longer lists ${lost.length} post(s) of the first`,
        received: { lost, listed: [...after.posts] },
        expected: "every post of the first run still listed",
      },
      after.ex,
    );
    if (typeof end.mentions_count === "number" && end.mentions_count > 0)
      ctx.expect(
        after.posts.size > first.posts.size,
        {
          title: `the second run collected ${end.mentions_count} mention(s) but the dataset lists ${after.posts.size} post(s), as before it`,
          received: [...after.posts],
          expected: "the first run's posts and the second run's",
        },
        after.ex,
      );
  },
});
