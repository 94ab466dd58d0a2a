import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { bodyOf, dataOf, isObject } from "../typed.ts";
import type { Exchange } from "../http.ts";
import type { DatasetsDataset, DatasetsDatasetRun } from "../../../generated/client/types.gen.ts";
import type { CheckContext } from "../types.ts";
import { setupNotAccepted } from "./support/util.ts";
import {
  countOf,
  pollUntil,
  postUrls,
  priceOf,
  refusedSetup,
  setupRefusal,
  sourceDataset,
  terminalType,
} from "./support/groups.ts";

/** The (source, id) posts a dataset's mention search lists (one page of 100: the dataset holds a post or two). */
async function postsOf(ctx: CheckContext, dataset: string): Promise<{ ex: Exchange; posts: Set<string> }> {
  const ex = await ctx.req({ method: "POST", path: "/v1/mentions", body: { dataset_ids: [dataset], limit: 100 } });
  const data: unknown = bodyOf<{ data: unknown[] }>(ex)?.data;
  const rows = Array.isArray(data) ? data.filter(isObject) : [];
  return { ex, posts: new Set(rows.map((m) => JSON.stringify([m.source, m.id]))) };
}

/** The dataset's own `mentions_count` (posts counted once per (source, post id) across runs), when it reports one. */
async function countOfDataset(ctx: CheckContext, dataset: string): Promise<number | undefined> {
  const ex = await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(dataset)}` });
  return ex.status === 200 ? countOf(dataOf<DatasetsDataset>(ex)?.mentions_count) : undefined;
}

/**
 * A second run into a dataset adds to its pool: the posts listed after the
 * first run are still listed after the second, and when the deployment
 * reports that the dataset gained posts (its mentions_count, else the run's
 * new_mentions_count) the listing gained posts too. Two one-URL runs, each
 * URL a distinct well-formed post; whether they are two posts is the
 * deployment's to say, never assumed. Cost: two mentions.
 */
export default defineCheck({
  id: "dataset-mentions-pool",
  phase: "resources",
  rule: "After a second URL run into a dataset completes, the dataset's mention search still lists every post it listed after the first run, and lists new posts when the dataset reports it gained some",
  section: "Endpoints › Datasets (rules 3: mentions live across runs)",
  severity: "major",
  asserts: {
    kept: seed("datasets.runs.mentions-pool", words("Mentions live across runs")),
    added: seed("datasets.runs.mentions-pool", words("a new run adds to the same pool")),
  },
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/datasets/{dataset_id}/runs/{run_id}", "POST /v1/mentions"],
  async run(ctx) {
    const src = await sourceDataset(ctx, "pool", postUrls(ctx, "reddit", 1, "poolA"));
    const first = await postsOf(ctx, src.id);
    if (first.ex.status !== 200) setupNotAccepted(ctx, "the mention search of the first run's dataset", first.ex);
    if (first.posts.size === 0) return ctx.skip("not exercised: the first run's dataset lists no post");
    const before = await countOfDataset(ctx, src.id);
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
      return setupNotAccepted(ctx, "the second run of the pool dataset", create);
    }
    const obs = await pollUntil<DatasetsDatasetRun>(ctx, `${runs}/${encodeURIComponent(runId)}`, terminalType);
    const end = obs.at(-1)!.d;
    if (end?.status?.type !== "completed")
      return ctx.skip(`not exercised: the second run ended ${end?.status?.type ?? obs.at(-1)!.ex.status}`);
    const after = await postsOf(ctx, src.id);
    const lost = [...first.posts].filter((p) => !after.posts.has(p));
    ctx.expect(
      after.ex.status === 200 && lost.length === 0,
      {
        judges: "kept",
        title: `after a second run the dataset no longer lists ${lost.length} post(s) it listed after the first`,
        received: { status: after.ex.status, lost, listed: [...after.posts] },
        expected: "every post listed after the first run still listed",
      },
      after.ex,
    );
    // how many posts the deployment says the dataset gained: its own count, else the run's new posts
    const now = await countOfDataset(ctx, src.id);
    const gained = before !== undefined && now !== undefined ? now - before : countOf(end.new_mentions_count);
    if (gained === undefined)
      return ctx.notExercised(
        "neither the dataset's mentions_count nor the run's new_mentions_count says what it added",
      );
    if (gained <= 0)
      return ctx.notExercised(
        `the deployment reports no post added by the second run (dataset mentions_count ${before} → ${now}, run new_mentions_count ${JSON.stringify(end.new_mentions_count)}): the pool's growth is not exercised`,
      );
    const added = [...after.posts].filter((p) => !first.posts.has(p));
    ctx.expect(
      added.length > 0,
      {
        judges: "added",
        title: `the dataset reports ${gained} more post(s) after the second run but lists no new one`,
        received: { mentions_count: { before, after: now }, listed: [...after.posts] },
        expected: "the first run's posts and the post(s) the second run added",
      },
      after.ex,
    );
  },
});
