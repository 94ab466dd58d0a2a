import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { byDefault, order, value } from "../grounding/facts.ts";
import { DATASETS, seen } from "./support/util.ts";
import {
  fillCollection,
  itemsHaveCreatedAt,
  orderBreak,
  otherLists,
  pageItems,
  paginationFixture,
  smallPageWalk,
} from "./support/pagination.ts";

/** The assertion judging each other list's default order, by path: the seed's where its row names `order`, else the contract's. */
const OTHER = {
  "/v1/audience_datasets": "audienceDefault",
  "/v1/custom_parameters": "parametersDefault",
  "/v1/tracking_agents": "agentsDefault",
} as const;

/**
 * Lists sorted by created_at: the dataset list with order=desc is newest
 * first (datasets the kit created in sequence listed latest first), with
 * order=asc oldest first; every other list with `order`, sent without it,
 * is newest first (the default desc). That `order` omitted and order=desc
 * give the same page is pagination-order-default-equivalent's.
 */
export default defineCheck({
  id: "pagination-default-order",
  phase: "lists",
  rule: "The dataset list is sorted by created_at: order=desc newest first, order=asc oldest first; other lists with `order` are newest first without it (audience datasets: the seed; custom parameters, tracking agents: D-CP-LIST, D-TA-LIST)",
  section:
    "Endpoints › Datasets, Audience datasets (GET list sorted by created_at); Resources › Conventions › Pagination (default desc)",
  severity: "major",
  asserts: {
    desc: seed(["datasets.list.sorted", "pagination.order-default-desc"], order("sorted by created_at"), value("desc")),
    asc: seed(["datasets.list.sorted", "pagination.order-default-desc"], order("sorted by created_at"), value("asc")),
    audienceDefault: seed(
      ["audience-datasets.list", "pagination.order-default-desc"],
      order("sorted by created_at"),
      byDefault("desc", "order"),
    ),
    parametersDefault: decided("D-CP-LIST"),
    agentsDefault: decided("D-TA-LIST"),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    const { ids, walk, items } = await smallPageWalk(ctx);
    if (walk.error)
      ctx.fail(
        {
          judges: "desc",
          title: `a page of the order=desc walk answered ${walk.error.status}`,
          received: seen(walk.error),
          expected: "200 with a page",
        },
        walk.error,
      );
    const brk = orderBreak(items, "desc");
    ctx.expect(
      !brk,
      {
        judges: "desc",
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
          judges: "desc",
          title: "datasets created in sequence are not listed newest first with order=desc",
          received: pos,
          expected: "later creations at lower positions",
        },
        walk.pages[0],
      );
    }
    await paginationFixture(ctx);
    const asc = await ctx.req({ method: "GET", path: `${DATASETS}?limit=5&order=asc` });
    const ascItems = pageItems(asc);
    const ascBreak = orderBreak(ascItems, "asc");
    ctx.expect(
      asc.status === 200 && !ascBreak,
      {
        judges: "asc",
        title: `order=asc is not oldest first${ascBreak ? `: ${ascBreak.why}` : ` (answered ${asc.status})`}`,
        received: asc.status === 200 ? ascItems.map((x) => x?.created_at) : seen(asc),
        expected: "200, created_at non-decreasing",
      },
      asc,
    );
    // every other list with an order parameter: newest first without it
    for (const other of otherLists(ctx).filter((o) => o.params.some((p) => p.name === "order"))) {
      const judges = OTHER[other.path as keyof typeof OTHER];
      if (!judges) {
        ctx.notExercised(`${other.operationId}: the kit knows no rule for its order`);
        continue;
      }
      if (!itemsHaveCreatedAt(ctx.contract, other)) {
        ctx.notExercised(`${other.operationId}: its items document no created_at`);
        continue;
      }
      if (ctx.settings.profile !== "readonly") await fillCollection(ctx, other.path, 2);
      const ex = await ctx.req({ method: "GET", path: `${other.path}?limit=100` });
      const listItems = pageItems(ex);
      if (ex.status !== 200 || listItems.length < 2) {
        ctx.notExercised(
          `${other.operationId}: ${ex.status === 200 ? `${listItems.length} item(s) listed` : `answered ${ex.status}`}, no order to see`,
        );
        continue;
      }
      const o = orderBreak(listItems, "desc");
      ctx.expect(
        !o,
        {
          judges,
          title: `${other.operationId} without order is not newest first${o ? `: ${o.why}` : ""}`,
          received: listItems.slice(Math.max(0, (o?.index ?? 0) - 1), (o?.index ?? 0) + 1).map((x) => x?.created_at),
          expected: "created_at non-increasing (default order desc)",
        },
        ex,
      );
    }
  },
});
