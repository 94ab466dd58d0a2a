import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { byDefault } from "../grounding/facts.ts";
import type { CheckContext } from "../types.ts";
import { listOf } from "./support/util.ts";
import { equivalent, fillCollection, paginationFixture, runsFixture, viewOf } from "./support/pagination.ts";

/** Pages of two: an order that differs shows on the first page of any list of three items or more. */
const PAGE = 2;
const AUD = "/v1/audience_datasets";

type Judge = "desc" | "parameters" | "agents";

/**
 * "`order` (`asc` or `desc`, default `desc`, where supported)": on every list
 * whose row names `order` (datasets, a dataset's runs, audience datasets, an
 * audience dataset's runs) a page without `order` is the page with
 * order=desc, the same items and the same has_next. A list that ignores
 * `order` answers both alike, as "where supported" allows. The custom
 * parameter and tracking agent lists take `order` by the contract's decision.
 */
export default defineCheck({
  id: "pagination-order-default-equivalent",
  phase: "lists",
  rule: "A list that takes `order` answers the same page (items, has_next) without it as with order=desc: datasets, a dataset's runs, audience datasets, an audience dataset's runs (the seed); custom parameters, tracking agents (D-CP-LIST, D-TA-LIST)",
  section: "Resources › Conventions › Pagination (order default desc, where supported)",
  severity: "major",
  asserts: {
    desc: seed("pagination.order-default-desc", byDefault("desc", "order")),
    parameters: decided("D-CP-LIST", byDefault("desc", "order")),
    agents: decided("D-TA-LIST", byDefault("desc", "order")),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    await paginationFixture(ctx);
    await compare(ctx, "/v1/datasets", "desc");
    if (ctx.contract.op("GET /v1/datasets/{dataset_id}/runs")) {
      const runs = ctx.settings.profile === "readonly" ? undefined : await runsFixture(ctx, 11);
      if (runs?.dataset) await compare(ctx, `/v1/datasets/${encodeURIComponent(runs.dataset)}/runs`, "desc");
      else ctx.notExercised(`a dataset's runs: ${runs?.refused ?? "none built in the readonly profile"}`);
    }
    if (ctx.contract.op(`GET ${AUD}`)) {
      if (ctx.settings.profile !== "readonly") await fillCollection(ctx, AUD, PAGE);
      await compare(ctx, AUD, "desc");
      await audienceRuns(ctx);
    }
    if (ctx.contract.op("GET /v1/custom_parameters")) {
      if (ctx.settings.profile !== "readonly") await fillCollection(ctx, "/v1/custom_parameters", PAGE);
      await compare(ctx, "/v1/custom_parameters", "parameters");
    }
    if (ctx.contract.op("GET /v1/tracking_agents")) await compare(ctx, "/v1/tracking_agents", "agents");
  },
});

/** One list: the page of two without order against the page of two with order=desc. */
async function compare(ctx: CheckContext<Judge>, path: string, judges: Judge): Promise<void> {
  const what = `GET ${path.replace(/\/(ds|ad)_[^/]+/, "/{id}")}`;
  const eq = await equivalent(
    () => ctx.req({ method: "GET", path: `${path}?limit=${PAGE}` }),
    () => ctx.req({ method: "GET", path: `${path}?limit=${PAGE}&order=desc` }),
  );
  if (eq.verdict === "moving") return ctx.notExercised(`${what}: the list kept changing between reads`);
  const b = viewOf(eq.b);
  if (eq.b.status !== 200 || !b.items)
    return ctx.notExercised(`${what}: order=desc answered ${eq.b.status} without a page`);
  if (b.items.length < 2) return ctx.notExercised(`${what}: ${b.items.length} item(s), no order to tell apart`);
  ctx.expect(
    eq.verdict === "same",
    {
      judges,
      title: `${what} without order answered another page than with order=desc (its default)`,
      received: { without_order: viewOf(eq.a) },
      expected: { as_order_desc: b },
    },
    eq.a,
  );
}

/** An audience dataset of the account holding two runs or more (the kit builds none: runs collect charged profiles). */
async function audienceRuns(ctx: CheckContext<Judge>): Promise<void> {
  if (!ctx.contract.op(`GET ${AUD}/{audience_dataset_id}/runs`)) return;
  const list = await ctx.req({ method: "GET", path: `${AUD}?limit=10` });
  for (const ad of (listOf(list) ?? []).slice(0, 10)) {
    const id = (ad as { id?: unknown })?.id;
    if (typeof id !== "string") continue;
    const runs = `${AUD}/${encodeURIComponent(id)}/runs`;
    const probe = await ctx.req({ method: "GET", path: `${runs}?limit=${PAGE}` });
    if ((listOf(probe)?.length ?? 0) >= 2) return compare(ctx, runs, "desc");
  }
  ctx.notExercised("an audience dataset's runs: no audience dataset among the newest ten holds two runs");
}
