import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { dataOf } from "../typed.ts";
import type { DatasetsDataset } from "../../../generated/client/types.gen.ts";
import { fixtureDataset, is2xx, seen, walk } from "./support/util.ts";
import { stuckWalk } from "./support/pagination.ts";

/** Account-shared resources are visible to every key on the account: another seat reads and lists a dataset. */
export default defineCheck({
  id: "second-seat-shares-account",
  phase: "isolation",
  rule: "A dataset created by one seat is readable (2xx, the same id) and listed for another seat of the same account",
  section: "Authentication › REST (3)",
  severity: "major",
  asserts: {
    shared: seed("auth.account-shared", words("Account-shared resources are visible to every key on the account")),
  },
  keys: ["second"],
  requires: ["GET /v1/datasets/{dataset_id}", "GET /v1/datasets"],
  async run(ctx) {
    const ds = await fixtureDataset(ctx);
    const ex = await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(ds.id)}`, key: "second" });
    ctx.expect(
      is2xx(ex) && dataOf<DatasetsDataset>(ex)?.id === ds.id,
      {
        judges: "shared",
        title: "another seat cannot read the account's dataset",
        received: seen(ex),
        expected: { status: "2xx", data: { id: ds.id } },
      },
      ex,
    );
    const w = await walk<DatasetsDataset>(ctx, "/v1/datasets", {
      limit: 100,
      key: "second",
      maxPages: 20,
      stopWhen: (items) => items.some((d) => d?.id === ds.id),
    });
    if (w.items.some((d) => d?.id === ds.id)) return ctx.pass(w.pages.at(-1)!);
    // the whole list read without it, or a walk stuck before its end: the dataset is not shared
    const stuck = stuckWalk(w);
    if (!w.complete && !stuck)
      return ctx.notExercised(
        w.error
          ? `another seat's list walk stopped at ${w.error.status}`
          : `another seat's list is longer than ${w.pages.length} pages: the dataset was not reached`,
      );
    ctx.fail(
      {
        judges: "shared",
        title: stuck
          ? `another seat's list walk is stuck (${stuck.why})`
          : "another seat's list lacks the account's dataset",
        received: `${w.items.length} items without it`,
        expected: `contains ${ds.id}`,
      },
      w.pages.at(-1),
    );
  },
});
