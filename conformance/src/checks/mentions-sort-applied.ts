import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { value } from "../grounding/facts.ts";
import { bodyOf } from "../typed.ts";
import type { MentionsMentionPage } from "../../../generated/client/types.gen.ts";
import { labelledPool, MENTION_POOL, SORT_FIELD, mentionsAtLeast, sortKeys, type Mention } from "./support/mentions.ts";
import type { CheckContext } from "../types.ts";
import { seen } from "./support/util.ts";

const PAGE = 20;
const PAGES = 2;

/**
 * Every sort key of the mention search, walked over two pages of 20: the order
 * holds across the cursor (a server that ignores `sort` fails as soon as a
 * key's values are not already in date order). Null values (e.g. no sentiment)
 * are not compared. A key whose values do not differ among the account's
 * mentions is walked again on the kit's labelled pool (built once per kit
 * run), searched within that dataset.
 */
export default defineCheck({
  id: "mentions-sort-applied",
  phase: "lists",
  rule: "A mention search sorted by any documented key with order=desc (and by date with order=asc) returns mentions in that order across a cursor walk; without sort the order is date desc (D-MENTIONS-SORT-DEFAULT, lenient)",
  section: "Endpoints › Mentions (sort, order)",
  severity: "major",
  asserts: {
    sorted: seed(
      "mentions.sort",
      ...["date", "likes", "engagement_rate", "views", "comments", "shares", "sentiment_score", "dataset_run_at"].map(
        (k) => value(k),
      ),
      value("asc"),
      value("desc"),
    ),
    // lenient: a search without sort in another order only warns (through the lenient registry)
    defaultSort: decided("D-MENTIONS-SORT-DEFAULT"),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["POST /v1/mentions"],
  async run(ctx) {
    await mentionsAtLeast(ctx, MENTION_POOL);
    const keys = sortKeys(ctx.contract);
    // the account's mentions first; the walks they leave unexercised, on the kit's labelled pool
    let left = await sortWalks(ctx, keys);
    if (left.length && ctx.settings.profile !== "readonly") {
      const pool = await labelledPool(ctx);
      if (pool) left = await sortWalks(ctx, [...new Set(left.map((l) => l.key))], pool);
    }
    for (const l of left) ctx.notExercised(l.why);
    // D-MENTIONS-SORT-DEFAULT (lenient): without sort/order, the first page is the date desc page
    const dflt = await ctx.req({ method: "POST", path: "/v1/mentions", body: { limit: PAGE } });
    const byDate = await ctx.req({
      method: "POST",
      path: "/v1/mentions",
      body: { sort: "date", order: "desc", limit: PAGE },
    });
    const ids = (ex: typeof dflt) => {
      const data = bodyOf<MentionsMentionPage>(ex)?.data;
      return Array.isArray(data) ? data.map((m) => m?.id).join() : "";
    };
    if (dflt.status !== 200 || byDate.status !== 200)
      ctx.notExercised(`the default sort: a search answered ${dflt.status} / ${byDate.status}`);
    else if (ids(dflt) !== ids(byDate)) ctx.lenient("D-MENTIONS-SORT-DEFAULT", dflt);
  },
});

/**
 * Walk two pages of each sort key (date both ways), over the account or one
 * dataset, and judge the order of the values read. Returns the walks whose
 * mentions showed fewer than two distinct values (nothing to order).
 */
async function sortWalks(
  ctx: CheckContext<"sorted">,
  keys: string[],
  dataset?: string,
): Promise<Array<{ key: string; why: string }>> {
  const scope = dataset ? { dataset_ids: [dataset] } : {};
  const where = dataset ? "the kit's labelled pool" : "the account";
  const left: Array<{ key: string; why: string }> = [];
  for (const key of keys) {
    const value = SORT_FIELD[key];
    if (!value) {
      ctx.notExercised(`sort ${key}: the kit knows no mention field for it`);
      continue;
    }
    for (const order of key === "date" ? ["desc", "asc"] : ["desc"]) {
      const items: (Mention | undefined)[] = [];
      let cursor: string | undefined;
      let last;
      for (let p = 0; p < PAGES; p++) {
        const ex = await ctx.req({
          method: "POST",
          path: "/v1/mentions",
          body: { ...scope, sort: key, order, limit: PAGE, ...(cursor ? { cursor } : {}) },
        });
        last = ex;
        const body = bodyOf<MentionsMentionPage>(ex);
        if (ex.status !== 200 || !body || !Array.isArray(body.data)) {
          ctx.fail(
            {
              judges: "sorted",
              title: `sort=${key} order=${order} page ${p + 1} answered ${ex.status}`,
              received: seen(ex),
              expected: "200 with a page",
            },
            ex,
          );
          break;
        }
        items.push(...body.data);
        if (!body.has_next || typeof body.cursor !== "string") break;
        cursor = body.cursor;
      }
      const vals = items.map(value).filter((v): v is number => v !== undefined && Number.isFinite(v));
      if (new Set(vals).size < 2) {
        left.push({
          key,
          why: `sort ${key} ${order}: fewer than two distinct values among ${items.length} mentions of ${where}`,
        });
        continue;
      }
      const bad = vals.findIndex((v, i) => i > 0 && (order === "desc" ? v > vals[i - 1] : v < vals[i - 1]));
      ctx.expect(
        bad < 0,
        {
          judges: "sorted",
          title: `sort=${key} order=${order} is not in ${key} order across ${Math.ceil(items.length / PAGE)} page(s)`,
          received: vals.slice(Math.max(0, bad - 2), bad + 1),
          expected: `${key} ${order === "desc" ? "non-increasing" : "non-decreasing"}`,
        },
        last,
      );
    }
  }
  return left;
}
