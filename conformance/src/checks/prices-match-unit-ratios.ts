import { Decimal } from "decimal.js";
import { decision, defineCheck } from "../define-check.ts";
import { groupSpecs } from "../groups/index.ts";
import { dataOf, isObject } from "../typed.ts";
import type { AccountPrices } from "../../../generated/client/types.gen.ts";
import { seen } from "./support/util.ts";

/**
 * The price of every category a group charges is its fixed unit ratio times
 * the account rate (seed › Charges: price = units × rate), exactly. The
 * categories and ratios come from the group descriptors.
 */
export default defineCheck({
  id: "prices-match-unit-ratios",
  phase: "billing",
  rule: "GET /v1/prices: each category's dollar price equals its fixed unit ratio × rate (mention 1, audience_profile 3, post_processing 0.5, preview_generation 1), in exact decimals, whenever rate is not null",
  section: "Limits › Charges (unit ratios fixed for everyone; price = units × rate)",
  severity: "major",
  rules: {
    seed: "Unit ratios are fixed for everyone; the account rate (dollars per unit) varies by plan. Price = units times rate.",
    decisions: [decision("D-MONEY-NUMBER", { received: /"-?\d+(\.\d+)?"/ })],
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/prices"],
  async run(ctx) {
    const ex = await ctx.req({ method: "GET", path: "/v1/prices" });
    const d = dataOf<AccountPrices>(ex);
    const prices: unknown = d?.prices;
    if (
      !ctx.expect(
        ex.status === 200 && !!d && typeof prices === "object",
        {
          title: `GET /v1/prices answered ${ex.status}`,
          received: seen(ex),
          expected: "200 with prices",
        },
        ex,
      ) ||
      !d
    )
      return;
    if (d.rate === null)
      return ctx.notExercised("rate is null (a category-priced contract): prices need not follow the ratios");
    const rate = new Decimal(String(d.rate));
    const ratios = new Map<string, number>();
    // every group's category, served or not: /v1/prices lists all of them
    for (const g of groupSpecs) if (g.price) ratios.set(g.price.category, g.price.units);
    for (const [category, units] of ratios) {
      const got = isObject(prices) ? prices[category] : undefined;
      const want = rate.mul(units);
      ctx.expect(
        typeof got === "number" && new Decimal(String(got)).equals(want),
        {
          title: `prices.${category} is not ${units} × rate`,
          received: { [category]: got, rate: d.rate },
          expected: { [category]: Number(want.toFixed()) },
        },
        ex,
      );
    }
  },
});
