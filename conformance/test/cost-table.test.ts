// The cost table (src/request-budget.ts) stays true: the whole kit, standard
// profile, against the reference at the rate the table was measured at,
// gives each check about the requests the table says and the commitments it
// says, per price category. Requests depend on timing (how many polls a run
// takes), so they may move within a margin; commitments are sized by the
// checks from the contract and the reference's data, so they must match
// closely. When this fails, a check changed what it sends or commits:
// `npx tsx conformance/scripts/measure-requests.ts --write` rewrites the table.
// Also: the run's report gives committed and settled spend per check.
import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { Contract } from "../src/contract.ts";
import { COST_PER_CHECK, MEASURED_RPS, SCENARIO_COST, type CheckCost } from "../src/request-budget.ts";
import { runKit, type RunReport } from "../src/runner.ts";
import { costsOf } from "../scripts/measure-cost.ts";
import { demoKeys, settings, startReference } from "./helpers.ts";

/** Requests may move by this much (timing: polls, retries), commitments by this much (rounding). */
const REQUESTS = { absolute: 6, relative: 0.35 };
const UNITS = { absolute: 0.01, relative: 0.02 };

const near = (a: number, b: number, m: { absolute: number; relative: number }) =>
  Math.abs(a - b) <= Math.max(m.absolute, m.relative * Math.max(a, b));

function drift(id: string, table: CheckCost | undefined, now: CheckCost | undefined): string[] {
  const out: string[] = [];
  const t = table ?? { requests: 0 };
  const n = now ?? { requests: 0 };
  // a planned burst's size follows the rate limit and how the window falls: its count is not compared
  if (!t.scalesWithRate && !n.scalesWithRate && !near(t.requests, n.requests, REQUESTS))
    out.push(`${id}: ${n.requests} requests, the table says ${t.requests}`);
  const compare = (
    what: string,
    a: CheckCost["units"] & { usd?: number },
    b: CheckCost["units"] & { usd?: number },
  ) => {
    for (const k of new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])) {
      const x = (a as Record<string, number>)[k] ?? 0;
      const y = (b as Record<string, number>)[k] ?? 0;
      if (!near(x, y, UNITS)) out.push(`${id}: ${what} ${k} ${y}, the table says ${x}`);
    }
  };
  compare("commits", { ...t.units, usd: t.usd }, { ...n.units, usd: n.usd });
  const scenarios = (c: CheckCost) => JSON.stringify(c.scenarios ?? []);
  if (scenarios(t) !== scenarios(n))
    out.push(`${id}: needs the scenarios ${scenarios(n)}, the table says ${scenarios(t)}`);
  compare("holds at once at most", { ...t.peak?.units, usd: t.peak?.usd }, { ...n.peak?.units, usd: n.peak?.usd });
  compare(
    "holds until refused",
    { ...t.refused?.units, usd: t.refused?.usd },
    { ...n.refused?.units, usd: n.refused?.usd },
  );
  return out;
}

describe("the cost table", () => {
  let report: RunReport;
  it(`matches a fresh standard run against the reference at ${MEASURED_RPS} requests/second`, async () => {
    const ref = await startReference({ rateLimitPerSecond: MEASURED_RPS });
    let prices: Record<string, Decimal>;
    try {
      const res = await fetch(`${ref.baseUrl}/v1/prices`, { headers: { "x-api-key": demoKeys().main! } });
      const body = (await res.json()) as { data: { prices: Record<string, number | string> } };
      prices = Object.fromEntries(Object.entries(body.data.prices).map(([k, v]) => [k, new Decimal(String(v))]));
      report = await runKit(settings(ref.baseUrl, { operations: undefined }));
    } finally {
      await ref.close();
    }
    const now = costsOf(report, Contract.load(), prices);
    const ids = new Set([...Object.keys(COST_PER_CHECK), ...Object.keys(now.checks)]);
    const drifted = [...ids].flatMap((id) => drift(id, COST_PER_CHECK[id], now.checks[id]));
    for (const name of new Set([...Object.keys(SCENARIO_COST), ...Object.keys(now.scenarios)]))
      drifted.push(
        ...drift(`scenario ${name}`, { requests: 0, ...SCENARIO_COST[name] }, { requests: 0, ...now.scenarios[name] }),
      );
    expect(drifted, "run `npx tsx conformance/scripts/measure-requests.ts --write` and commit the table").toEqual([]);
  }, 600_000);

  it("the report gives committed and settled spend per check", () => {
    const { spend } = report;
    expect(spend.byCheck.length).toBeGreaterThan(5);
    for (const c of spend.byCheck) {
      expect(new Decimal(c.committedUsd).greaterThan(0), c.check).toBe(true);
      expect(c.settledUsd, c.check).toBeDefined();
    }
    // the settled total is the balance's fall over the run: the rows and what settled after the last check add up to it
    const rows = spend.byCheck.reduce((s, c) => s.plus(c.settledUsd!), new Decimal(spend.afterChecksUsd ?? 0));
    expect(rows.toFixed()).toBe(new Decimal(spend.settledUsd!).toFixed());
    expect(new Decimal(spend.committedUsd).toFixed()).toBe(new Decimal(report.spentUsd).toFixed());
  });
});
