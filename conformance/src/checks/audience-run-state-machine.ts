import type { AudiencesAudienceRunCreated } from "../../../generated/client/types.gen.ts";
import { decision, defineCheck } from "../define-check.ts";
import { groupOf } from "../groups/index.ts";
import type { RunKindModel } from "../model/model.ts";
import { runStateMachine } from "../model/settle.ts";
import { dataOf, isObject } from "../typed.ts";
import { fillPath, idOf } from "./support/util.ts";
import { priceOf } from "./support/groups.ts";
import { createAudienceDataset, startAudienceRun } from "./support/audiences.ts";

/**
 * fc.asyncModelRun over audience runs (the generic run machine of
 * model/settle.ts, with this group's descriptor): each start uses a fresh
 * audience dataset, so the one-in-flight rule (409) does not refuse the
 * sequence's starts.
 */
export default defineCheck({
  id: "audience-run-state-machine",
  phase: "groups",
  rule: "Audience runs move only pending → working → completed | failed; terminal states never change; step timestamps never go back; profile_count never shrinks and never exceeds target_profile_count",
  section:
    "States and transitions › Dataset run (an audience run has the same four status types); Resources › Audience run",
  severity: "critical",
  rules: {
    seed: "An audience run is asynchronous in the same way as a dataset run and has the same four status types",
    decisions: [decision("D-TIMESTAMPS", { title: /timestamp|ISO|Unix/ })],
  },
  decisions: ["D-RUN-TRANSITIONS", "D-TIMESTAMPS"],
  requires: [
    "POST /v1/audience_datasets/{audience_dataset_id}/runs",
    "GET /v1/audience_datasets/{audience_dataset_id}/runs/{run_id}",
  ],
  async run(ctx) {
    const run = groupOf(ctx.contract, "audiences")?.run;
    if (!run?.readOp || !run.createOp) return ctx.skip("the contract has no audience run create and read");
    const price = await priceOf(ctx, "audience_profile");
    const maxStarts = 2;
    const runs = ctx.settings.profile === "full" ? Math.max(2, Math.min(ctx.settings.numRuns, 5)) : 1;
    ctx.charge(price.mul(5 * maxStarts * runs).toFixed(), `up to ${maxStarts * runs} runs of 5 profiles`);
    const parent = new Map<string, string>();
    const kind: RunKindModel = {
      check: "audience-run-state-machine",
      states: run.states,
      statusAt: run.statusAt,
      counts: ["profile_count"],
      requested: (r: unknown) => {
        const target = isObject(r) ? r.target_profile_count : undefined;
        return target !== undefined ? Number(target) : undefined;
      },
      boundedCounter: "profile_count",
    };
    await runStateMachine(ctx, {
      kind,
      variants: ["five-profiles"],
      maxStarts,
      real: () => ({
        ctx,
        runPath: (id) => fillPath(run.readOp!.path, { audience_dataset_id: parent.get(id) ?? "", run_id: id })!,
        created: (ex) => ({ id: idOf(ex), run: dataOf<AudiencesAudienceRunCreated>(ex) }),
        start: async (_variant, n) => {
          const ad = await createAudienceDataset(ctx, `aud-sm-${n}-${Date.now() % 100000}`);
          // on a source the deployment accepts; refused on every source, the check is not exercised
          const { ex } = await startAudienceRun(ctx, ad, 5);
          const id = idOf(ex);
          if (id !== undefined) parent.set(id, ad);
          return ex;
        },
      }),
    });
  },
});
