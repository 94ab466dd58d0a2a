// Measures what a run costs, per check, so a deployment team can plan one:
// the kit against the reference in this process (its step delay of 50 ms,
// --rps requests per second per key: default 50, the rate the cost table is
// kept at; 5 is `npm start`'s, for the docs' figures of a full run), whole
// contract, standard and readonly profiles. Prints Markdown tables (the
// figures docs/performance.md quotes) and, with --write, rewrites
// src/request-budget.ts: requests per check and the most each commits, in
// units of each price category (measure-cost.ts), which `--plan` and the
// default budget price at a deployment's own prices.
//   npx tsx conformance/scripts/measure-requests.ts [--write] [--rps 50] [--port P]
// (--port: the reference's port, default a free one; SIGINT or SIGTERM closes it)
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Decimal } from "decimal.js";
import * as prettier from "prettier";
import { Contract } from "../src/contract.ts";
import type { PriceCategory } from "../src/groups/types.ts";
import type { CheckCost, ScenarioCost } from "../src/cost-types.ts";
import { runKit, type RunReport } from "../src/runner.ts";
import { demoKeys, settings, startReference } from "../test/helpers.ts";
import { portArg } from "../../scripts/lib/reference-process.ts";
import { stopOnSignal } from "../../scripts/lib/stop-on-signal.ts";
import { costsOf, usdOf } from "./measure-cost.ts";

const arg = (name: string) => process.argv.find((a, i) => process.argv[i - 1] === name);
if (process.argv.includes("--help")) {
  console.log(`npx tsx conformance/scripts/measure-requests.ts [--write] [--rps 50] [--port P]

The whole kit, standard then readonly, against the reference started in this
process on 127.0.0.1 (--port P, default a free port), at --rps requests per
second per key (default 50, the cost table's rate; 5 is npm start's). Prints
each profile's time, requests and spend, and each check's requests and
commitments; --write rewrites src/request-budget.ts. SIGINT or SIGTERM closes
the server.`);
  process.exit(0);
}
const rps = Number(arg("--rps") ?? 50);
const port = portArg();

/** The main key's prices on the reference (Pro plan). */
async function pricesOf(baseUrl: string): Promise<Partial<Record<PriceCategory, Decimal>>> {
  const res = await fetch(`${baseUrl}/v1/prices`, { headers: { "x-api-key": demoKeys().main! } });
  const body = (await res.json()) as { data: { prices: Record<string, number | string> } };
  return Object.fromEntries(Object.entries(body.data.prices).map(([k, v]) => [k, new Decimal(String(v))]));
}

async function measure(
  profile: "standard" | "readonly",
): Promise<{ report: RunReport; prices: Partial<Record<PriceCategory, Decimal>> }> {
  const ref = await startReference({ rateLimitPerSecond: rps, port });
  const unregister = stopOnSignal(() => ref.close());
  try {
    const prices = await pricesOf(ref.baseUrl);
    return { report: await runKit(settings(ref.baseUrl, { profile, operations: undefined, quiet: true })), prices };
  } finally {
    unregister();
    await ref.close();
  }
}

const { report: standard, prices } = await measure("standard");
const { report: readonly } = await measure("readonly");
const { checks: table, scenarios } = costsOf(standard, Contract.load(), prices);
const money = (d: Decimal | string | undefined) =>
  d === undefined ? "?" : `$${new Decimal(d).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2)}`;
const count = (r: RunReport, ...o: string[]) => r.results.filter((x) => o.includes(x.outcome)).length;
const line = (r: RunReport, label: string) =>
  `| ${label} | ${(r.ms / 1000).toFixed(0)} s | ${r.requestCount} | ${Object.entries(r.requestsByKey)
    .map(([k, v]) => `${k} ${v}`)
    .join(
      ", ",
    )} | ${count(r, "pass")} / ${count(r, "fail", "error")} / ${count(r, "skip")} | ${money(r.spend.committedUsd)} | ${money(r.spend.settledUsd)} |`;
const kept = [...Object.values(table), ...Object.values(scenarios)].reduce(
  (sum, c) => sum.plus(usdOf(c, prices)),
  new Decimal(0),
);
console.log(
  `Against the reference at ${rps} requests/second per key, whole contract (main key's prices: ${Object.entries(prices)
    .map(([k, v]) => `${k} $${v!.toFixed()}`)
    .join(", ")}):\n`,
);
console.log(
  "| Profile | Wall time | Requests | Per key | Pass / fail / skip | Committed | Settled |\n|---|---|---|---|---|---|---|",
);
console.log(line(standard, "standard"));
console.log(line(readonly, "readonly"));
console.log(
  `\nWhat the standard profile keeps committed at these prices (the table's sum, what the default budget adds 10% to): ${money(kept)}`,
);
console.log(
  "\n| Check | Requests (standard) | Requests (readonly) | Committed | Held until a refusal (largest) | Settled |\n|---|---|---|---|---|---|",
);
const ro = new Map(readonly.results.map((r) => [r.id, r]));
const settledOf = new Map(standard.spend.byCheck.map((c) => [c.check, c.settledUsd]));
for (const r of standard.results) {
  const cost = table[r.id];
  const usd = cost ? usdOf(cost, prices) : undefined;
  const held = cost?.refused ? usdOf(cost.refused, prices) : undefined;
  const dollars = (d: Decimal | undefined) => (d && !d.isZero() ? money(d) : "-");
  console.log(
    `| \`${r.id}\` | ${r.outcome === "skip" ? "skipped" : r.requests} | ${ro.get(r.id)?.outcome === "skip" ? "skipped" : (ro.get(r.id)?.requests ?? "-")} | ${dollars(usd)} | ${dollars(held)} | ${settledOf.has(r.id) ? money(settledOf.get(r.id)) : "-"} |`,
  );
}
const inspected = standard.results.filter((r) => r.requests === 0 && r.outcome !== "skip").length;
console.log(
  `\n${inspected} response-level checks cost no request (they inspect the traffic above); unplanned 429: ${standard.unplanned429}; settled after the last check: ${money(standard.spend.afterChecksUsd)}.`,
);
if (process.argv.includes("--write")) {
  const path = fileURLToPath(new URL("../src/request-budget.ts", import.meta.url));
  // formatted as the repository's Prettier settings say, so the format gate passes on the written file
  const options = { ...(await prettier.resolveConfig(path)), filepath: path };
  writeFileSync(path, await prettier.format(tableSource(table, scenarios, rps), options));
  console.log(`wrote ${path}`);
}
process.exit(0);

function unitsText(u: CheckCost["units"]): string {
  return `{ ${Object.entries(u ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join(", ")} }`;
}

/** `{ units: {…}, usd: n }` of a part, leaving out what is empty. */
function partText(p: { units?: CheckCost["units"]; usd?: number }): string {
  return [
    ...(p.units && Object.keys(p.units).length ? [`units: ${unitsText(p.units)}`] : []),
    ...(p.usd ? [`usd: ${p.usd}`] : []),
  ].join(", ");
}

function scenarioRowOf(name: string, c: ScenarioCost): string {
  const parts = [partText(c)].filter(Boolean);
  if (c.peak) parts.push(`peak: { ${partText(c.peak)} }`);
  return `  ${JSON.stringify(name)}: { ${parts.join(", ")} },`;
}

function rowOf(id: string, c: CheckCost): string {
  const parts = [`requests: ${c.requests}`];
  if (c.scenarios?.length) parts.push(`scenarios: ${JSON.stringify(c.scenarios)}`);
  if (c.scalesWithRate) parts.push("scalesWithRate: true");
  if (partText(c)) parts.push(partText(c));
  if (c.peak) parts.push(`peak: { ${partText(c.peak)} }`);
  if (c.refused) parts.push(`refused: { ${partText(c.refused)} }`);
  return `  ${JSON.stringify(id)}: { ${parts.join(", ")} },`;
}

function tableSource(t: Record<string, CheckCost>, sc: Record<string, ScenarioCost>, rate: number): string {
  return `// What each check costs, measured against the reference (whole contract,
// standard profile, ${rate} requests/second, the reference's step delay of 50 ms):
// the requests it sends, and what it commits through the budget guard, in
// units of each price category of GET /v1/prices (a dataset run of 20
// mentions commits 20 "mention" units) plus dollars that are not priced per
// unit (the assistant's token charge guard): what it keeps committed (a
// conformant deployment may charge it), apart the largest commitment it
// holds only until the deployment refuses a request (a negative case: money
// at risk only if the deployment wrongly accepts it), and the shared
// scenarios it needs, whose cost is listed once (SCENARIO_COST). \`--plan\` prices both
// at a deployment's own prices; the default budget is what the selected
// checks keep committed, plus a margin; the progress line estimates the time
// left from the requests. \`npx tsx conformance/scripts/measure-requests.ts --write\`
// rewrites this file; conformance/test/cost-table.test.ts fails when a fresh
// run drifts from it beyond the noise of a run.
import type { CheckCost, ScenarioCost } from "./cost-types.ts";

export type { CheckCost, ScenarioCost };

/** The reference's rate limit per key when the table was measured (conformance/test/cost-table.test.ts runs at it). */
export const MEASURED_RPS = ${rate};

export const COST_PER_CHECK: Record<string, CheckCost> = {
${Object.entries(t)
  .map(([id, c]) => rowOf(id, c))
  .join("\n")}
};

export const SCENARIO_COST: Record<string, ScenarioCost> = {
${Object.entries(sc)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([name, c]) => scenarioRowOf(name, c))
  .join("\n")}
};
`;
}
