import { Decimal } from "decimal.js";
import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { bound, words } from "../grounding/facts.ts";
import { dataOf, isObject } from "../typed.ts";
import type { AccountMe, AccountPrices } from "../../../generated/client/types.gen.ts";
import { seen } from "./support/util.ts";
import { dec } from "./support/decimal.ts";

/** The seed's plan table: credit usage rate in dollars and total seats, by plan name. */
const PLANS: Record<string, { rate: string; seats: number }> = {
  starter: { rate: "0.049", seats: 1 },
  pro: { rate: "0.0356", seats: 3 },
  business: { rate: "0.0225", seats: 5 },
};

/**
 * An account on a plan of the seed's table is billed at that plan's rate and
 * has that plan's seats. Another plan (a trial, an enterprise contract) or a
 * category-priced contract (rate null) is not in the table: not exercised.
 */
export default defineCheck({
  id: "plan-table-rates",
  phase: "billing",
  rule: "On a Starter, Pro or Business plan, GET /v1/prices' rate is the plan's credit usage rate (0.049, 0.0356, 0.0225) and GET /v1/me's plan.limits.num_seats its total seats (1, 3, 5)",
  section: "Limits › Charges (plans)",
  severity: "major",
  asserts: {
    seats: seed("charges.plans", words("Starter"), words("Pro"), words("Business"), bound(1), bound(3), bound(5)),
    rate: seed(
      "charges.plans",
      words("Starter"),
      words("Pro"),
      words("Business"),
      bound("0.049"),
      bound("0.0356"),
      bound("0.0225"),
    ),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const me = await ctx.req({ method: "GET", path: "/v1/me" });
    const plan = dataOf<AccountMe>(me)?.plan;
    const name = typeof plan?.name === "string" ? plan.name.toLowerCase() : undefined;
    const row = name ? PLANS[name] : undefined;
    if (!row) return ctx.notExercised(`the account's plan (${String(plan?.name)}) is not in the seed's plan table`);
    const seats = isObject(plan?.limits) ? plan.limits.num_seats : undefined;
    ctx.expect(
      seats === row.seats,
      {
        judges: "seats",
        title: `plan ${String(plan?.name)} has plan.limits.num_seats ${String(seats)}`,
        received: { plan: plan?.name, num_seats: seats },
        expected: { num_seats: row.seats },
      },
      me,
    );
    const ex = await ctx.req({ method: "GET", path: "/v1/prices" });
    const rate = dataOf<AccountPrices>(ex)?.rate;
    if (rate === null) return ctx.notExercised("rate is null (a category-priced contract)");
    ctx.expect(
      dec(rate)?.equals(new Decimal(row.rate)) === true,
      {
        judges: "rate",
        title: `plan ${String(plan?.name)} is billed at rate ${String(rate)}`,
        received: seen(ex),
        expected: { rate: row.rate },
      },
      ex,
    );
  },
});
