import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, status, value, words } from "../grounding/facts.ts";
import { groupOf } from "../groups/index.ts";
import type { RunKindModel, ViolationRule } from "../model/model.ts";
import { runStateMachine } from "../model/settle.ts";
import { RUN_COUNT, mentionPrice } from "./support/billing.ts";
import { dataOf, isObject } from "../typed.ts";
import type { DatasetsDatasetRun } from "../../../generated/client/types.gen.ts";
import { createDataset, fillPath, seen, walk } from "./support/util.ts";
import { commitRun, countOf, jsonAt, postUrl, refusedSetup, setupRefusal } from "./support/groups.ts";

/** The assertion each kind of violation of the run machine judges (undefined: not a rule held here). */
const JUDGES: Record<ViolationRule, string | undefined> = {
  status: "statusTypes",
  transition: "moves",
  terminal: "moves",
  "start-state": "pending",
  start: "accepted",
  "failed-message": "failedMessage",
  read: "read",
  list: "listed",
  steps: "steps",
  counts: "progress",
  updated: "progress",
  // a run that has not ended within the kit's wait is the deployment's speed: not exercised
  finish: undefined,
};

/**
 * Model-based (fc.asyncModelRun) over dataset runs: random sequences of start /
 * poll / list / wait commands; after the sequence every run is polled to its
 * end. The machine itself (src/model/) serves every run kind; the states come
 * from the datasets group descriptor. The seed's state table gives the states
 * and their moves; how steps are stamped and how counters move it leaves
 * open (D-RUN-TRANSITIONS, D-RUN-PROGRESS), judged apart. The runs name one
 * URL each (a post, or a post whose path says it is gone), on a dataset of
 * their own, so a run costs at most what one mention costs.
 */
export default defineCheck({
  id: "run-state-machine",
  phase: "billing",
  rule: "Dataset runs are accepted in pending, read 200 and listed once on their dataset; they move only pending → working → completed | failed, a failed one carrying error_message, and an ended run never changes; step times and counters move as D-RUN-TRANSITIONS and D-RUN-PROGRESS decide",
  section: "States and transitions › Dataset run; Resources › Dataset run; Endpoints › Datasets (runs)",
  severity: "critical",
  asserts: {
    statusTypes: seed(
      "dataset-run.status-types",
      value("pending"),
      value("working"),
      value("completed"),
      value("failed"),
    ),
    moves: seed(
      [
        "dataset-run.states",
        "dataset-run.pending-to-working",
        "dataset-run.working-to-completed",
        "dataset-run.to-failed",
      ],
      words("States: pending, working, completed, failed."),
      words("run starts"),
      words("all steps finish"),
      words("run errors"),
    ),
    pending: seed("dataset-run.create-pending-202", value("pending"), words("request accepted")),
    accepted: seed("dataset-run.create-pending-202", status(202), words("request accepted")),
    failedMessage: seed("dataset-run.failed-error-message", value("failed"), field("error_message")),
    read: seed("datasets.runs.read.404", status(200), words("dataset run")),
    listed: seed("datasets.runs.list.404", status(200), words("list of dataset run")),
    steps: decided("D-RUN-TRANSITIONS", field("completed_at")),
    progress: decided("D-RUN-PROGRESS", field("mentions_count")),
  },
  requires: [
    "POST /v1/datasets/{dataset_id}/runs",
    "GET /v1/datasets/{dataset_id}/runs/{run_id}",
    "GET /v1/datasets/{dataset_id}/runs",
  ],
  async run(ctx) {
    const group = groupOf(ctx.contract, "datasets");
    const run = group?.run;
    if (!run?.readOp || !run.createOp) return ctx.skip("the contract has no dataset run create and read");
    const maxStarts = 2;
    const { price } = ctx.contract.op("GET /v1/prices") ? await mentionPrice(ctx) : { price: undefined };
    ctx.mutates("dataset runs");
    // a dataset of its own: its run list holds only this check's runs
    const ds = await createDataset(ctx, "run-sm");
    const started: string[] = [];
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
      // the run's own size as the deployment echoes it (params.count, else a top-level count); absent or null: unknown
      requested: (r) => countOf(jsonAt(r, "params", "count")) ?? countOf(r?.count),
      boundedCounter: "mentions_count",
      zeroWhilePending: true,
    };
    await runStateMachine(ctx, {
      kind,
      variants: ["one-post", "gone"],
      maxStarts,
      judges: (rule) => (rule ? JUDGES[rule] : undefined),
      real: () => ({
        ctx,
        listPath: fillPath(run.listOp?.path ?? "", { dataset_id: ds.id }),
        runPath: (id) => fillPath(run.readOp!.path, { dataset_id: ds.id, run_id: id })!,
        created: (ex) => {
          const created = dataOf<DatasetsDatasetRun>(ex);
          return { id: created?.id, run: created };
        },
        start: async (variant, n) => {
          const url =
            variant === "one-post"
              ? postUrl("reddit", `${ctx.runId}/run-sm/${n}`)
              : postUrl("reddit", `${ctx.runId}/run-sm/${n}`, "deleted_missing_post");
          // each start commits what its run may reserve, adjusted to the count the run reports
          const committed = price ? commitRun(ctx, price, RUN_COUNT, `a one-URL run (${variant})`) : undefined;
          const ex = await ctx.req({
            method: "POST",
            path: fillPath(run.createOp!.path, { dataset_id: ds.id })!,
            body: {
              search_query: { type: "url", source_urls: [{ source: "reddit", url }] },
              count: RUN_COUNT,
              num_comments_per_post: 0,
            },
          });
          committed?.(ex);
          // refused for the account's balance or plan: the machine is not exercised, never failed
          const refusal = setupRefusal(ex);
          if (refusal) refusedSetup(ctx, refusal, `a one-URL dataset run (${variant})`);
          const id = dataOf<DatasetsDatasetRun>(ex)?.id;
          if (typeof id === "string") started.push(id);
          return ex;
        },
      }),
    });
    // every run started reads back and is listed once on its dataset (the sequence's own reads and lists are random)
    if (started.length === 0) return;
    for (const id of started) {
      const ex = await ctx.req({ method: "GET", path: fillPath(run.readOp.path, { dataset_id: ds.id, run_id: id })! });
      ctx.expect(
        ex.status === 200 && dataOf<DatasetsDatasetRun>(ex)?.id === id,
        {
          judges: "read",
          title: `reading started run ${id} answered ${ex.status}`,
          received: seen(ex),
          expected: { status: 200, data: { id } },
        },
        ex,
      );
    }
    if (!run.listOp) return;
    const listed = await walk(ctx, fillPath(run.listOp.path, { dataset_id: ds.id })!, { limit: 100, maxPages: 5 });
    if (!listed.complete)
      return ctx.notExercised(
        `the dataset's run list could not be read to its end (${listed.error?.status ?? "page cap"})`,
      );
    const ids = listed.items.map((x) => (isObject(x) ? x.id : undefined));
    const wrong = started.filter((id) => ids.filter((x) => x === id).length !== 1);
    ctx.expect(
      wrong.length === 0,
      {
        judges: "listed",
        title: `${wrong.length} started run(s) not listed exactly once on their dataset`,
        received: ids,
        expected: started,
      },
      listed.pages.at(-1),
    );
  },
});
