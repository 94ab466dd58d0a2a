// What a run cost, per check, from its report: the requests each check sent
// and what it committed through the budget guard, in units of each price
// category. A commitment's category is the one of the chargeable
// request the check sent next (a dataset run commits mentions, an audience
// run audience profiles, …: the group's price in groups/); one that no such
// request follows (the assistant's token charge, a tool call over MCP) stays
// in dollars. Used by measure-requests.ts (which rewrites request-budget.ts)
// and by the test that keeps that table true.
import { Decimal } from "decimal.js";
import type { Contract } from "../src/contract.ts";
import { groupForPath, type PriceCategory } from "../src/groups/index.ts";
import type { CheckCost } from "../src/request-budget.ts";
import type { RunReport } from "../src/runner.ts";

type Commitment = RunReport["spend"]["commitments"][number];

/** The price category of a commitment: the group of the check's next chargeable POST after it. */
function categoryOf(c: Commitment, report: RunReport, contract: Contract): PriceCategory | undefined {
  for (const ex of report.exchanges.slice(c.at)) {
    if (ex.check !== c.check || ex.method !== "POST") continue;
    const price = groupForPath(contract, ex.path)?.price;
    if (price) return price.category;
  }
  return undefined;
}

/**
 * Per check: requests; what it keeps committed (the commitments no refusal
 * released: what a conformant deployment may charge), per category; and the
 * largest single commitment held only until the deployment refused the
 * request (a negative case: money at risk only if the deployment wrongly
 * accepts it).
 */
export function costsOf(
  report: RunReport,
  contract: Contract,
  prices: Partial<Record<PriceCategory, Decimal>>,
): Record<string, CheckCost> {
  const out: Record<string, CheckCost> = {};
  for (const r of report.results) if (r.requests > 0) out[r.id] = { requests: r.requests };
  // a planned burst is sized by the advertised rate limit: so are those checks' requests
  for (const ex of report.exchanges)
    if ((ex.meta.burst || ex.meta.planned429) && out[ex.check]) out[ex.check]!.scalesWithRate = true;
  const unitsOf = (key: string, usd: Decimal) =>
    key === "usd"
      ? usd.toNumber()
      : usd
          .div(prices[key as PriceCategory]!)
          .toDecimalPlaces(3)
          .toNumber();
  for (const c of report.spend.commitments) {
    const category = categoryOf(c, report, contract);
    const key = category && prices[category] ? category : "usd";
    const cost: CheckCost = (out[c.check] ??= { requests: 0 });
    const usd = new Decimal(c.usd);
    if (!c.released) {
      if (key === "usd") cost.usd = new Decimal(cost.usd ?? 0).plus(usd).toNumber();
      else
        (cost.units ??= {})[key as PriceCategory] =
          ((cost.units ??= {})[key as PriceCategory] ?? 0) + unitsOf(key, usd);
    } else {
      const held = (cost.refused ??= {});
      if (key === "usd") held.usd = Math.max(held.usd ?? 0, usd.toNumber());
      else
        (held.units ??= {})[key as PriceCategory] = Math.max(
          held.units?.[key as PriceCategory] ?? 0,
          unitsOf(key, usd),
        );
    }
  }
  return out;
}

/** What a table row keeps committed (or, with `refused`, holds until a refusal) at these prices, in dollars. */
export function usdOf(
  cost: Pick<CheckCost, "units" | "usd">,
  prices: Partial<Record<PriceCategory, Decimal>>,
): Decimal {
  let usd = new Decimal(cost.usd ?? 0);
  for (const [k, units] of Object.entries(cost.units ?? {}))
    usd = usd.plus((prices[k as PriceCategory] ?? new Decimal(0)).mul(units));
  return usd;
}
