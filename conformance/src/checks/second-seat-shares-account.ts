import { defineCheck } from "../define-check.ts";
import { dataOf } from "../typed.ts";
import type { DatasetsDataset } from "../../../generated/client/types.gen.ts";
import { fixtureDataset, seen, walk } from "./support/util.ts";

/** Account-shared resources are visible to every key on the account. */
export default defineCheck({
  id: "second-seat-shares-account",
  phase: "isolation",
  rule: "A dataset created by one seat is readable and listed for another seat of the same account",
  section: "Authentication › REST (3)",
  severity: "major",
  rules: { seed: "Account-shared resources are visible to every key on the account" },
  keys: ["second"],
  requires: ["GET /v1/datasets/{dataset_id}", "GET /v1/datasets"],
  async run(ctx) {
    const ds = await fixtureDataset(ctx);
    const ex = await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(ds.id)}`, key: "second" });
    ctx.expect(
      ex.status === 200 && dataOf<DatasetsDataset>(ex)?.id === ds.id,
      {
        title: "another seat cannot read the account's dataset",
        received: seen(ex),
        expected: { status: 200, data: { id: ds.id } },
      },
      ex,
    );
    const w = await walk<DatasetsDataset>(ctx, "/v1/datasets", {
      limit: 100,
      key: "second",
      maxPages: 20,
      stopWhen: (items) => items.some((d) => d?.id === ds.id),
    });
    ctx.expect(
      w.items.some((d) => d?.id === ds.id),
      {
        title: "another seat's list lacks the account's dataset",
        received: w.items.length + " items without it",
        expected: `contains ${ds.id}`,
      },
      w.pages.at(-1),
    );
  },
});
