import type {
  CommonDatasetNotFoundError,
  DatasetsDataset,
  TrackingAgentsTrackingAgent,
} from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import type { CheckContext } from "../types.ts";
import { bodyOf, dataOf } from "../typed.ts";
import { DATASETS, collections, createDataset, createIn, seen, walk } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";

const AGENTS = "/v1/tracking_agents";

/**
 * The assertions judging each generic collection's delete (by list path):
 * the delete succeeds (the seed: "empty body"), its 204, that reads by id then
 * answer 404, and that the list no longer shows it, each the seed's where an
 * endpoint or state table says it, else the contract's decision.
 */
const COLLECTION = {
  "/v1/audience_datasets": {
    deleted: "audienceDeleted",
    empty204: "audience204",
    gone: "audienceGone",
    unlisted: "audienceUnlisted",
  },
  "/v1/custom_parameters": {
    deleted: "parameterDeleted",
    empty204: "parameterDecided",
    gone: "parameterDecided",
    unlisted: "parameterDecided",
  },
  "/v1/tracking_agents": {
    deleted: "agentDeleted",
    empty204: "agent204",
    gone: "agentGone",
    unlisted: "agentUnlisted",
  },
} as const;

/** An agent naming the dataset, created before the dataset is deleted (undefined when the deployment refuses it). */
async function agentOf(ctx: CheckContext, datasetId: string): Promise<string | undefined> {
  if (!ctx.contract.op(`POST ${AGENTS}`) || !ctx.contract.op(`GET ${AGENTS}/{agent_id}`)) {
    ctx.notExercised("the contract has no tracking agents to name a deleted dataset");
    return undefined;
  }
  ctx.mutates("tracking agent naming a dataset to delete");
  const ex = await ctx.req({
    method: "POST",
    path: AGENTS,
    body: {
      name: ctx.name("lifecycle-delete-agent"),
      instructions: "Report what changes in the discussion of this dataset.",
      dataset_ids: [datasetId],
      count: 20,
      num_comments_per_post: 0,
      schedule: { frequency: "daily", time: "09:00" },
    },
  });
  const id = dataOf<TrackingAgentsTrackingAgent>(ex)?.id;
  if (ex.status >= 300 || typeof id !== "string") {
    // the plan's cap on agents, for one: not this rule's to judge
    ctx.notExercised(`creating a tracking agent answered ${ex.status} ${errorCode(ex) ?? ""}`);
    return undefined;
  }
  ctx.track("tracking agent", `${AGENTS}/${encodeURIComponent(id)}`);
  return id;
}

/**
 * D-DATASET-DELETED-REFS: a deleted dataset leaves the agent's `dataset_ids`;
 * a deployment that keeps it there must at least say it is gone when the
 * agent is triggered (404 dataset_not_found, or a 4xx whose detail names it).
 * The dataset never ran, so the trigger cannot start chargeable work.
 */
async function agentForgets(ctx: CheckContext<"agentForgets">, agentId: string, datasetId: string): Promise<void> {
  const path = `${AGENTS}/${encodeURIComponent(agentId)}`;
  const read = await ctx.req({ method: "GET", path });
  const ids = dataOf<TrackingAgentsTrackingAgent>(read)?.dataset_ids;
  if (read.status !== 200 || !Array.isArray(ids)) {
    ctx.notExercised(`reading the tracking agent answered ${read.status}`);
  } else if (ids.includes(datasetId)) {
    const trigger = await ctx.req({ method: "POST", path: `${path}/trigger` });
    const detail = JSON.stringify(bodyOf<{ detail: unknown }>(trigger)?.detail ?? "");
    const namesGone =
      (trigger.status === 404 && errorCode(trigger) === "dataset_not_found") ||
      (trigger.status >= 400 && trigger.status < 500 && detail.includes(datasetId));
    ctx.expect(
      namesGone,
      {
        judges: "agentForgets",
        title: `a tracking agent still lists the deleted dataset, and its trigger answered ${trigger.status} ${errorCode(trigger) ?? ""} without naming it gone`,
        received: { dataset_ids: ids, trigger: seen(trigger) },
        expected: `${datasetId} absent from dataset_ids, or the trigger answering 404 dataset_not_found or a 4xx naming it`,
      },
      trigger,
    );
  } else ctx.pass(read);
  const del = await ctx.req({ method: "DELETE", path });
  if (del.status < 300) ctx.untrack(path);
}

/**
 * After DELETE a resource is gone: a dataset's DELETE answers 204 and every
 * by-id operation then answers 404 dataset_not_found, the list leaves it out
 * (the seed's words), and a tracking agent that named it forgets it
 * (D-DATASET-DELETED-REFS). Every other collection with a delete: the delete
 * succeeds and the list leaves the resource out where the seed says so
 * (audience datasets, tracking agents); its 204 and the 404 of later reads
 * are the contract's decisions (D-EMPTY-204, D-AUD-DELETE, D-CP-DELETE,
 * D-TA-DELETE).
 */
export default defineCheck({
  id: "deleted-gone-everywhere",
  phase: "resources",
  rule: "DELETE answers 204; afterwards every by-id operation answers 404 (datasets: dataset_not_found) and lists no longer show it; a deleted dataset leaves the dataset_ids of a tracking agent that named it (or the agent's trigger names it as gone)",
  section: "Endpoints › Datasets (DELETE: soft delete) and every collection with a delete",
  severity: "critical",
  asserts: {
    datasetDeleted: seed("datasets.delete.204", status(204)),
    datasetGone: seed(
      [
        "dataset.soft-deleted-hidden",
        "datasets.delete.204",
        "datasets.runs.list.404",
        "endpoints.404-unknown-or-foreign",
      ],
      words("cannot be fetched by id"),
      code("dataset_not_found"),
      status(404),
    ),
    datasetUnlisted: seed(["dataset.soft-deleted-hidden", "datasets.delete.204"], words("excluded from lists")),
    agentForgets: decided("D-DATASET-DELETED-REFS"),
    audienceDeleted: seed("audience-datasets.delete", words("empty body on success")),
    audience204: decided("D-EMPTY-204", status(204)),
    audienceGone: decided("D-AUD-DELETE", status(404), code("audience_dataset_not_found")),
    audienceUnlisted: seed("audience-datasets.list", words("soft-deleted excluded")),
    parameterDeleted: seed("custom-parameters.delete", words("empty body")),
    parameterDecided: decided("D-CP-DELETE", status(204), status(404)),
    agentDeleted: seed("tracking-agent.delete", words("soft delete")),
    agent204: decided("D-EMPTY-204", status(204)),
    agentGone: decided("D-TA-DELETE", status(404)),
    agentUnlisted: seed("tracking-agent.delete", words("hidden from lists")),
  },
  requires: [
    "POST /v1/datasets",
    "DELETE /v1/datasets/{dataset_id}",
    "GET /v1/datasets/{dataset_id}",
    "GET /v1/datasets",
  ],
  async run(ctx) {
    const { id } = await createDataset(ctx, "lifecycle-delete");
    const agentId = await agentOf(ctx, id);
    const path = `${DATASETS}/${encodeURIComponent(id)}`;
    const del = await ctx.req({ method: "DELETE", path });
    ctx.expect(
      del.status === 204,
      {
        judges: "datasetDeleted",
        title: `DELETE answered ${del.status}`,
        received: seen(del),
        expected: { status: 204, body: "" },
      },
      del,
    );
    if (del.status < 300) ctx.untrack(path);
    const byId = ctx.contract.operations.filter(
      (o) => o.path === "/v1/datasets/{dataset_id}" || o.path === "/v1/datasets/{dataset_id}/runs",
    );
    for (const op of byId) {
      if (op.method === "POST") continue; // never start chargeable work on a deleted dataset from a check
      const ex = await ctx.req({
        method: op.method,
        path: op.path.replace("{dataset_id}", encodeURIComponent(id)),
        body: op.bodySchema ? (op.bodyExamples[0] ?? {}) : undefined,
      });
      ctx.expect(
        ex.status === 404 && bodyOf<CommonDatasetNotFoundError>(ex)?.error_code === "dataset_not_found",
        {
          judges: "datasetGone",
          title: `${op.operationId} on a deleted dataset answered ${ex.status}`,
          received: seen(ex),
          expected: { status: 404, error_code: "dataset_not_found" },
        },
        ex,
      );
    }
    if (agentId && del.status < 300) await agentForgets(ctx, agentId, id);
    const w = await walk<DatasetsDataset>(ctx, DATASETS, { limit: 100, maxPages: 20 });
    ctx.expect(
      !w.items.some((x) => x?.id === id),
      {
        judges: "datasetUnlisted",
        title: "the deleted dataset is still listed",
        received: w.items.find((x) => x?.id === id),
        expected: "absent",
      },
      w.pages.at(-1),
    );
    // every other collection of the contract with a delete
    for (const c of collections(ctx, [DATASETS])) {
      const names = COLLECTION[c.list as keyof typeof COLLECTION];
      if (!names) {
        ctx.notExercised(`${c.list}: the seed names no delete the kit knows for it`);
        continue;
      }
      const made = await createIn(ctx, c, "lifecycle-delete");
      if (!made.id) {
        // the contract's example refused (its plan, its caps, an open point of the body): a setup, not a finding
        ctx.notExercised(`${c.list}: create answered ${made.ex.status} ${errorCode(made.ex) ?? ""}`.trimEnd());
        continue;
      }
      const p = `${c.list}/${encodeURIComponent(made.id)}`;
      const d = await ctx.req({ method: "DELETE", path: p });
      if (d.status < 300) ctx.untrack(p);
      const deleted = ctx.expect(
        d.status >= 200 && d.status < 300,
        {
          judges: names.deleted,
          title: `DELETE ${c.item} answered ${d.status}`,
          received: seen(d),
          expected: { status: "2xx (204)", body: "" },
        },
        d,
      );
      if (!deleted) continue;
      ctx.expect(
        d.status === 204,
        {
          judges: names.empty204,
          title: `DELETE ${c.item} answered ${d.status}, not 204`,
          received: seen(d),
          expected: { status: 204, body: "" },
        },
        d,
      );
      for (const op of ctx.contract.operations.filter((o) => o.path === c.item && o.method !== "POST")) {
        const ex = await ctx.req({
          method: op.method,
          path: p,
          body: op.bodySchema ? (op.bodyExamples[0] ?? {}) : undefined,
        });
        ctx.expect(
          ex.status === 404,
          {
            judges: names.gone,
            title: `${op.operationId} on a deleted resource answered ${ex.status}`,
            received: seen(ex),
            expected: { status: 404 },
          },
          ex,
        );
      }
      // any collection: only the id is read; a list the seed shows as a bare array is read whole
      const lw = await walk<{ id: string }>(ctx, c.list, { limit: 100, maxPages: 20, bareArray: true });
      if (lw.error) {
        ctx.notExercised(`${c.list}: the list answered ${lw.error.status}`);
        continue;
      }
      ctx.expect(
        !lw.items.some((x) => x?.id === made.id),
        {
          judges: names.unlisted,
          title: `a deleted ${c.list} resource is still listed`,
          received: made.id,
          expected: "absent",
        },
        lw.pages.at(-1),
      );
    }
  },
});
