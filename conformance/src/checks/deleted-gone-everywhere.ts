import type {
  CommonDatasetNotFoundError,
  DatasetsDataset,
  TrackingAgentsTrackingAgent,
} from "../../../generated/client/types.gen.ts";
import { decision, defineCheck } from "../define-check.ts";
import type { CheckContext } from "../types.ts";
import { bodyOf, dataOf } from "../typed.ts";
import { DATASETS, collections, createDataset, createIn, seen, walk } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";

const AGENTS = "/v1/tracking_agents";

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
async function agentForgets(ctx: CheckContext, agentId: string, datasetId: string): Promise<void> {
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

/** After DELETE (204) a resource is 404 on every by-id operation and gone from lists. */
export default defineCheck({
  id: "deleted-gone-everywhere",
  phase: "resources",
  rule: "DELETE answers 204; afterwards every by-id operation answers 404 (datasets: dataset_not_found) and lists no longer show it; a deleted dataset leaves the dataset_ids of a tracking agent that named it (or the agent's trigger names it as gone)",
  section: "Endpoints › Datasets (DELETE: soft delete) and every collection with a delete",
  severity: "critical",
  rules: {
    seed: "soft delete; dataset and its runs disappear from lists and by-id reads",
    decisions: [decision("D-DATASET-DELETED-REFS", { title: /tracking agent still lists/ })],
  },
  decisions: ["D-EMPTY-204", "D-DATASET-DELETED-REFS"],
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
        title: "the deleted dataset is still listed",
        received: w.items.find((x) => x?.id === id),
        expected: "absent",
      },
      w.pages.at(-1),
    );
    // every other collection of the contract with a delete
    for (const c of collections(ctx, [DATASETS])) {
      const made = await createIn(ctx, c, "lifecycle-delete");
      if (!made.id) {
        ctx.notExercised(`${c.list}: create answered ${made.ex.status} ${errorCode(made.ex) ?? ""}`);
        continue;
      }
      const p = `${c.list}/${encodeURIComponent(made.id)}`;
      const d = await ctx.req({ method: "DELETE", path: p });
      ctx.expect(
        d.status === 204 && d.text === "",
        {
          title: `DELETE ${c.item} answered ${d.status}`,
          received: seen(d),
          expected: { status: 204, body: "" },
        },
        d,
      );
      if (d.status < 300) ctx.untrack(p);
      for (const op of ctx.contract.operations.filter((o) => o.path === c.item && o.method !== "POST")) {
        const ex = await ctx.req({
          method: op.method,
          path: p,
          body: op.bodySchema ? (op.bodyExamples[0] ?? {}) : undefined,
        });
        ctx.expect(
          ex.status === 404,
          {
            title: `${op.operationId} on a deleted resource answered ${ex.status}`,
            received: seen(ex),
            expected: { status: 404 },
          },
          ex,
        );
      }
      // any collection: only the id is read
      const lw = await walk<{ id: string }>(ctx, c.list, { limit: 100, maxPages: 20 });
      ctx.expect(
        !lw.items.some((x) => x?.id === made.id),
        {
          title: `a deleted ${c.list} resource is still listed`,
          received: made.id,
          expected: "absent",
        },
        lw.pages.at(-1),
      );
    }
  },
});
