import { decision, defineCheck } from "../define-check.ts";
import { isObject } from "../typed.ts";
import { smallPageWalk } from "./support/pagination.ts";
import { walk } from "./support/util.ts";

/** Following cursors visits every item exactly once. */
export default defineCheck({
  id: "pagination-full-walk",
  phase: "lists",
  rule: "Following cursors page by page returns every item exactly once (no overlap, no gap)",
  section: "Resources › Conventions › Pagination",
  severity: "critical",
  rules: {
    seed: "Cursor based. … Pass a cursor back unchanged … Stop when `has_next` is false",
    decisions: [
      decision("D-LIST-ENVELOPE", { ops: /^(CustomParameters_list|CustomParameters_listRuns)$/ }),
      decision("D-TA-LIST", { ops: /^TrackingAgents_list$/ }),
    ],
  },
  decisions: ["D-LIST-ENVELOPE", "D-TA-LIST"],
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    const { ids, walk: main, items } = await smallPageWalk(ctx);
    if (main.error)
      ctx.fail(
        {
          title: `a page answered ${main.error.status}`,
          received: main.error.json,
          expected: "200 with a page",
        },
        main.error,
      );
    const seen = new Map<unknown, number>();
    items.forEach((x, i) => {
      if (seen.has(x?.id))
        ctx.fail(
          {
            title: `item ${x?.id} returned twice (positions ${seen.get(x?.id)} and ${i})`,
            received: items.map((y) => y?.id),
            expected: "each id once",
          },
          main.pages[Math.floor(i / 2)],
        );
      seen.set(x?.id, i);
    });
    const missing = ids.filter((id) => !seen.has(id));
    ctx.expect(
      missing.length === 0,
      {
        title: `${missing.length} created item(s) never returned by the walk`,
        received: items.map((y) => y?.id),
        expected: `includes ${missing.join(", ")}`,
      },
      main.pages.at(-1),
    );
    for (const p of main.pages) ctx.pass(p);
    // every other parameterless list of the contract: no item twice across pages of 2
    const others = ctx.contract.operations.filter(
      (o) =>
        o.method === "GET" &&
        !o.path.includes("{") &&
        o.path !== "/v1/datasets" &&
        o.params.some((p) => p.name === "limit"),
    );
    for (const op of others) {
      const w = await walk<unknown>(ctx, op.path, { limit: 2, maxPages: 6 });
      if (w.error) {
        ctx.fail(
          {
            title: `${op.operationId} page answered ${w.error.status}`,
            received: w.error.json ?? w.error.text.slice(0, 200),
            expected: "200 with a page",
          },
          w.error,
        );
        continue;
      }
      // an item without an id (chat messages carry message_id) is told apart by its whole body
      const ids = w.items.map((x) => JSON.stringify(isObject(x) ? (x.id ?? x.message_id ?? x) : x));
      const dup = ids.find((id, i) => ids.indexOf(id) !== i);
      ctx.expect(
        !dup,
        {
          title: `${op.operationId} returned ${dup} twice`,
          received: ids,
          expected: "each item once",
        },
        w.pages.at(-1),
      );
    }
  },
});
