import type { CommonDatasetNotFoundError, DatasetsDataset } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { bodyOf } from "../typed.ts";
import { DATASETS, collections, createDataset, createIn, seen, walk } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";

/** After DELETE (204) a resource is 404 on every by-id operation and gone from lists. */
export default defineCheck({
  id: "deleted-gone-everywhere",
  phase: "resources",
  rule: "DELETE answers 204; afterwards every by-id operation answers 404 (datasets: dataset_not_found) and lists no longer show it",
  section: "Endpoints › Datasets (DELETE: soft delete) and every collection with a delete",
  severity: "critical",
  rules: { seed: "soft delete; dataset and its runs disappear from lists and by-id reads" },
  decisions: ["D-EMPTY-204"],
  requires: [
    "POST /v1/datasets",
    "DELETE /v1/datasets/{dataset_id}",
    "GET /v1/datasets/{dataset_id}",
    "GET /v1/datasets",
  ],
  async run(ctx) {
    const { id } = await createDataset(ctx, "lifecycle-delete");
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
