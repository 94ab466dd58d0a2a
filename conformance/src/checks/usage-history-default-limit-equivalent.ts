import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { byDefault } from "../grounding/facts.ts";
import type { CheckContext } from "../types.ts";
import { priceOf } from "./support/groups.ts";
import { chargeOrReason, reasonIfSkipped } from "./support/util.ts";
import { judgeDefaultPage, pageSize } from "./support/pagination.ts";
import { PREVIEWS, previewExample } from "./support/previews.ts";

const DEFAULT = 25;
const HISTORY = "/v1/me/usage_history";
/** The most charges the kit makes to fill the history (one preview of one source each: one unit). */
const MAX_FILL = DEFAULT + 1;

/** How many rows the history lists on one page of DEFAULT + 1. */
async function held(ctx: CheckContext): Promise<number> {
  return Math.max(0, pageSize(await ctx.req({ method: "GET", path: `${HISTORY}?limit=${DEFAULT + 1}` })));
}

/**
 * Fill the usage history past its default page with the cheapest charge the
 * seed names: prompt previews of one source (preview_generation: one unit
 * each, no partial refund), from the contract's example. Stops at the first
 * preview the deployment does not accept.
 */
async function fill(ctx: CheckContext, have: number): Promise<string | undefined> {
  const body = previewExample(ctx, "prompt");
  body.sources = body.sources?.slice(0, 1);
  const n = Math.min(MAX_FILL, DEFAULT + 1 - have);
  const price = await priceOf(ctx, "preview_generation");
  const refused = chargeOrReason(ctx, price.mul(n).toFixed(), `${n} one-source prompt previews`);
  if (refused) return refused;
  for (let i = 0; i < n; i++) {
    const ex = await ctx.req({ method: "POST", path: PREVIEWS, body });
    if (ex.status < 200 || ex.status >= 300) return `preview ${i + 1} of ${n} answered ${ex.status}`;
  }
  return undefined;
}

/**
 * "omitted ≡ the seed's default" for usage history: the page without `limit`
 * is the page with limit=25, the same rows and the same has_next. It runs
 * after the group checks (whose charges write rows); an account holding 25
 * rows or fewer gets what is missing from one-source previews (a unit each).
 */
export default defineCheck({
  id: "usage-history-default-limit-equivalent",
  phase: "groups",
  after: ["audience-*", "custom-parameter-*", "pattern-*", "tracking-agent-*", "profiles-default-limit-equivalent"],
  rule: "GET /v1/me/usage_history without limit answers the page limit=25 answers: the same rows, the same has_next",
  section:
    "Endpoints › Account and prices (usage history: limit default 25); Limits › Concurrency and caps (page size defaults)",
  severity: "major",
  asserts: {
    default: seed("usage-history.limit", byDefault(DEFAULT, "limit")),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me/usage_history"],
  async run(ctx) {
    const have = await held(ctx);
    if (have <= DEFAULT && ctx.settings.profile !== "readonly" && ctx.contract.has(`POST ${PREVIEWS}`)) {
      const refused = await reasonIfSkipped(fill(ctx, have));
      if (refused) ctx.notExercised(`filling the usage history: ${refused}`);
    }
    await judgeDefaultPage(ctx, {
      judges: "default",
      what: `GET ${HISTORY}`,
      dflt: DEFAULT,
      omitted: () => ctx.req({ method: "GET", path: HISTORY }),
      explicit: () => ctx.req({ method: "GET", path: `${HISTORY}?limit=${DEFAULT}` }),
    });
  },
});
