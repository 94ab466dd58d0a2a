import type { DatasetsDataset, DatasetsDatasetCreated } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { dataOf } from "../typed.ts";
import { collections, createDataset, createIn, idOf, seen, walk } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";

/** A created resource is readable and listed immediately, with the fields the create response promised. */
export default defineCheck({
  id: "created-readable-at-once",
  phase: "resources",
  rule: "A create answers 201; the new resource is readable by id and listed at once with the same values (datasets: the create response carries id, name, created_at)",
  section: "Endpoints › Datasets (and every collection with a 201 create); Resources › Dataset (create response)",
  severity: "critical",
  rules: { seed: "The create response carries only `id`, `name`, `created_at`." },
  decisions: ["D-CREATE-201"],
  requires: ["POST /v1/datasets", "GET /v1/datasets/{dataset_id}", "GET /v1/datasets"],
  async run(ctx) {
    const { id, name, ex } = await createDataset(ctx, "lifecycle-read");
    const created = dataOf<DatasetsDatasetCreated>(ex) ?? {};
    ctx.expect(ex.status === 201, { title: `create answered ${ex.status}`, received: ex.status, expected: 201 }, ex);
    ctx.expect(
      created.name === name && typeof created.created_at === "string",
      {
        title: "create response does not echo the name and created_at",
        received: created,
        expected: { id: "<id>", name, created_at: "<ISO 8601>" },
      },
      ex,
    );
    const read = await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(id)}` });
    const d = dataOf<DatasetsDataset>(read) ?? {};
    ctx.expect(
      read.status === 200 && d.id === id && d.name === name && d.created_at === created.created_at,
      {
        title: "the new dataset is not readable as created",
        received: seen(read),
        expected: { status: 200, data: { id, name, created_at: created.created_at } },
      },
      read,
    );
    const w = await walk<DatasetsDataset>(ctx, "/v1/datasets", {
      limit: 100,
      maxPages: 5,
      stopWhen: (items) => items.some((x) => x?.id === id),
    });
    ctx.expect(
      w.items.some((x) => x?.id === id),
      {
        title: "the new dataset is missing from the list",
        received: `${w.items.length} items without ${id}`,
        expected: `list contains ${id}`,
      },
      w.pages.at(-1),
    );
    // every other collection of the contract with a 201 create
    for (const c of collections(ctx, ["/v1/datasets"])) {
      const made = await createIn(ctx, c, "lifecycle-read");
      if (!made.id) {
        if (made.ex.status === 400 || made.ex.status === 409)
          ctx.notExercised(
            `${c.list}: create refused with ${made.ex.status} ${errorCode(made.ex) ?? ""} (plan or account state)`,
          );
        else
          ctx.fail(
            {
              title: `POST ${c.list} with the contract's example answered ${made.ex.status}`,
              received: seen(made.ex),
              expected: { status: 201, data: { id: "<id>" } },
            },
            made.ex,
          );
        continue;
      }
      const r = await ctx.req({ method: "GET", path: `${c.list}/${encodeURIComponent(made.id)}` });
      ctx.expect(
        r.status === 200 && idOf(r) === made.id,
        {
          title: `a new ${c.list} resource is not readable at once`,
          received: seen(r),
          expected: { status: 200, data: { id: made.id } },
        },
        r,
      );
      // any collection: only the id is read
      const lw = await walk<{ id: string }>(ctx, c.list, {
        limit: 100,
        maxPages: 5,
        stopWhen: (items) => items.some((x) => x?.id === made.id),
      });
      ctx.expect(
        lw.items.some((x) => x?.id === made.id),
        {
          title: `a new ${c.list} resource is missing from the list`,
          received: lw.error ? seen(lw.error) : `${lw.items.length} items without it`,
          expected: `list contains ${made.id}`,
        },
        lw.error ?? lw.pages.at(-1),
      );
    }
  },
});
