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
import type { CheckCost, ScenarioCost } from "../src/cost-types.ts";
import type { RunReport } from "../src/runner.ts";

type Commitment = RunReport["spend"]["commitments"][number];

/** The check's next chargeable POST after the commitment: its category (the group's price), and its status. */
function nextChargeable(
  c: Commitment,
  report: RunReport,
  contract: Contract,
): { category?: PriceCategory; status?: number } {
  for (const ex of report.exchanges.slice(c.at)) {
    if (ex.check !== c.check || ex.method !== "POST") continue;
    const price = groupForPath(contract, ex.path)?.price;
    if (price) return { category: price.category, status: ex.status };
  }
  return {};
}

type Part = { units?: Partial<Record<PriceCategory, number>>; usd?: number };

/** Add `units` under `key` (a category, or "usd") to a part: summed, or the larger kept with `max`. */
function add(part: Part, key: string, units: number, max = false): void {
  if (key === "usd")
    part.usd = max ? Math.max(part.usd ?? 0, units) : new Decimal(part.usd ?? 0).plus(units).toNumber();
  else {
    const k = key as PriceCategory;
    const now = (part.units ??= {})[k] ?? 0;
    part.units[k] = max ? Math.max(now, units) : new Decimal(now).plus(units).toNumber();
  }
}

/**
 * Per check: requests; what it keeps committed itself (what a conformant
 * deployment may charge), per category; what it holds at once at most when
 * more than that (a run committed at its worst case, then resized to the
 * count the deployment reports); the largest single commitment it held only
 * until the deployment refused the request (a negative case: money at risk
 * only if the deployment wrongly accepts it); and the shared scenarios it
 * needs. Per shared scenario: what it keeps committed, and its peak.
 */
export function costsOf(
  report: RunReport,
  contract: Contract,
  prices: Partial<Record<PriceCategory, Decimal>>,
): { checks: Record<string, CheckCost>; scenarios: Record<string, ScenarioCost> } {
  const checks: Record<string, CheckCost> = {};
  const scenarios: Record<string, ScenarioCost> = {};
  for (const r of report.results) if (r.requests > 0) checks[r.id] = { requests: r.requests };
  // a planned burst is sized by the advertised rate limit: so are those checks' requests
  for (const ex of report.exchanges)
    if ((ex.meta.burst || ex.meta.planned429) && checks[ex.check]) checks[ex.check]!.scalesWithRate = true;
  const unitsOf = (key: string, usd: Decimal) =>
    key === "usd"
      ? usd.toNumber()
      : usd
          .div(prices[key as PriceCategory]!)
          .toDecimalPlaces(3)
          .toNumber();
  // what each owner (a check, or a scenario) held over time: +units when committed, -units when resized away
  const events = new Map<Part, Array<{ order: number; key: string; delta: number }>>();
  for (const c of report.spend.commitments) {
    const next = nextChargeable(c, report, contract);
    const key = next.category && prices[next.category] ? next.category : "usd";
    const units = unitsOf(key, new Decimal(c.usd));
    const owner: Part = c.scenario ? (scenarios[c.scenario] ??= {}) : (checks[c.check] ??= { requests: 0 });
    const refused = c.released && !(next.status !== undefined && next.status < 300);
    if (refused) {
      add(((owner as CheckCost).refused ??= {}), key, units, true);
      continue;
    }
    const list = events.get(owner) ?? [];
    list.push({ order: c.order, key, delta: units });
    if (c.released) list.push({ order: c.releasedOrder!, key, delta: -units });
    else add(owner, key, units);
    events.set(owner, list);
  }
  for (const [owner, list] of events) {
    const held = new Map<string, number>();
    const peak: Part = {};
    for (const e of list.sort((a, b) => a.order - b.order)) {
      const now = new Decimal(held.get(e.key) ?? 0).plus(e.delta).toNumber();
      held.set(e.key, now);
      add(peak, e.key, now, true);
    }
    const kept = (k: string) => (k === "usd" ? (owner.usd ?? 0) : (owner.units?.[k as PriceCategory] ?? 0));
    const more = Object.entries({ ...peak.units, usd: peak.usd ?? 0 }).some(([k, v]) => v > kept(k));
    if (more) (owner as CheckCost).peak = peak;
  }
  for (const c of Object.values(scenarios)) delete (c as CheckCost).refused;
  for (const [check, names] of Object.entries(report.spend.uses)) {
    const paid = names.filter((n) => scenarios[n]);
    if (paid.length) (checks[check] ??= { requests: 0 }).scenarios = paid;
  }
  return { checks, scenarios };
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
