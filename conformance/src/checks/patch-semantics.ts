import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { status, words } from "../grounding/facts.ts";
import { dataOf } from "../typed.ts";
import type { DatasetsDataset } from "../../../generated/client/types.gen.ts";
import { DATASETS, createDataset, seen } from "./support/util.ts";

/** What a no-op must leave as it was: the dataset as the deployment read it before. */
const KEPT = ["id", "name", "created_at"] as const;
/** Fields besides name a PATCH body may carry; name is the only updatable one. */
const OTHERS = ["url", "mentions_count", "created_at"] as const;

/**
 * PATCH of a dataset: {} is a no-op returning the dataset as it was read
 * before; a new name is stored and read back; "" stores null; other fields
 * sent beside name change nothing (refused or ignored).
 */
export default defineCheck({
  id: "patch-semantics",
  phase: "resources",
  rule: 'PATCH /v1/datasets/{id}: {} is a no-op answering 200 with the dataset as read before; a new name is stored and read back; {name: ""} stores null; other fields in the body change nothing',
  section: "Endpoints › Datasets (PATCH)",
  severity: "major",
  asserts: {
    noop: seed("datasets.update.semantics", words("Empty body is a no-op returning the current dataset"), status(200)),
    rename: seed(
      ["datasets.update.only-name", "datasets.update.semantics"],
      words("only updatable field"),
      status(200),
    ),
    others: seed("datasets.update.only-name", words("only updatable field")),
    clear: seed("datasets.update.semantics", words("empty string name stores null"), status(200)),
  },
  requires: ["PATCH /v1/datasets/{dataset_id}", "GET /v1/datasets/{dataset_id}"],
  async run(ctx) {
    const { id } = await createDataset(ctx, "patch");
    const path = `${DATASETS}/${encodeURIComponent(id)}`;
    const before = await ctx.req({ method: "GET", path });
    const current = dataOf<DatasetsDataset>(before);
    if (before.status !== 200 || !current) return ctx.skip(`the new dataset could not be read (${before.status})`);
    const noop = await ctx.req({ method: "PATCH", path, body: {} });
    const answered = dataOf<DatasetsDataset>(noop);
    const changed = KEPT.filter((k) => answered?.[k] !== current[k]);
    ctx.expect(
      noop.status === 200 && changed.length === 0,
      {
        judges: "noop",
        title: `an empty PATCH answered ${noop.status}${changed.length ? ` with ${changed.join(", ")} changed` : ""}`,
        received: seen(noop),
        expected: { status: 200, data: Object.fromEntries(KEPT.map((k) => [k, current[k]])) },
      },
      noop,
    );
    const renamed = ctx.name("patch-renamed");
    const up = await ctx.req({ method: "PATCH", path, body: { name: renamed } });
    ctx.expect(
      up.status === 200 && dataOf<DatasetsDataset>(up)?.name === renamed,
      {
        judges: "rename",
        title: `PATCH {name} answered ${up.status} without the new name`,
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
        judges: "rename",
        title: "the new name was not stored",
        received: seen(read),
        expected: { data: { name: renamed } },
      },
      read,
    );
    // name is the only updatable field: other fields in the body change nothing (refused or ignored)
    if (read.status === 200 && d) {
      const others = {
        url: "https://example.invalid/slk",
        mentions_count: 999_999,
        created_at: "2000-01-01T00:00:00Z",
      };
      await ctx.req({ method: "PATCH", path, body: { name: renamed, ...others } });
      const again = await ctx.req({ method: "GET", path });
      const after = dataOf<DatasetsDataset>(again);
      const moved = OTHERS.filter((k) => after?.[k] !== d[k]);
      ctx.expect(
        again.status === 200 && !!after && moved.length === 0,
        {
          judges: "others",
          title: `a PATCH with other fields than name changed ${moved.join(", ") || "the dataset's read"}`,
          received: after ? Object.fromEntries(moved.map((k) => [k, after[k]])) : seen(again),
          expected: Object.fromEntries(moved.map((k) => [k, d[k]])),
        },
        again,
      );
    }
    const clear = await ctx.req({ method: "PATCH", path, body: { name: "" } });
    ctx.expect(
      clear.status === 200 && dataOf<DatasetsDataset>(clear)?.name === null,
      {
        judges: "clear",
        title: `PATCH {name: ""} answered ${clear.status} without name null`,
        received: seen(clear),
        expected: { status: 200, data: { name: null } },
      },
      clear,
    );
  },
});
