import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";
import { bodyOf, isObject } from "../typed.ts";
import { seen } from "./support/util.ts";
import { dec } from "./support/decimal.ts";

/** usage.credits_used / credits_total are credit fields: with a credit rate other than 1 they never repeat the dollar figures. */
export default defineCheck({
  id: "me-credit-fields-not-aliased",
  phase: "requests",
  rule: "GET /v1/me: with a dollar rate other than 1 per unit, a non-zero usage.credits_used / credits_total never equals balance_used / balance_total (the old dollar names are not aliased)",
  section: "Resources › Account (usage); Versioning (rule 4)",
  severity: "minor",
  asserts: {
    "not-aliased": seed(
      "me.credits-renamed-not-aliased",
      words("the old names are gone, not aliased"),
      field("credits_used"),
      field("credits_total"),
    ),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const prices = await ctx.req({ method: "GET", path: "/v1/prices" });
    const p = bodyOf<{ data: unknown }>(prices)?.data;
    // a dollar amount may come as a JSON number or a decimal string (D-MONEY-NUMBER)
    const rate = isObject(p) ? dec(p.rate) : undefined;
    if (rate === undefined || rate.equals(1))
      ctx.skip(`GET /v1/prices gives rate ${JSON.stringify(rate)}: credits and dollars cannot be told apart by value`);
    const me = await ctx.req({ method: "GET", path: "/v1/me" });
    const d = bodyOf<{ data: unknown }>(me)?.data;
    const usage = isObject(d) && isObject(d.usage) ? d.usage : undefined;
    const pairs = (
      [
        ["credits_used", "balance_used"],
        ["credits_total", "balance_total"],
      ] as const
    ).filter(([c, b]) => dec(usage?.[c]) !== undefined && !dec(usage?.[c])!.isZero() && dec(usage?.[b]) !== undefined);
    if (!usage || pairs.length === 0)
      return ctx.skip("GET /v1/me carries no non-zero credits_used / credits_total beside the dollar fields");
    for (const [c, b] of pairs)
      ctx.expect(
        !dec(usage[c])!.equals(dec(usage[b])!),
        {
          judges: "not-aliased",
          title: `usage.${c} repeats usage.${b} (${String(usage[b])}): the old dollar name is aliased`,
          received: seen(me),
          expected: `usage.${c} in credits (rate ${rate} dollars per unit), not the dollar figure`,
        },
        me,
      );
  },
});
