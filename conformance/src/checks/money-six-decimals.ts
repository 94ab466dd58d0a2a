import { decision, defineCheck } from "../define-check.ts";
import { moneyPathsOf, valuesAt } from "../groups/money.ts";

/** Dollar amounts are JSON numbers with at most six fractional digits; which fields are dollars comes from the contract (`Common.Dollars`). */
export default defineCheck({
  id: "money-six-decimals",
  rule: "Every Dollars field of the contract (balances, prices, usage quantities, …) is a JSON number with at most 6 fractional digits (never binary-float noise such as 0.30000000000000004)",
  section: "Resources › Prices (exact small decimals)",
  severity: "major",
  rules: {
    seed: "Values are exact small decimals; clients keep full precision.",
    decisions: [decision("D-MONEY-NUMBER", { received: /"-?\d+(\.\d+)?"/ })],
  },
  decisions: ["D-MONEY-NUMBER"],
  mock: true,
  inspect(ex, ctx) {
    if (ex.status < 200 || ex.status >= 300 || !ex.op) return;
    const list = moneyPathsOf(ctx.contract, ex.op).flatMap((p) => valuesAt(ex.json, p));
    if (!list.length) return;
    const bad = list.filter(([, v]) => v !== null && !(typeof v === "number" && /^-?\d+(\.\d{1,6})?$/.test(String(v))));
    if (bad.length)
      return ctx.fail(ex, {
        title: `${bad.map(([k]) => k).join(", ")} not an exact 6-decimal number`,
        received: Object.fromEntries(bad),
        expected: "numbers with at most 6 fractional digits",
      });
    ctx.pass(ex);
  },
});
