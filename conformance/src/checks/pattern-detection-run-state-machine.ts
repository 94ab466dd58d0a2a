import { lenientWarning } from "../lenient.ts";
import { decision, defineCheck } from "../define-check.ts";
import { groupOf } from "../groups/index.ts";
import type { RunKindModel } from "../model/model.ts";
import { runStateMachine } from "../model/settle.ts";
import { dataOf } from "../typed.ts";
import type { PatternsPatternDetectionRun } from "../../../generated/client/types.gen.ts";
import { fillPath } from "./support/util.ts";
import { priceOf } from "./support/groups.ts";
import { startOnPosts } from "./support/custom-parameters.ts";

/** fc.asyncModelRun over pattern detection runs: pending → working → completed (with pattern_id) | failed (D-RUN-STATES, D-PDR-STEPS). */
export default defineCheck({
  id: "pattern-detection-run-state-machine",
  phase: "groups",
  rule: "Pattern detection runs move only pending → working → completed | failed; terminal states never change; step timestamps never go back; a completed run carries pattern_id and a pending or working one does not",
  section: "States and transitions › Pattern detection run",
  severity: "critical",
  rules: {
    seed: "States seen: `pending`, `completed` (with `pattern_id`).",
    decisions: [
      decision("D-PDR-STATES", { title: /unknown state|not a state|unknown status/ }),
      decision("D-PDR-STEPS", { title: /step names?\b/ }),
    ],
  },
  decisions: ["D-RUN-STATES", "D-PDR-STEPS"],
  requires: ["POST /v1/pattern_detections", "GET /v1/pattern_detections/{run_id}"],
  async run(ctx) {
    const run = groupOf(ctx.contract, "pattern-detections")?.run;
    if (!run?.readOp || !run.createOp) return ctx.skip("the contract has no pattern detection create and read");
    const price = await priceOf(ctx, "post_processing");
    const maxStarts = 2;
    const runs = ctx.settings.profile === "full" ? Math.max(2, Math.min(ctx.settings.numRuns, 5)) : 1;
    ctx.charge(price.mul(10 * maxStarts * runs).toFixed(), `up to ${maxStarts * runs} detections`);
    const kind: RunKindModel = {
      check: "pattern-detection-run-state-machine",
      states: run.states,
      statusAt: run.statusAt,
      counts: [],
    };
    const seen: Array<{ id: string }> = [];
    await runStateMachine(ctx, {
      kind,
      variants: ["latest-run"],
      maxStarts,
      real: () => ({
        ctx,
        runPath: (id) => fillPath(run.readOp!.path, { run_id: id })!,
        created: (ex) => {
          const run = dataOf<PatternsPatternDetectionRun>(ex);
          return { id: run?.run_id, run };
        },
        start: async (_variant, n) => {
          // on a dataset the deployment accepts; refused on every one, the check is not exercised
          const { ex } = await startOnPosts(ctx, "a pattern detection", (src) =>
            ctx.req({
              method: "POST",
              path: run.createOp!.path,
              body: {
                dataset_id: src.id,
                name: ctx.name(`pd-sm-${n}`),
                research_question: "What themes recur in these posts?",
              },
            }),
          );
          const id = dataOf<PatternsPatternDetectionRun>(ex)?.run_id;
          if (typeof id === "string") seen.push({ id });
          return ex;
        },
      }),
    });
    // pattern_id exactly on completed runs
    for (const { id } of seen) {
      const ex = await ctx.req({ method: "GET", path: fillPath(run.readOp.path, { run_id: id })! });
      const d = dataOf<PatternsPatternDetectionRun>(ex);
      const completed = d?.status?.type === run.states.completed;
      ctx.expect(
        completed === (typeof d?.pattern_id === "string"),
        {
          title: `a ${d?.status?.type} run ${completed ? "lacks" : "carries"} pattern_id`,
          received: d,
          expected: completed ? { pattern_id: "pt_…" } : "no pattern_id",
        },
        ex,
      );
      const steps = (d?.status?.steps ?? []).map((s) => s?.name);
      if (run.steps.length && steps.some((s) => !run.steps.some((name) => name === s)))
        ctx.warn(
          lenientWarning("D-PDR-STEPS", `step names ${steps.join(", ")} are not among ${run.steps.join(", ")}`),
          ex,
        );
    }
  },
});
