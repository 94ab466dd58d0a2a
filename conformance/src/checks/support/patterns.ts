// One pattern detection observed end to end, shared by the pattern checks: a
// dataset with two completed URL runs (2 posts, then 3 more), the detection's
// balance effect, its final run and its pattern. Every count the checks
// expect comes from what the deployment reports: the latest run's
// mentions_count and the dataset's mentions_count read before and after it
// (a deployment may read two of the kit's URLs as one post), the run's own
// pattern_id, the items the pattern lists and their item_id.
import { Decimal } from "decimal.js";
import type { CheckContext } from "../../types.ts";
import { sleep, type Exchange } from "../../http.ts";
import { dataOf, isObject, type Untrusted } from "../../typed.ts";
import type {
  DatasetsDataset,
  DatasetsDatasetRun,
  PatternsPatternDetectionRun,
} from "../../../../generated/client/types.gen.ts";
import { setupNotAccepted } from "./util.ts";
import { RATE_WINDOW_MS } from "./billing.ts";
import {
  balanceOf,
  balanceWindow,
  commitRun,
  countOf,
  moneyBy,
  pollUntil,
  postUrls,
  priceOf,
  refusedSetup,
  runIdOf,
  setupRefusal,
  sourceDataset,
  terminalType,
} from "./groups.ts";
import type { BilledCreate } from "./groups.ts";

/** A pattern as a deployment sent it: only `items[]` is named by the seed (the rest: not shown). */
export type PatternRead = Record<string, unknown> & { items?: unknown };

/** What the kit knows of the posts of the dataset's most recent completed run, from the deployment's answers. */
export interface LatestPosts {
  /** the latest completed run's mentions_count */
  runCount: number | undefined;
  /** the dataset's mentions_count before and after that run */
  datasetBefore: number | undefined;
  datasetAfter: number | undefined;
  /** the exact number, when the run's posts were all new to the dataset (after − before = the run's count) */
  exact: number | undefined;
  /** bounds when it is not exact: the posts new to the dataset, and the fewer of the run's count and the dataset's */
  low: number | undefined;
  high: number | undefined;
}

export interface Detection extends BilledCreate {
  datasetId: string;
  latestRun: Untrusted<DatasetsDatasetRun> | undefined;
  latest: LatestPosts;
  final: Untrusted<PatternsPatternDetectionRun> | undefined;
  finalEx: Exchange;
  /** the run's own pattern_id (the seed names it), when it completed with one */
  patternId?: string;
  pattern?: PatternRead;
  patternEx?: Exchange;
}

/** The posts of the latest run, bounded (or exact) by the counts the deployment reported around it. */
export function latestPosts(
  run: Untrusted<DatasetsDatasetRun> | undefined,
  datasetBefore: number | undefined,
  datasetAfter: number | undefined,
): LatestPosts {
  const runCount = countOf(run?.mentions_count);
  const added = datasetBefore !== undefined && datasetAfter !== undefined ? datasetAfter - datasetBefore : undefined;
  const exact = runCount !== undefined && added === runCount ? runCount : undefined;
  const high =
    runCount !== undefined && datasetAfter !== undefined
      ? Math.min(runCount, datasetAfter)
      : (runCount ?? datasetAfter);
  return {
    runCount,
    datasetBefore,
    datasetAfter,
    exact,
    low: added !== undefined && added >= 0 ? added : undefined,
    high,
  };
}

/** The item_id of a pattern item as a path segment, when the item carries one (a string or a number). */
export function itemIdOf(item: unknown): string | undefined {
  const id = isObject(item) ? item.item_id : undefined;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? String(id) : undefined;
}

/** The items of a pattern as sent (undefined when `items` is not an array). */
export function itemsOfPattern(pattern: PatternRead | undefined): unknown[] | undefined {
  return Array.isArray(pattern?.items) ? pattern.items : undefined;
}

/**
 * An item's short title: the seed names a title but not its field, so
 * `title`, else `name` or `label` (undefined when none is a string).
 */
export function titleOf(item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  for (const k of ["title", "name", "label", "short_title"]) if (typeof item[k] === "string") return item[k] as string;
  return undefined;
}

/**
 * The post_refs of an item expansion: the seed names the field, not where it
 * sits, so at the top of `data`, else in one object under it (an `item`).
 */
export function postRefsOf(ex: Exchange): unknown[] | undefined {
  const d = dataOf<Record<string, unknown>>(ex);
  if (!d) return undefined;
  if (Array.isArray(d.post_refs)) return d.post_refs;
  const nested = Object.values(d).filter((v) => isObject(v) && Array.isArray(v.post_refs));
  return nested.length === 1 ? ((nested[0] as Record<string, unknown>).post_refs as unknown[]) : undefined;
}

export const itemPath = (patternId: string, itemId: string) =>
  `/v1/patterns/${encodeURIComponent(patternId)}/items/${encodeURIComponent(itemId)}`;

export function detection(ctx: CheckContext): Promise<Detection> {
  return ctx.shared("pattern-detection", async () => {
    const price = await priceOf(ctx, "post_processing");
    const first = await sourceDataset(ctx, "pattern-source", postUrls(ctx, "reddit", 2, "pt1"));
    const dsPath = `/v1/datasets/${encodeURIComponent(first.id)}`;
    const mentionsOf = async () =>
      countOf(dataOf<DatasetsDataset>(await ctx.req({ method: "GET", path: dsPath }))?.mentions_count);
    const mentionPrice = await priceOf(ctx, "mention");
    /** One more run on the pattern dataset, polled to its end: it becomes the latest completed run. */
    const addRun = async (what: string, searchQuery: object, count: number) => {
      const committed = commitRun(ctx, mentionPrice, count, `${what} of the pattern dataset`);
      const before = await mentionsOf();
      const ex = await ctx.req({
        method: "POST",
        path: `${dsPath}/runs`,
        body: { search_query: searchQuery, count, num_comments_per_post: 0 },
      });
      committed(ex);
      const id = runIdOf(ex);
      const refusal = setupRefusal(ex);
      if (refusal) refusedSetup(ctx, refusal, `the ${what} of the pattern dataset`);
      if (ex.status < 200 || ex.status >= 300 || !id) setupNotAccepted(ctx, `the ${what} of the pattern dataset`, ex);
      const run = (
        await pollUntil<DatasetsDatasetRun>(ctx, `${dsPath}/runs/${encodeURIComponent(id)}`, terminalType)
      ).at(-1)!.d;
      if (run?.status?.type !== "completed")
        ctx.skip(`not exercised: the ${what} of the pattern dataset ended ${run?.status?.type}`);
      return { run, latest: latestPosts(run, before, await mentionsOf()) };
    };
    // a second run on the same dataset: the detection must count only its posts
    let { run: latestRun, latest } = await addRun(
      "second run",
      { type: "url", source_urls: postUrls(ctx, "reddit", 3, "pt2") },
      20,
    );
    let before = new Decimal(NaN);
    const detect = async () => {
      // the most the detection can hold: every post of the dataset
      ctx.charge(price.mul(latest.datasetAfter ?? latest.runCount ?? 20).toFixed(), "pattern detection");
      // a fresh rate-limit window: the balance, the create and the reads right after it go out at once
      await sleep(RATE_WINDOW_MS);
      before = (await balanceOf(ctx)).balance;
      return ctx.req({
        method: "POST",
        path: "/v1/pattern_detections",
        body: {
          dataset_id: first.id,
          name: ctx.name("patterns"),
          research_question: "What do people like about oat milk latte art?",
        },
      });
    };
    let create = await detect();
    // refused for the dataset's data (too few posts to cluster: nothing_to_analyze): a larger run, once,
    // which becomes the latest completed run the detection is priced on
    const refused = setupRefusal(create);
    if (refused?.reason === "data") {
      ({ run: latestRun, latest } = await addRun(
        "keyword run of 20 reddit posts",
        { type: "prompt", sources: ["reddit"], search_query: "oat milk latte art" },
        20,
      ));
      create = await detect();
      const again = setupRefusal(create);
      if (again)
        refusedSetup(ctx, again, "a pattern detection", ["a keyword run of 20 reddit posts added to its dataset"]);
    } else if (refused) refusedSetup(ctx, refused, "a pattern detection");
    const runId = dataOf<PatternsPatternDetectionRun>(create)?.run_id;
    // accepted with another 2xx: the checks go on with the detection (the status is documented-status-only's)
    if (create.status < 200 || create.status >= 300 || typeof runId !== "string")
      setupNotAccepted(ctx, "a pattern detection", create);
    // held while in flight and settled: the latest run's posts × price (exact only when the kit can tell them)
    const charge = price.mul(latest.exact ?? NaN);
    const runPath = `/v1/pattern_detections/${encodeURIComponent(runId)}`;
    const afterCreate = await balanceWindow(ctx, [
      {
        path: runPath,
        money: moneyBy({
          states: { pending: "pending", working: ["working"], completed: "completed", failed: "failed" },
          reserved: charge,
          settled: () => charge,
        }),
      },
    ]);
    const obs = await pollUntil<PatternsPatternDetectionRun>(ctx, runPath, terminalType);
    const last = obs.at(-1)!;
    const { balance: after } = await balanceOf(ctx);
    const out: Detection = {
      datasetId: first.id,
      latestRun,
      latest,
      price,
      before,
      afterCreate,
      after,
      create,
      final: last.d,
      finalEx: last.ex,
    };
    const patternId: unknown = last.d?.pattern_id;
    if (last.d?.status?.type === "completed" && typeof patternId === "string" && patternId !== "") {
      out.patternId = patternId;
      out.patternEx = await ctx.req({ method: "GET", path: `/v1/patterns/${encodeURIComponent(patternId)}` });
      out.pattern = dataOf<PatternRead>(out.patternEx);
    }
    return out;
  });
}
