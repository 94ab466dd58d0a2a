// What a run may cost, before it starts: --plan, and the default budget of a
// chargeable profile. Both price the measured commitments of each selected
// check (request-budget.ts: units of each price category, and dollars not
// priced per unit) at the deployment's own prices, read from GET /v1/prices
// and GET /v1/me with the main key. Nothing chargeable is sent. A check
// commits two kinds of money: what it keeps committed (the work a conformant
// deployment charges for; the default budget covers it), and what it holds
// only until the deployment refuses a negative case (money at risk only if
// the deployment wrongly accepts; a case the budget's room cannot hold is
// not sent, and the check reports it not exercised).
import { Decimal } from "decimal.js";
import { dec } from "../checks/support/decimal.ts";
import type { Contract } from "../contract.ts";
import type { PriceCategory } from "../groups/types.ts";
import { UsageError } from "../preflight.ts";
import { COST_PER_CHECK, MEASURED_RPS, SCENARIO_COST, type CheckCost } from "../request-budget.ts";
import { selectChecks } from "../run/select.ts";
import { clientFor } from "../runner.ts";
import { isObject } from "../typed.ts";
import type { Settings } from "../types.ts";

/** The default budget is the plan's worst case times this (a deployment's data may size a few commitments larger). */
export const DEFAULT_BUDGET_MARGIN = 1.1;

/**
 * Room the default budget keeps for one negative case held until the
 * deployment refuses it: a dataset run one over the seed's count bound
 * (20-1000), the largest hold among the seed's own bounds that a kit run
 * sends on every deployment. A conformant deployment refuses the case and
 * the room is free again at once; a case that needs more (an audience run of
 * 2001 profiles, a generated value far past a bound) is not sent under the
 * default budget and its check reports it not exercised (`--budget` raises it).
 */
export const REFUSAL_ROOM: Partial<Record<PriceCategory, number>> = { mention: 1001 };

export interface DeploymentPrices {
  prices: Partial<Record<PriceCategory, Decimal>>;
  plan?: string;
  balance?: Decimal;
  /** the main key's advertised RateLimit-Limit (requests per second) */
  rateLimit?: number;
}

export interface PlanRow {
  id: string;
  requests: number;
  /** what it keeps committed at the deployment's prices; undefined when a category it uses has no price */
  usd?: Decimal;
  /** its largest commitment held until a refusal, at the deployment's prices */
  refusedUsd?: Decimal;
  /** the check is not in the measured table (its figures are guesses) */
  unmeasured?: boolean;
}

export interface Plan {
  rows: PlanRow[];
  /** what one check or setup holds at once beyond what it keeps, at most (part of worstUsd) */
  headroomUsd: Decimal;
  /** room for one negative case held until refused (REFUSAL_ROOM at these prices; 0 when no selected check holds one) */
  refusalRoomUsd: Decimal;
  /** the shared scenarios the selected checks need, each paid once, at the deployment's prices */
  scenarios: Array<{ name: string; usd?: Decimal; checks: string[] }>;
  /** selected checks that do not apply, with the reason */
  notApplicable: Array<{ id: string; reason: string }>;
  requests: number;
  worstUsd: Decimal;
  /** a category the table uses that the deployment does not price */
  unpriced: string[];
  deployment: DeploymentPrices;
}

/** GET /v1/prices and GET /v1/me with the main key (both free reads). */
export async function readPrices(settings: Settings, contract: Contract): Promise<DeploymentPrices> {
  const client = clientFor(settings, contract);
  let rateLimit: number | undefined;
  const dataOf = async (path: string) => {
    const ex = await client.request({ method: "GET", path, key: "main", check: "plan" });
    if (ex.status !== 200) throw new UsageError(`GET ${path} answered ${ex.status}: cannot price the run`);
    const limit = Number(ex.headers["ratelimit-limit"]);
    if (Number.isInteger(limit) && limit > 0) rateLimit = limit;
    return isObject(ex.json) && isObject(ex.json.data) ? ex.json.data : {};
  };
  const pricesData = await dataOf("/v1/prices");
  const me = await dataOf("/v1/me");
  const prices: DeploymentPrices["prices"] = {};
  if (isObject(pricesData.prices))
    for (const [k, v] of Object.entries(pricesData.prices)) {
      const d = dec(v);
      if (d) prices[k as PriceCategory] = d;
    }
  const plan = isObject(me.plan) && typeof me.plan.name === "string" ? me.plan.name : undefined;
  const balance = isObject(me.usage) ? dec(me.usage.balance) : undefined;
  return { prices, plan, balance, rateLimit };
}

/** Every selected check that applies, with its requests and worst-case commitment at these prices. */
export function planOf(settings: Settings, contract: Contract, deployment: DeploymentPrices): Plan {
  const selected = selectChecks(settings, contract);
  const unpriced = new Set<string>();
  const rows: PlanRow[] = [];
  const priced = (part: { units?: CheckCost["units"]; usd?: number } | undefined): Decimal | undefined => {
    let usd: Decimal | undefined = new Decimal(part?.usd ?? 0);
    for (const [category, units] of Object.entries(part?.units ?? {}) as Array<[PriceCategory, number]>) {
      const price = deployment.prices[category];
      if (!price) {
        unpriced.add(category);
        return undefined;
      }
      usd = usd.plus(price.mul(units));
    }
    return usd;
  };
  const readonly = settings.profile === "readonly";
  for (const { check } of selected.filter((s) => !s.skip && s.check.kind === "active")) {
    const cost = COST_PER_CHECK[check.id];
    // a planned burst is sized by the advertised limit: scale it from the rate it was measured at
    const scale = cost?.scalesWithRate && deployment.rateLimit ? deployment.rateLimit / MEASURED_RPS : 1;
    rows.push({
      id: check.id,
      requests: Math.max(1, Math.round((cost?.requests ?? 5) * scale)),
      usd: readonly ? new Decimal(0) : priced(cost),
      refusedUsd: readonly || !cost?.refused ? undefined : priced(cost.refused),
      unmeasured: !cost || undefined,
    });
  }
  // each shared scenario once, whichever selected check runs it first
  const needs = new Map<string, string[]>();
  for (const r of rows)
    for (const name of COST_PER_CHECK[r.id]?.scenarios ?? []) needs.set(name, [...(needs.get(name) ?? []), r.id]);
  const scenarios = [...needs].map(([name, checks]) => ({
    name,
    usd: readonly ? new Decimal(0) : priced(SCENARIO_COST[name]),
    checks,
  }));
  // room for the most any one of them holds at once beyond what it keeps (a run committed at its worst case, then resized)
  const owners = [
    ...rows.map((r) => ({ kept: r.usd, peak: COST_PER_CHECK[r.id]?.peak })),
    ...scenarios.map((x) => ({ kept: x.usd, peak: SCENARIO_COST[x.name]?.peak })),
  ];
  const headroom = readonly
    ? new Decimal(0)
    : owners.reduce((most, o) => {
        const peak = o.peak ? priced(o.peak) : undefined;
        const extra = peak && o.kept ? peak.minus(o.kept) : new Decimal(0);
        return extra.greaterThan(most) ? extra : most;
      }, new Decimal(0));
  const holds = rows.some((r) => r.refusedUsd && !r.refusedUsd.isZero());
  const refusalRoom = (!readonly && holds ? priced({ units: REFUSAL_ROOM }) : undefined) ?? new Decimal(0);
  return {
    rows,
    scenarios,
    headroomUsd: headroom,
    refusalRoomUsd: refusalRoom,
    notApplicable: selected.filter((s) => s.skip).map((s) => ({ id: s.check.id, reason: s.skip! })),
    requests: rows.reduce((n, r) => n + r.requests, 0),
    worstUsd: [...rows, ...scenarios].reduce((sum, r) => sum.plus(r.usd ?? 0), headroom),
    unpriced: [...unpriced],
    deployment,
  };
}

/**
 * The budget a chargeable run gets unless --budget says otherwise: the plan's
 * worst case and the room for one refused negative case, plus the margin, in
 * whole cents up.
 */
export function defaultBudgetOf(plan: Plan): number {
  return plan.worstUsd
    .plus(plan.refusalRoomUsd)
    .mul(DEFAULT_BUDGET_MARGIN)
    .toDecimalPlaces(2, Decimal.ROUND_UP)
    .toNumber();
}

const money = (d: Decimal | undefined) =>
  d === undefined ? "?" : `$${d.toDecimalPlaces(2, Decimal.ROUND_UP).toFixed(2)}`;

/** --plan: one line per check that applies, the totals, and the budget the run would get. */
export function planText(plan: Plan, settings: Settings, budgetGiven: string | undefined): string {
  const { deployment: d } = plan;
  const priced = Object.entries(d.prices)
    .map(([k, v]) => `${k} $${v.toFixed()}`)
    .join(", ");
  const lines = [
    `Plan for ${settings.baseUrl}, profile ${settings.profile}: ${plan.rows.length} check(s) apply${plan.notApplicable.length ? `, ${plan.notApplicable.length} do not` : ""}. Nothing was charged to make it.`,
    `Prices of the main key's account${d.plan ? ` (plan ${d.plan})` : ""}: ${priced || "none read"}; balance ${money(d.balance)}${d.rateLimit ? `; ${d.rateLimit} requests/second advertised` : ""}.`,
    "",
    `${"check".padEnd(40)} ${"requests".padStart(8)} ${"commits".padStart(9)} ${"held until refused".padStart(18)}`,
    ...plan.rows.map(
      (r) =>
        `${r.id.padEnd(40)} ${String(r.requests).padStart(8)} ${(r.usd === undefined ? "?" : r.usd.isZero() ? "-" : money(r.usd)).padStart(9)} ${(r.refusedUsd && !r.refusedUsd.isZero() ? money(r.refusedUsd) : "-").padStart(18)}${r.unmeasured ? "  (not measured: estimate)" : ""}`,
    ),
    ...(plan.scenarios.some((x) => x.usd && !x.usd.isZero())
      ? [
          "",
          "shared setups (paid once, by the first selected check that needs one):",
          ...plan.scenarios
            .filter((x) => x.usd && !x.usd.isZero())
            .map((x) => `  ${x.name.padEnd(38)} ${money(x.usd).padStart(9)}  for ${x.checks.join(", ")}`),
        ]
      : []),
    "",
    `total: ${plan.requests} requests (response-level checks send none of their own); the checks and their setups commit at most ${money(plan.worstUsd)}${plan.headroomUsd.isZero() ? "" : ` (${money(plan.headroomUsd)} of it for what one of them holds at once before a run reports its size)`}${plan.unpriced.length ? ` plus what they price in ${plan.unpriced.join(", ")}, which this deployment does not price` : ""}`,
    `"held until refused": the largest commitment a check holds for a negative case until the deployment refuses it (charged only if it wrongly accepts); a case the budget's room cannot hold is not sent and is reported not exercised.`,
  ];
  let limit: Decimal | undefined;
  if (settings.profile === "readonly") lines.push("budget: none needed (readonly never charges)");
  else if (budgetGiven === undefined) {
    limit = new Decimal(defaultBudgetOf(plan));
    lines.push(
      `budget: by default ${money(limit)} (what the checks commit${plan.refusalRoomUsd.isZero() ? "" : `, and ${money(plan.refusalRoomUsd)} of room for one negative case held until the deployment refuses it`}, + ${Math.round((DEFAULT_BUDGET_MARGIN - 1) * 100)}%); negative cases a deployment accepts keep at most that room committed, so they cannot starve the plan; --budget <usd> sets another, --budget none lifts it`,
    );
  } else {
    limit = budgetGiven.toLowerCase() === "none" ? undefined : new Decimal(budgetGiven);
    lines.push(`budget: --budget ${budgetGiven}`);
  }
  const over = limit ? plan.rows.filter((r) => r.refusedUsd?.greaterThan(limit)) : [];
  if (over.length)
    lines.push(
      `under this budget, negative cases that hold more than it are not sent (the check reports them not exercised): ${over.map((r) => `${r.id} (up to ${money(r.refusedUsd)})`).join(", ")}`,
    );
  if (d.balance !== undefined && plan.worstUsd.greaterThan(d.balance))
    lines.push(
      `note: the worst case is more than the balance; checks whose setup the balance cannot fund will be skipped (402)`,
    );
  lines.push(
    `Figures: measured against the reference (request-budget.ts); a deployment's data can size some commitments differently${d.rateLimit ? `, and at ${d.rateLimit} requests/second the run takes about ${Math.ceil(plan.requests / d.rateLimit / 60)} min` : ""}.`,
  );
  return lines.join("\n");
}
