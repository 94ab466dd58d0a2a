import type { AudiencesAudienceRunCreated } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, status, value, words } from "../grounding/facts.ts";
import { groupOf } from "../groups/index.ts";
import type { RunKindModel, ViolationRule } from "../model/model.ts";
import { runStateMachine } from "../model/settle.ts";
import { dataOf, isObject } from "../typed.ts";
import { fillPath, idOf } from "./support/util.ts";
import { priceOf } from "./support/groups.ts";
import { createAudienceDataset, startAudienceRun } from "./support/audiences.ts";

/** Profiles per run of the sequence: the machine's rules need a run, not its size. */
const PROFILES = 1;

/** The assertion each kind of violation of the run machine judges. */
const JUDGES: Record<ViolationRule, string | undefined> = {
  status: "states",
  transition: "states",
  terminal: "states",
  "start-state": "pending",
  "failed-message": "failedMessage",
  // a start that was not accepted is a setup (audience-dataset-runs-any-source judges acceptance)
  start: undefined,
  read: "read",
  list: "read",
  steps: "steps",
  counts: "counts",
  updated: "steps",
  // a run that has not ended within the kit's wait is the deployment's speed: not exercised
  finish: undefined,
};

/**
 * fc.asyncModelRun over audience runs (the generic run machine of
 * model/settle.ts, with this group's descriptor): each start uses a fresh
 * audience dataset, so the one-in-flight rule (409) does not refuse the
 * sequence's starts. The seed gives an audience run the dataset run's four
 * states and moves; what it leaves open (step times, the counts' bounds) is
 * judged as the contract's decisions.
 */
export default defineCheck({
  id: "audience-run-state-machine",
  phase: "groups",
  rule: "Audience runs are accepted 202 in pending, move only pending → working → completed | failed (a failed one carries error_message), terminal states never change and every started run reads 200; step timestamps never go back and profile_count never shrinks nor exceeds target_profile_count (decisions)",
  section:
    "States and transitions › Dataset run (an audience run has the same four status types); Resources › Audience run",
  severity: "critical",
  asserts: {
    states: seed(
      ["audience-run.states", "dataset-run.states"],
      words("asynchronous in the same way as a dataset run"),
      words("has the same four status types"),
      value("pending"),
      value("working"),
      value("completed"),
      value("failed"),
    ),
    pending: seed(
      ["audience-run.states", "dataset-run.create-pending-202"],
      words("asynchronous in the same way as a dataset run"),
      words("request accepted"),
      value("pending"),
    ),
    read: seed("audience-datasets.runs.read", status(200)),
    failedMessage: seed(
      ["audience-run.fields", "dataset-run.failed-error-message"],
      words("same envelope as dataset run"),
      field("error_message"),
    ),
    steps: decided("D-RUN-TRANSITIONS"),
    counts: decided("D-AUD-RUN-COUNTS"),
  },
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
    ctx.charge(
      price.mul(PROFILES * maxStarts * runs).toFixed(),
      `up to ${maxStarts * runs} runs of ${PROFILES} profile`,
    );
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
      variants: ["one-profile"],
      maxStarts,
      judges: (rule) => (rule ? JUDGES[rule] : undefined),
      real: () => ({
        ctx,
        runPath: (id) => fillPath(run.readOp!.path, { audience_dataset_id: parent.get(id) ?? "", run_id: id })!,
        created: (ex) => ({ id: idOf(ex), run: dataOf<AudiencesAudienceRunCreated>(ex) }),
        start: async (_variant, n) => {
          const ad = await createAudienceDataset(ctx, `aud-sm-${n}-${Date.now() % 100000}`);
          // on a source the deployment accepts; refused on every source, the check is not exercised
          const { ex } = await startAudienceRun(ctx, ad, PROFILES);
          const id = idOf(ex);
          if (id !== undefined) parent.set(id, ad);
          return ex;
        },
      }),
    });
  },
});
