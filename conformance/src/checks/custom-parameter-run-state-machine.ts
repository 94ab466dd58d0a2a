import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { status, words } from "../grounding/facts.ts";
import { groupOf } from "../groups/index.ts";
import type { RunKindModel, ViolationRule } from "../model/model.ts";
import { runStateMachine } from "../model/settle.ts";
import type { CustomParametersCustomParameterRunAccepted } from "../../../generated/client/types.gen.ts";
import { dataOf, isObject } from "../typed.ts";
import { fillPath } from "./support/util.ts";
import { countOf, priceOf } from "./support/groups.ts";
import { createParameter, startParameterRun } from "./support/custom-parameters.ts";

/** The assertion each kind of violation of the run machine judges. */
const JUDGES: Record<ViolationRule, string | undefined> = {
  // the seed shows only `processing`: the other states, their moves and a failed run's message are D-RUN-STATES'
  status: "states",
  transition: "states",
  terminal: "states",
  "start-state": "states",
  "failed-message": "states",
  counts: "counters",
  // a start that was not accepted is a setup (custom-parameter-run-counters judges acceptance)
  start: undefined,
  read: "read",
  list: "read",
  steps: "timestamps",
  updated: "timestamps",
  // a run that has not ended within the kit's wait is the deployment's speed: not exercised
  finish: undefined,
};

/**
 * fc.asyncModelRun over custom parameter runs; each start uses a fresh
 * parameter so the one-run-per-parameter rule does not refuse it. The 202
 * answer is only {run_id}, so the first observation is a read. The seed
 * states the counters (done and error count posts the run visits, so they
 * never shrink nor pass mentions_total) and shows only the state
 * `processing`: the state names after it and their moves are the contract's
 * (processing → completed | failed, D-RUN-STATES), judged as a decision.
 */
export default defineCheck({
  id: "custom-parameter-run-state-machine",
  phase: "groups",
  rule: "A custom parameter run is accepted with {run_id} and reads back; mentions_done and mentions_error never shrink and their sum never exceeds mentions_total; runs move only processing → completed | failed and terminal states never change (D-RUN-STATES); an unknown run id of a visible parameter is 404",
  section: "States and transitions › Custom parameter run; Resources › Custom parameter run",
  severity: "critical",
  asserts: {
    counters: seed(
      "custom-parameter-run.total-is-dataset",
      words("`mentions_total` is the posts the run will visit"),
      words("`mentions_done` those processed"),
    ),
    read: seed("custom-parameters.runs.read.404", words("/runs/{run_id} | | run")),
    states: decided("D-RUN-STATES"),
    timestamps: decided("D-RUN-TRANSITIONS"),
    unknownRun: seed("service.scope.foreign-404", status(404), words("one that does not exist, yields 404")),
  },
  requires: [
    "POST /v1/custom_parameters/{parameter_id}/runs",
    "GET /v1/custom_parameters/{parameter_id}/runs/{run_id}",
  ],
  async run(ctx) {
    const run = groupOf(ctx.contract, "custom-parameters")?.run;
    if (!run?.readOp || !run.createOp) return ctx.skip("the contract has no custom parameter run create and read");
    const price = await priceOf(ctx, "post_processing");
    const maxStarts = 2;
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
      judges: (rule) => (rule ? JUDGES[rule] : undefined),
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
          // each run is committed as the dataset it runs on is sized (its mention count, read right before)
          const { ex } = await startParameterRun(ctx, cp.id, async (src) => {
            const ds = await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(src.id)}` });
            const mentions = countOf(dataOf<{ mentions_count: number }>(ds)?.mentions_count) ?? 20;
            ctx.charge(price.mul(mentions).toFixed(), `a custom parameter run of ${mentions} mentions`);
          });
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
          judges: "unknownRun",
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
