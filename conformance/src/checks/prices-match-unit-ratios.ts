import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, formula, words } from "../grounding/facts.ts";
import { dataOf, isObject } from "../typed.ts";
import type { AccountPrices } from "../../../generated/client/types.gen.ts";
import { seen } from "./support/util.ts";
import { dec } from "./support/decimal.ts";

/** The seed's unit ratio of each price category (Limits › Charges). */
const UNITS: Record<string, string> = {
  mention: "1",
  audience_profile: "3",
  post_processing: "0.5",
  preview_generation: "1",
};

/**
 * GET /v1/prices carries the seed's four categories, and each price is its
 * fixed unit ratio times the account rate (price = units × rate), exactly;
 * amounts read as numbers or decimal strings. That they are JSON numbers is
 * D-MONEY-NUMBER, judged on its own.
 */
export default defineCheck({
  id: "prices-match-unit-ratios",
  phase: "billing",
  rule: "GET /v1/prices carries prices for audience_profile, mention, post_processing and preview_generation; each equals its fixed unit ratio × rate (mention 1, audience_profile 3, post_processing 0.5, preview_generation 1), in exact decimals, whenever rate is not null; the amounts are JSON numbers (D-MONEY-NUMBER)",
  section: "Limits › Charges (unit ratios fixed for everyone; price = units × rate); Resources › Prices",
  severity: "major",
  asserts: {
    fields: seed(
      ["prices.read", "prices.fields"],
      words("prices (free)"),
      field("rate"),
      field("prices"),
      field("audience_profile"),
      field("mention"),
      field("post_processing"),
      field("preview_generation"),
    ),
    ratio: seed(
      [
        "charges.unit-ratios",
        "charges.mention",
        "charges.audience-profile",
        "charges.post-processing.pattern",
        "charges.preview-generation",
      ],
      formula("Price = units times rate"),
      words("Unit ratios are fixed for everyone"),
      words("mention | 1 |"),
      words("audience_profile | 3 |"),
      words("post_processing | 0.5 |"),
      words("preview_generation | 1 |"),
    ),
    number: decided("D-MONEY-NUMBER", field("prices")),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/prices"],
  async run(ctx) {
    const ex = await ctx.req({ method: "GET", path: "/v1/prices" });
    const d = dataOf<AccountPrices>(ex);
    const prices: unknown = d?.prices;
    const missing = Object.keys(UNITS).filter((c) => !isObject(prices) || !(c in prices));
    if (
      !ctx.expect(
        ex.status === 200 && !!d && "rate" in d && missing.length === 0,
        {
          judges: "fields",
          title: `GET /v1/prices answered ${ex.status}${missing.length ? ` without prices.${missing.join(", prices.")}` : ""}`,
          received: seen(ex),
          expected: { rate: "…", prices: Object.fromEntries(Object.keys(UNITS).map((c) => [c, "…"])) },
        },
        ex,
      ) ||
      !d ||
      !isObject(prices)
    )
      return;
    if (d.rate === null)
      return ctx.notExercised("rate is null (a category-priced contract): prices need not follow the ratios");
    const rate = dec(d.rate);
    if (!rate) return ctx.notExercised(`rate ${JSON.stringify(d.rate)} is not an amount: the ratios were not judged`);
    for (const [category, units] of Object.entries(UNITS)) {
      const got = prices[category];
      const want = rate.mul(units);
      ctx.expect(
        dec(got)?.equals(want) === true,
        {
          judges: "ratio",
          title: `prices.${category} is not ${units} × rate`,
          received: { [category]: got, rate: d.rate },
          expected: { [category]: Number(want.toFixed()) },
        },
        ex,
      );
      if (dec(got))
        ctx.expect(
          typeof got === "number",
          {
            judges: "number",
            title: `prices.${category} is sent as ${typeof got}, not a JSON number`,
            received: { [category]: got },
            expected: { [category]: Number(want.toFixed()) },
          },
          ex,
        );
    }
  },
});
