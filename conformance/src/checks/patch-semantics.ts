import { defineCheck } from "../define-check.ts";
import { dataOf } from "../typed.ts";
import type { DatasetsDataset } from "../../../generated/client/types.gen.ts";
import { DATASETS, createDataset, seen } from "./support/util.ts";

/** PATCH: empty body is a no-op returning the dataset; "" stores null; a name is stored and read back. */
export default defineCheck({
  id: "patch-semantics",
  phase: "resources",
  rule: 'PATCH /v1/datasets/{id}: {} is a no-op returning the current dataset; {name: ""} stores null; a new name is stored and read back; other fields in the body change nothing',
  section: "Endpoints › Datasets (PATCH)",
  severity: "major",
  rules: {
    seed: "body `{name?}`; only updatable field. Empty body is a no-op returning the current dataset; empty string name stores null",
  },
  requires: ["PATCH /v1/datasets/{dataset_id}", "GET /v1/datasets/{dataset_id}"],
  async run(ctx) {
    const { id, name } = await createDataset(ctx, "patch");
    const path = `${DATASETS}/${encodeURIComponent(id)}`;
    const noop = await ctx.req({ method: "PATCH", path, body: {} });
    ctx.expect(
      noop.status === 200 && dataOf<DatasetsDataset>(noop)?.name === name,
      {
        title: "an empty PATCH changed the dataset or failed",
        received: seen(noop),
        expected: { status: 200, data: { id, name } },
      },
      noop,
    );
    const renamed = ctx.name("patch-renamed");
    const up = await ctx.req({ method: "PATCH", path, body: { name: renamed } });
    ctx.expect(
      up.status === 200 && dataOf<DatasetsDataset>(up)?.name === renamed,
      {
        title: "PATCH {name} did not return the new name",
        received: seen(up),
        expected: { status: 200, data: { name: renamed } },
      },
      up,
    );
    const read = await ctx.req({ method: "GET", path });
    const d = dataOf<DatasetsDataset>(read);
    ctx.expect(
      read.status === 200 && d?.name === renamed,
      {
        title: "the new name was not stored",
        received: seen(read),
        expected: { data: { name: renamed } },
      },
      read,
    );
    if (d && typeof d.updated_at === "string" && typeof d.created_at === "string")
      ctx.expect(
        Date.parse(d.updated_at) >= Date.parse(d.created_at),
        {
          title: "updated_at precedes created_at",
          received: { created_at: d.created_at, updated_at: d.updated_at },
          expected: "updated_at >= created_at",
        },
        read,
      );
    // name is the only updatable field: other fields in the body change nothing (refused or ignored)
    const others = { url: "https://example.invalid/slk", mentions_count: 999_999, created_at: "2000-01-01T00:00:00Z" };
    await ctx.req({ method: "PATCH", path, body: { name: renamed, ...others } });
    const after = dataOf<DatasetsDataset>(await ctx.req({ method: "GET", path }));
    const changed = (["url", "mentions_count", "created_at"] as const).filter((k) => d && after?.[k] !== d[k]);
    ctx.expect(
      !!after && changed.length === 0,
      {
        title: `a PATCH with other fields than name changed ${changed.join(", ") || "the dataset's read"}`,
        received: after && Object.fromEntries(changed.map((k) => [k, after[k]])),
        expected: d && Object.fromEntries(changed.map((k) => [k, d[k]])),
      },
      read,
    );
    const clear = await ctx.req({ method: "PATCH", path, body: { name: "" } });
    ctx.expect(
      clear.status === 200 && dataOf<DatasetsDataset>(clear)?.name === null,
      {
        title: 'PATCH {name: ""} did not store null',
        received: seen(clear),
        expected: { status: 200, data: { name: null } },
      },
      clear,
    );
  },
});
