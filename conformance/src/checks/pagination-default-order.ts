import { decision, defineCheck } from "../define-check.ts";
import { DATASETS, seen } from "./support/util.ts";
import {
  itemsHaveCreatedAt,
  orderBreak,
  otherLists,
  pageIds,
  pageItems,
  paginationFixture,
  smallPageWalk,
} from "./support/pagination.ts";

/** Lists are sorted by created_at; the default order is desc, and asc reverses it. */
export default defineCheck({
  id: "pagination-default-order",
  phase: "lists",
  rule: "Dataset lists are sorted by created_at, newest first by default (order=desc); order=asc is oldest first",
  section: "Endpoints › Datasets (GET list sorted by created_at); Resources › Conventions › Pagination (default desc)",
  severity: "major",
  rules: {
    seed: "`order` (`asc` or `desc`, default `desc`, where supported)",
    decisions: [
      decision("D-TA-LIST", { ops: /^TrackingAgents_list$/ }),
      // the seed answers custom parameters as "array of CustomParameter": their order (created_at, default desc) is the contract's
      decision("D-CP-LIST", { ops: /^CustomParameters_list$/ }),
    ],
  },
  decisions: ["D-TA-LIST", "D-TA-MESSAGES-ORDER", "D-CP-LIST"],
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    const { ids, walk, items } = await smallPageWalk(ctx);
    if (walk.error)
      ctx.fail(
        {
          title: `a page of the walk answered ${walk.error.status}`,
          received: seen(walk.error),
          expected: "200 with a page",
        },
        walk.error,
      );
    const brk = orderBreak(items, "desc");
    ctx.expect(
      !brk,
      {
        title: `order=desc walk is not newest first: ${brk?.why}`,
        received: items
          .slice(Math.max(0, (brk?.index ?? 0) - 1), (brk?.index ?? 0) + 1)
          .map((x) => ({ id: x?.id, created_at: x?.created_at })),
        expected: "created_at non-increasing, present on every item",
      },
      walk.pages[Math.floor((brk?.index ?? 0) / 2)],
    );
    if (ids.length) {
      const pos = ids.map((id) => items.findIndex((x) => x?.id === id));
      const createdAt = ids.map((id) => items.find((x) => x?.id === id)?.created_at);
      // Two creations within one timestamp tick tie on created_at, and a tie may
      // list either way: only a strictly later creation must come first.
      const inOrder = pos.every(
        (p, i) => i === 0 || p < pos[i - 1]! || (createdAt[i] !== undefined && createdAt[i] === createdAt[i - 1]),
      );
      ctx.expect(
        inOrder,
        {
          title: "datasets created in sequence are not listed newest first",
          received: pos,
          expected: "later creations at lower positions",
        },
        walk.pages[0],
      );
    }
    await paginationFixture(ctx);
    const dflt = await ctx.req({ method: "GET", path: `${DATASETS}?limit=5` });
    const desc = await ctx.req({ method: "GET", path: `${DATASETS}?limit=5&order=desc` });
    const a = pageIds(dflt);
    const b = pageIds(desc);
    ctx.expect(
      dflt.status === 200 && desc.status === 200 && JSON.stringify(a) === JSON.stringify(b),
      {
        title: "without order the list is not in desc order",
        received: { status: dflt.status, ids: a },
        expected: { status: 200, ids: b },
      },
      dflt,
    );
    const asc = await ctx.req({ method: "GET", path: `${DATASETS}?limit=5&order=asc` });
    const ascItems = pageItems(asc);
    const ascBreak = orderBreak(ascItems, "asc");
    ctx.expect(
      asc.status === 200 && !ascBreak,
      {
        title: `order=asc is not oldest first${ascBreak ? `: ${ascBreak.why}` : ""}`,
        received: asc.status === 200 ? ascItems.map((x) => x?.created_at) : seen(asc),
        expected: "200, created_at non-decreasing",
      },
      asc,
    );
    // every other list without an order parameter or with order: newest first by default (D-TA-LIST, D-TA-MESSAGES-ORDER, D-USAGE-ORDER)
    for (const other of otherLists(ctx).filter((o) => o.params.some((p) => p.name === "order"))) {
      if (!itemsHaveCreatedAt(ctx.contract, other)) {
        ctx.notExercised(`${other.operationId}: its items document no created_at`);
        continue;
      }
      const ex = await ctx.req({ method: "GET", path: `${other.path}?limit=100` });
      if (ex.status !== 200) {
        ctx.fail(
          {
            title: `${other.operationId} answered ${ex.status}`,
            received: seen(ex),
            expected: "200 with a page",
          },
          ex,
        );
        continue;
      }
      const listItems = pageItems(ex);
      const o = orderBreak(listItems, "desc");
      ctx.expect(
        !o,
        {
          title: `${other.operationId} without order is not newest first${o ? `: ${o.why}` : ""}`,
          received: listItems.slice(Math.max(0, (o?.index ?? 0) - 1), (o?.index ?? 0) + 1).map((x) => x?.created_at),
          expected: "created_at non-increasing (default order desc)",
        },
        ex,
      );
    }
  },
});
