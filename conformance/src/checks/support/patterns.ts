// One pattern detection observed end to end, shared by the pattern checks: a
// dataset with two completed URL runs (4 posts, then 6), the detection's
// balance effect, its final run and its pattern.
import type { CheckContext } from "../../types.ts";
import type { Exchange } from "../../http.ts";
import { dataOf, type Untrusted } from "../../typed.ts";
import type {
  DatasetsDataset,
  DatasetsDatasetRun,
  PatternsPattern,
  PatternsPatternDetectionRun,
} from "../../../../generated/client/types.gen.ts";
import { seen } from "./util.ts";
import { balanceOf, pollUntil, postUrls, priceOf, runIdOf, sourceDataset, terminalType } from "./groups.ts";
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
    ctx.charge(mentionPrice.mul(6).toFixed(), "second URL run of the pattern dataset");
    const second = await ctx.req({
      method: "POST",
      path: `/v1/datasets/${encodeURIComponent(first.id)}/runs`,
      body: {
        search_query: { type: "url", source_urls: postUrls(ctx, "reddit", 6, "pt2") },
        count: 20,
        num_comments_per_post: 0,
      },
    });
    const secondId = runIdOf(second);
    if (second.status !== 202 || !secondId) ctx.skip(`the second run of the pattern dataset answered ${second.status}`);
    const latest = (
      await pollUntil<DatasetsDatasetRun>(
        ctx,
        `/v1/datasets/${encodeURIComponent(first.id)}/runs/${encodeURIComponent(secondId)}`,
        terminalType,
      )
    ).at(-1)!.d;
    if (latest?.status?.type !== "completed")
      ctx.skip(`the second run of the pattern dataset ended ${latest?.status?.type}`);
    const ds = dataOf<DatasetsDataset>(
      await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(first.id)}` }),
    );
    ctx.charge(price.mul(ds?.mentions_count ?? 10).toFixed(), "pattern detection");
    const { balance: before } = await balanceOf(ctx);
    const create = await ctx.req({
      method: "POST",
      path: "/v1/pattern_detections",
      body: {
        dataset_id: first.id,
        name: ctx.name("patterns"),
        research_question: "What do people like about oat milk latte art?",
      },
    });
    const runId = dataOf<PatternsPatternDetectionRun>(create)?.run_id;
    // accepted with another 2xx: a finding of the status (D-ASYNC-202), and the check goes on with the detection
    if (create.status >= 200 && create.status < 300 && create.status !== 202 && typeof runId === "string")
      ctx.fail(
        { title: `a pattern detection answered ${create.status}, not 202`, received: create.status, expected: 202 },
        create,
      );
    else if (create.status !== 202 || typeof runId !== "string") {
      ctx.fail(
        {
          title: `a pattern detection answered ${create.status}`,
          received: seen(create),
          expected: { status: 202, data: { run_id: "pdr_…", status: { type: "pending" } } },
        },
        create,
      );
      ctx.skip("the pattern detection could not be started");
    }
    const { balance: afterCreate } = await balanceOf(ctx);
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
