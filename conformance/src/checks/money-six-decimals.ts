import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { moneyPathsOf, valuesAt } from "../groups/money.ts";

/** Significant digits of a decimal's shortest form (`0.0356` → 3, `0.30000000000000004` → 17). */
function significantDigits(v: number | string): number {
  const digits = String(v)
    .replace(/^-/, "")
    .replace(/e[+-]?\d+$/i, "")
    .replace(".", "")
    .replace(/^0+/, "");
  return digits.replace(/0+$/, "").length || 1;
}

/**
 * A price is an exact small decimal (the seed, on GET /v1/prices): a value
 * that carries the 15 or more significant digits of a binary float's
 * rounding (0.30000000000000004) is not one. That every Dollars field of the
 * contract is a JSON number with at most 6 fractional digits is
 * D-MONEY-NUMBER's (a decimal string is the contract's choice, not the seed's).
 */
export default defineCheck({
  id: "money-six-decimals",
  rule: "The prices of GET /v1/prices are exact small decimals (never binary-float noise such as 0.30000000000000004); every Dollars field of the contract (balances, prices, usage quantities, …) is a JSON number with at most 6 fractional digits (D-MONEY-NUMBER)",
  section: "Resources › Prices (exact small decimals)",
  severity: "major",
  asserts: {
    exact: seed("prices.exact-decimals", words("Values are exact small decimals")),
    number: decided("D-MONEY-NUMBER"),
  },
  mock: true,
  inspect(ex, ctx) {
    if (ex.status < 200 || ex.status >= 300 || !ex.op) return;
    const list = moneyPathsOf(ctx.contract, ex.op).flatMap((p) => valuesAt(ex.json, p));
    if (!list.length) return;
    if (ex.op.key === "GET /v1/prices") {
      const noisy = list.filter(
        ([k, v]) =>
          /^data\.(prices\.|rate$)/.test(k) &&
          (typeof v === "number" || (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v))) &&
          significantDigits(v) >= 15,
      );
      if (noisy.length)
        return ctx.fail(ex, {
          judges: "exact",
          title: `${noisy.map(([k]) => k).join(", ")} not an exact small decimal`,
          received: Object.fromEntries(noisy),
          expected: "exact small decimals (no binary-float rounding noise)",
        });
    }
    const bad = list.filter(([, v]) => v !== null && !(typeof v === "number" && /^-?\d+(\.\d{1,6})?$/.test(String(v))));
    if (bad.length)
      return ctx.fail(ex, {
        judges: "number",
        title: `${bad.map(([k]) => k).join(", ")} not an exact 6-decimal number`,
        received: Object.fromEntries(bad),
        expected: "numbers with at most 6 fractional digits",
      });
    ctx.pass(ex);
  },
});
