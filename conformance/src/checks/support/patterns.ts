// One pattern detection observed end to end, shared by the pattern checks: a
// dataset with two completed URL runs (4 posts, then 6), the detection's
// balance effect, its final run and its pattern.
import { Decimal } from "decimal.js";
import type { CheckContext } from "../../types.ts";
import type { Exchange } from "../../http.ts";
import { dataOf, type Untrusted } from "../../typed.ts";
import type {
  DatasetsDataset,
  DatasetsDatasetRun,
  PatternsPattern,
  PatternsPatternDetectionRun,
} from "../../../../generated/client/types.gen.ts";
import { setupNotAccepted } from "./util.ts";
import {
  balanceOf,
  balanceWindow,
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

export interface Detection extends BilledCreate {
  datasetId: string;
  latestRun: Untrusted<DatasetsDatasetRun> | undefined;
  datasetMentions: number | undefined;
  final: Untrusted<PatternsPatternDetectionRun> | undefined;
  finalEx: Exchange;
  pattern?: Untrusted<PatternsPattern>;
  patternEx?: Exchange;
}

export function detection(ctx: CheckContext): Promise<Detection> {
  return ctx.shared("pattern-detection", async () => {
    const price = await priceOf(ctx, "post_processing");
    const first = await sourceDataset(ctx, "pattern-source", postUrls(ctx, "reddit", 4, "pt1"));
    // a second, larger run on the same dataset: the detection must count only this one
    const mentionPrice = await priceOf(ctx, "mention");
    /** One more run on the pattern dataset, polled to its end: it becomes the latest completed run. */
    const addRun = async (what: string, searchQuery: object, charged: number) => {
      ctx.charge(mentionPrice.mul(charged).toFixed(), `${what} of the pattern dataset`);
      const ex = await ctx.req({
        method: "POST",
        path: `/v1/datasets/${encodeURIComponent(first.id)}/runs`,
        body: { search_query: searchQuery, count: 20, num_comments_per_post: 0 },
      });
      const id = runIdOf(ex);
      const refusal = setupRefusal(ex);
      if (refusal) refusedSetup(ctx, refusal, `the ${what} of the pattern dataset`);
      if (ex.status !== 202 || !id) ctx.skip(`the ${what} of the pattern dataset answered ${ex.status}`);
      const run = (
        await pollUntil<DatasetsDatasetRun>(
          ctx,
          `/v1/datasets/${encodeURIComponent(first.id)}/runs/${encodeURIComponent(id)}`,
          terminalType,
        )
      ).at(-1)!.d;
      if (run?.status?.type !== "completed") ctx.skip(`the ${what} of the pattern dataset ended ${run?.status?.type}`);
      return run;
    };
    let latest = await addRun("second run", { type: "url", source_urls: postUrls(ctx, "reddit", 6, "pt2") }, 6);
    let ds: Untrusted<DatasetsDataset> | undefined;
    let before = new Decimal(NaN);
    const detect = async () => {
      ds = dataOf<DatasetsDataset>(
        await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(first.id)}` }),
      );
      ctx.charge(price.mul(ds?.mentions_count ?? 10).toFixed(), "pattern detection");
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
      latest = await addRun(
        "keyword run of 20 reddit posts",
        { type: "prompt", sources: ["reddit"], search_query: "oat milk latte art" },
        20,
      );
      create = await detect();
      const again = setupRefusal(create);
      if (again)
        refusedSetup(ctx, again, "a pattern detection", ["a keyword run of 20 reddit posts added to its dataset"]);
    } else if (refused) refusedSetup(ctx, refused, "a pattern detection");
    const runId = dataOf<PatternsPatternDetectionRun>(create)?.run_id;
    // accepted with another 2xx: the check goes on with the detection (the status is documented-status-only's)
    if (create.status < 200 || create.status >= 300 || typeof runId !== "string")
      setupNotAccepted(ctx, "a pattern detection", create);
    // a detection holds the latest completed run's posts × price while in flight and is settled to the same
    // (D-PDR-CHARGE); a failed one releases everything: judged against the state read around the balance
    const charge = price.mul(latest?.mentions_count ?? NaN);
    const afterCreate = await balanceWindow(ctx, [
      {
        path: `/v1/pattern_detections/${encodeURIComponent(runId)}`,
        money: moneyBy({
          states: { pending: "pending", working: ["working"], completed: "completed", failed: "failed" },
          reserved: charge,
          settled: () => charge,
        }),
      },
    ]);
    const obs = await pollUntil<PatternsPatternDetectionRun>(
      ctx,
      `/v1/pattern_detections/${encodeURIComponent(runId)}`,
      terminalType,
    );
    const last = obs.at(-1)!;
    const { balance: after } = await balanceOf(ctx);
    const out: Detection = {
      datasetId: first.id,
      latestRun: latest,
      datasetMentions: ds?.mentions_count,
      price,
      before,
      afterCreate,
      after,
      create,
      final: last.d,
      finalEx: last.ex,
    };
    if (last.d?.status?.type === "completed" && typeof last.d.pattern_id === "string") {
      out.patternEx = await ctx.req({ method: "GET", path: `/v1/patterns/${encodeURIComponent(last.d.pattern_id)}` });
      out.pattern = dataOf<PatternsPattern>(out.patternEx);
    }
    return out;
  });
}
