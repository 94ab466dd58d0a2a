import { decision, defineCheck } from "../define-check.ts";
import { groupOf } from "../groups/index.ts";
import type { RunKindModel } from "../model/model.ts";
import { runStateMachine } from "../model/settle.ts";
import { RUN_COUNT, mentionPrice } from "./support/billing.ts";
import { dataOf } from "../typed.ts";
import type { DatasetsDatasetRun } from "../../../generated/client/types.gen.ts";
import { fillPath, fixtureDataset } from "./support/util.ts";
import { jsonAt } from "./support/groups.ts";

/**
 * Model-based (fc.asyncModelRun) over dataset runs: random sequences of start /
 * poll / list / wait commands; after the sequence every run is polled to its
 * end. The machine itself (src/model/) serves every run kind; the states and
 * step names come from the datasets group descriptor.
 */
export default defineCheck({
  id: "run-state-machine",
  phase: "billing",
  rule: "Dataset runs move only pending → working → completed | failed; terminal states never change; step timestamps never go back; counts never shrink and stay consistent",
  section: "States and transitions › Dataset run; Resources › Dataset run",
  severity: "critical",
  rules: {
    seed: "States: `pending`, `working`, `completed`, `failed`.",
    decisions: [decision("D-TIMESTAMPS", { title: /timestamp|ISO|Unix/ })],
  },
  decisions: ["D-RUN-TRANSITIONS", "D-TIMESTAMPS"],
  requires: [
    "POST /v1/datasets/{dataset_id}/runs",
    "GET /v1/datasets/{dataset_id}/runs/{run_id}",
    "GET /v1/datasets/{dataset_id}/runs",
  ],
  async run(ctx) {
    const group = groupOf(ctx.contract, "datasets");
    const run = group?.run;
    if (!run?.readOp || !run.createOp) return ctx.skip("the contract has no dataset run create and read");
    const full = ctx.settings.profile === "full";
    const numRuns = full ? Math.max(2, Math.min(ctx.settings.numRuns, 5)) : 1;
    const maxStarts = 2;
    const { price } = ctx.contract.op("GET /v1/prices") ? await mentionPrice(ctx) : { price: undefined };
    if (price)
      ctx.charge(
        price.mul(RUN_COUNT * maxStarts * numRuns).toFixed(),
        `up to ${maxStarts * numRuns} runs of ${RUN_COUNT}`,
      );
    else ctx.mutates("dataset runs");
    const ds = await fixtureDataset(ctx);
    const kind: RunKindModel = {
      check: "run-state-machine",
      states: run.states,
      statusAt: run.statusAt,
      counts: ["mentions_count", "new_mentions_count", "images_count", "videos_count"],
      within: [
        ["new_mentions_count", "mentions_count"],
        ["images_count", "mentions_count"],
        ["videos_count", "mentions_count"],
      ],
      // the run's params.count, else a top-level count (null reads as 0, as Number says)
      requested: (r) => {
        const asked = jsonAt(r, "params", "count");
        if (asked !== undefined) return Number(asked);
        return r?.count !== undefined ? Number(r.count) : undefined;
      },
      boundedCounter: "mentions_count",
      zeroWhilePending: true,
    };
    await runStateMachine(ctx, {
      kind,
      variants: ["keyword", "unretrievable"],
      maxStarts,
      real: () => ({
        ctx,
        listPath: fillPath(run.listOp?.path ?? "", { dataset_id: ds.id }),
        runPath: (id) => fillPath(run.readOp!.path, { dataset_id: ds.id, run_id: id })!,
        created: (ex) => {
          const created = dataOf<DatasetsDatasetRun>(ex);
          return { id: created?.id, run: created };
        },
        start: (variant, n) =>
          ctx.req({
            method: "POST",
            path: fillPath(run.createOp!.path, { dataset_id: ds.id })!,
            body:
              variant === "keyword"
                ? {
                    search_query: { type: "prompt", sources: ["reddit"], search_query: "oat milk foam" },
                    count: RUN_COUNT,
                  }
                : {
                    search_query: {
                      type: "url",
                      source_urls: [
                        { source: "reddit", url: `https://www.reddit.com/r/slk/comments/removed_${n}/gone/` },
                      ],
                    },
                    count: RUN_COUNT,
                  },
          }),
      }),
    });
  },
});
