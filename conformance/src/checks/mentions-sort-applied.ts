import { decision, defineCheck } from "../define-check.ts";
import { bodyOf } from "../typed.ts";
import type { MentionsMentionPage } from "../../../generated/client/types.gen.ts";
import { SORT_FIELD, sortKeys, type Mention } from "./support/mentions.ts";
import { seen } from "./support/util.ts";

const PAGE = 20;
const PAGES = 2;

/**
 * Every sort key of the mention search, walked over two pages of 20: the order
 * holds across the cursor (a server that ignores `sort` fails as soon as a
 * key's values are not already in date order). Null values (e.g. no sentiment)
 * are not compared.
 */
export default defineCheck({
  id: "mentions-sort-applied",
  phase: "lists",
  rule: "A mention search sorted by any documented key returns mentions in that key's order (desc by default, asc when asked) across a cursor walk; without sort the order is date desc",
  section: "Endpoints › Mentions (sort, order)",
  severity: "major",
  rules: {
    seed: "sort | enum | `date`, `likes`, `engagement_rate`, `views`, `comments`, `shares`, `sentiment_score`, `dataset_run_at`",
    decisions: [decision("D-MENTIONS-SORT-DEFAULT", { title: /D-MENTIONS-SORT-DEFAULT/ })],
  },
  decisions: ["D-MENTIONS-SORT-DEFAULT"],
  profiles: ["readonly", "standard", "full"],
  requires: ["POST /v1/mentions"],
  async run(ctx) {
    const keys = sortKeys(ctx.contract);
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
            body: { sort: key, order, limit: PAGE, ...(cursor ? { cursor } : {}) },
          });
          last = ex;
          const body = bodyOf<MentionsMentionPage>(ex);
          if (ex.status !== 200 || !body || !Array.isArray(body.data)) {
            ctx.fail(
              {
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
          ctx.notExercised(`sort ${key} ${order}: fewer than two distinct values among ${items.length} mentions`);
          continue;
        }
        const bad = vals.findIndex((v, i) => i > 0 && (order === "desc" ? v > vals[i - 1] : v < vals[i - 1]));
        ctx.expect(
          bad < 0,
          {
            title: `sort=${key} order=${order} is not in ${key} order across ${Math.ceil(items.length / PAGE)} page(s)`,
            received: vals.slice(Math.max(0, bad - 2), bad + 1),
            expected: `${key} ${order === "desc" ? "non-increasing" : "non-decreasing"}`,
          },
          last,
        );
      }
    }
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
    if (dflt.status === 200 && ids(dflt) !== ids(byDate)) ctx.lenient("D-MENTIONS-SORT-DEFAULT", dflt);
    else
      ctx.expect(
        dflt.status === 200,
        {
          title: `a search without sort answered ${dflt.status}`,
          received: seen(dflt),
          expected: "200",
        },
        dflt,
      );
  },
});
