import { lenientWarning } from "../lenient.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, value, words } from "../grounding/facts.ts";
import { groupOf } from "../groups/index.ts";
import type { RunKindModel, ViolationRule } from "../model/model.ts";
import { runStateMachine } from "../model/settle.ts";
import { dataOf, isObject } from "../typed.ts";
import type { PatternsPatternDetectionRun } from "../../../generated/client/types.gen.ts";
import { fillPath, is2xx } from "./support/util.ts";
import { countOf, priceOf } from "./support/groups.ts";
import { startOnPosts } from "./support/custom-parameters.ts";

/** The assertion each kind of violation of the run machine judges (undefined: not a rule held here). */
const JUDGES: Record<ViolationRule, string | undefined> = {
  status: "states",
  transition: "moves",
  terminal: "moves",
  "start-state": "pending",
  start: "accepted",
  "failed-message": "states",
  read: "read",
  steps: "states",
  updated: "states",
  counts: undefined,
  list: undefined,
  // a run that has not ended within the kit's wait is the deployment's speed: not exercised
  finish: undefined,
};

/**
 * fc.asyncModelRun over pattern detection runs. The seed states that a
 * detection is accepted with a 200-range success in `pending`, that its run
 * reads back, and that a completed run carries pattern_id; it names the
 * states seen (pending, completed) and leaves the transitions not shown. The
 * moves pending → working → completed | failed are D-RUN-STATES', the status
 * envelope (steps, error_message, pattern_id only once completed)
 * D-PDR-STATES', each judged on its own; step names are lenient
 * (D-PDR-STEPS).
 */
export default defineCheck({
  id: "pattern-detection-run-state-machine",
  phase: "groups",
  rule: "A pattern detection is accepted (200-range) in pending, reads back, and a completed run carries pattern_id; it moves only pending → working → completed | failed and an ended run never changes (D-RUN-STATES); steps, error_message and pattern_id only once completed follow D-PDR-STATES",
  section: "States and transitions › Pattern detection run; Endpoints › Pattern detections and patterns",
  severity: "critical",
  asserts: {
    accepted: seed("pattern-detections.create", words("200-range success with run"), field("run_id")),
    pending: seed("pattern-detections.create", value("pending")),
    read: seed("pattern-detections.read.404", words("run; when completed includes")),
    patternId: seed("pattern-detection-run.pattern-id-when-completed", value("completed"), field("pattern_id")),
    moves: decided("D-RUN-STATES", value("pending"), value("completed")),
    states: decided("D-PDR-STATES", field("pattern_id"), field("error_message")),
  },
  requires: ["POST /v1/pattern_detections", "GET /v1/pattern_detections/{run_id}"],
  async run(ctx) {
    const run = groupOf(ctx.contract, "pattern-detections")?.run;
    if (!run?.readOp || !run.createOp) return ctx.skip("the contract has no pattern detection create and read");
    const price = await priceOf(ctx, "post_processing");
    const maxStarts = 2;
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
      judges: (rule) => (rule ? JUDGES[rule] : undefined),
      real: () => ({
        ctx,
        runPath: (id) => fillPath(run.readOp!.path, { run_id: id })!,
        created: (ex) => {
          const run = dataOf<PatternsPatternDetectionRun>(ex);
          return { id: run?.run_id, run };
        },
        start: async (_variant, n) => {
          // on a dataset the deployment accepts; refused on every one, the check is not exercised
          const { ex } = await startOnPosts(ctx, "a pattern detection", async (src) => {
            // a detection holds the posts of the source's latest run (its mentions_count as the deployment reports it)
            const release = ctx.charge(
              price.mul(countOf(src.run?.mentions_count) ?? 20).toFixed(),
              "a pattern detection of the source's latest run",
            );
            const ex = await ctx.req({
              method: "POST",
              path: run.createOp!.path,
              body: {
                dataset_id: src.id,
                name: ctx.name(`pd-sm-${n}`),
                research_question: "What themes recur in these posts?",
              },
            });
            if (!is2xx(ex)) release();
            return ex;
          });
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
      if (
        !ctx.expect(
          is2xx(ex) && d?.run_id === id,
          {
            judges: "read",
            title: `reading started detection ${id} answered ${ex.status}`,
            received: { status: ex.status, body: ex.json },
            expected: { status: 200, data: { run_id: id } },
          },
          ex,
        )
      )
        continue;
      const completed = d?.status?.type === run.states.completed;
      const patternId: unknown = d?.pattern_id;
      const carries = typeof patternId === "string" && patternId !== "";
      if (completed)
        ctx.expect(
          carries,
          {
            judges: "patternId",
            title: `a completed run carries pattern_id ${JSON.stringify(patternId)}`,
            received: d,
            expected: { pattern_id: "pt_…" },
          },
          ex,
        );
      else
        ctx.expect(
          patternId === undefined || patternId === null,
          {
            judges: "states",
            title: `a ${String(d?.status?.type)} run carries pattern_id`,
            received: d,
            expected: "no pattern_id before completion",
          },
          ex,
        );
      const sent: unknown = d?.status?.steps;
      const steps = (Array.isArray(sent) ? sent : []).map((s) => (isObject(s) ? s.name : undefined));
      if (run.steps.length && steps.some((s) => !run.steps.some((name) => name === s)))
        ctx.warn(
          lenientWarning("D-PDR-STEPS", `step names ${steps.join(", ")} are not among ${run.steps.join(", ")}`),
          ex,
        );
    }
  },
});
