import { decision, defineCheck } from "../define-check.ts";
import { groupOf } from "../groups/index.ts";
import type { RunKindModel } from "../model/model.ts";
import { runStateMachine } from "../model/settle.ts";
import type { CustomParametersCustomParameterRunAccepted } from "../../../generated/client/types.gen.ts";
import { dataOf, isObject } from "../typed.ts";
import { fillPath } from "./support/util.ts";
import { priceOf } from "./support/groups.ts";
import { createParameter, startParameterRun } from "./support/custom-parameters.ts";

/**
 * fc.asyncModelRun over custom parameter runs: processing → completed |
 * failed (D-RUN-STATES); each start uses a fresh parameter so the one-run-
 * per-parameter rule does not refuse it. The 202 answer is only {run_id}, so
 * the first observation is a read.
 */
export default defineCheck({
  id: "custom-parameter-run-state-machine",
  phase: "groups",
  rule: "Custom parameter runs move only processing → completed | failed; terminal states never change; mentions_done and mentions_error never shrink and their sum never exceeds mentions_total",
  section: "States and transitions › Custom parameter run; Resources › Custom parameter run",
  severity: "critical",
  rules: {
    seed: "State seen: `processing`. Completion is derived from counters (done plus error equals total).",
    decisions: [
      decision("D-CPR-STATES", { title: /state|status/ }),
      decision("D-CPR-UNKNOWN-RUN", { title: /unknown run/ }),
    ],
  },
  decisions: ["D-RUN-STATES", "D-CPR-UNKNOWN-RUN"],
  requires: [
    "POST /v1/custom_parameters/{parameter_id}/runs",
    "GET /v1/custom_parameters/{parameter_id}/runs/{run_id}",
  ],
  async run(ctx) {
    const run = groupOf(ctx.contract, "custom-parameters")?.run;
    if (!run?.readOp || !run.createOp) return ctx.skip("the contract has no custom parameter run create and read");
    const price = await priceOf(ctx, "post_processing");
    const maxStarts = 2;
    const runs = ctx.settings.profile === "full" ? Math.max(2, Math.min(ctx.settings.numRuns, 5)) : 1;
    ctx.charge(price.mul(10 * maxStarts * runs).toFixed(), `up to ${maxStarts * runs} runs`);
    const parent = new Map<string, string>();
    const kind: RunKindModel = {
      check: "custom-parameter-run-state-machine",
      states: run.states,
      statusAt: run.statusAt,
      counts: ["mentions_done", "mentions_error"],
      // the mentions a run can still complete: its total less the ones that errored
      requested: (r: unknown) => {
        if (!isObject(r) || r.mentions_total === undefined) return undefined;
        return Number(r.mentions_total) - Number(r.mentions_error ?? 0);
      },
      boundedCounter: "mentions_done",
    };
    let lastParam = "";
    await runStateMachine(ctx, {
      kind,
      variants: ["dataset-scope"],
      maxStarts,
      real: () => ({
        ctx,
        runPath: (id) => fillPath(run.readOp!.path, { parameter_id: parent.get(id) ?? lastParam, run_id: id })!,
        created: (ex) => {
          const accepted = dataOf<CustomParametersCustomParameterRunAccepted & { id: string }>(ex);
          return { id: accepted?.run_id ?? accepted?.id };
        },
        start: async (_variant, n) => {
          const cp = await createParameter(ctx, `cp-sm-${n}-${Date.now() % 100000}`);
          lastParam = cp.id;
          // on a dataset the deployment accepts; refused on every one, the check is not exercised
          const { ex } = await startParameterRun(ctx, cp.id);
          const id = dataOf<CustomParametersCustomParameterRunAccepted>(ex)?.run_id;
          if (typeof id === "string") parent.set(id, cp.id);
          return ex;
        },
      }),
    });
    // an unknown run of a visible parameter is 404 (D-CPR-UNKNOWN-RUN)
    if (lastParam) {
      const ex = await ctx.req({
        method: "GET",
        path: fillPath(run.readOp.path, { parameter_id: lastParam, run_id: "cpr_slkmissing0000000" })!,
      });
      ctx.expect(
        ex.status === 404,
        {
          title: `an unknown run id answered ${ex.status}`,
          received: { status: ex.status, body: ex.json },
          expected: { status: 404 },
        },
        ex,
      );
      if (ex.status === 404) ctx.lenient("D-CPR-UNKNOWN-RUN", ex); // the code not_found: lenient through the registry
    }
  },
});
