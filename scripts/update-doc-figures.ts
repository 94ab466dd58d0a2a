// Figures in the docs that move with the code, each generated here from its
// source and kept between `<!-- figure:NAME -->` and `<!-- /figure:NAME -->`:
//  - demo-data (docs/operating-the-reference.md): what the demo accounts
//    start with, from fixtures/;
//  - kit-cost (docs/performance.md): the checks that send the most requests
//    and commit the most money, from the measured cost table
//    (conformance/src/request-budget.ts) at the seed's plan rates;
//  - contract-diff-current (docs/changing-the-contract.md): the first and the
//    last line of `contract:diff --current generated/openapi.json`;
//  - contract-diff-demo (the same guide): `contract:diff --base
//    generated/openapi.json --project tmp/contract-demo` on a copy of the
//    TypeSpec this script makes, with a field renamed, a tracking agent
//    bound lowered, an optional run field and an optional price category.
//   npx tsx scripts/update-doc-figures.ts           rewrite the blocks
//   npx tsx scripts/update-doc-figures.ts --check   exit 1 when a block is out of date
// test/scripts/doc-figures.test.ts runs the check.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Decimal } from "decimal.js";
import { groupSpecs } from "../conformance/src/groups/index.ts";
import type { PriceCategory } from "../conformance/src/groups/types.ts";
import { COST_PER_CHECK, MEASURED_RPS, SCENARIO_COST, type CheckCost } from "../conformance/src/request-budget.ts";
import { diffContracts } from "./lib/contract-diff.ts";
import { consoleTable } from "./lib/contract-report.ts";
import { compileTypeSpec, readDocument, resolveBase } from "./lib/contract-source.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const json = <T>(file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8")) as T;

export interface Figure {
  file: string;
  name: string;
  text(): string;
}

/** What account A (and B) start with in the demo scenario. */
function demoData(): string {
  const datasets = json<{ datasets: Array<{ account_id: string; name: string; runs?: unknown[] }> }>(
    "fixtures/datasets.json",
  ).datasets;
  const audiences = json<{
    audience_datasets: Array<{
      account_id: string;
      runs?: Array<{ source_dataset: string; total_profile_count: number }>;
    }>;
  }>("fixtures/audiences.json").audience_datasets;
  const patterns = json<{ pattern_detections: Array<{ account_id: string; run_id: string; pattern_id: string }> }>(
    "fixtures/patterns.json",
  ).pattern_detections;
  const count = ["no", "one", "two", "three", "four", "five"];
  const of = (account: string) => {
    const names = datasets.filter((d) => d.account_id === account && d.runs?.length).map((d) => `"${d.name}"`);
    return `${count[names.length] ?? names.length} dataset${names.length === 1 ? "" : "s"} with completed runs (${names.join(", ")})`;
  };
  const aud = audiences.filter((a) => a.account_id === "acc_demoA").flatMap((a) => a.runs ?? []);
  const pat = patterns.filter((p) => p.account_id === "acc_demoA");
  return (
    `Account A starts with ${of("acc_demoA")}, ` +
    `${aud.map((r) => `an audience dataset with a run of ${r.total_profile_count} profiles over "${r.source_dataset}"`).join(", ")}` +
    `${pat.map((p) => `, and a completed pattern detection (\`${p.run_id}\` → \`${p.pattern_id}\`)`).join("")}. ` +
    `Account B starts with ${of("acc_demoB")}.`
  );
}

/** The seed's plan rates (dollars per unit) and unit ratios (groups/). */
const RATES = { Pro: new Decimal("0.0356"), Business: new Decimal("0.0225") };
const UNIT: Partial<Record<PriceCategory, number>> = Object.fromEntries(
  groupSpecs.filter((g) => g.price).map((g) => [g.price!.category, g.price!.units]),
);
const usdAt = (part: Pick<CheckCost, "units" | "usd"> | undefined, rate: Decimal) =>
  Object.entries(part?.units ?? {}).reduce(
    (sum, [k, n]) => sum.plus(rate.mul(UNIT[k as PriceCategory] ?? 0).mul(n)),
    new Decimal(part?.usd ?? 0),
  );
const dollars = (d: Decimal) => `$${d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2)}`;

/** The heaviest checks of the measured cost table. */
function kitCost(): string {
  const rows = Object.entries(COST_PER_CHECK);
  const byRequests = [...rows].sort((a, b) => b[1].requests - a[1].requests).slice(0, 6);
  const byMoney = [...rows]
    .map(([id, c]) => [id, usdAt(c, RATES.Business)] as const)
    .filter(([, d]) => d.greaterThan(0))
    .sort((a, b) => b[1].comparedTo(a[1]))
    .slice(0, 5);
  const total = (rate: Decimal) =>
    [...rows.map(([, c]) => c), ...Object.values(SCENARIO_COST)].reduce(
      (sum, c) => sum.plus(usdAt(c, rate)),
      new Decimal(0),
    );
  const setups = Object.entries(SCENARIO_COST)
    .map(([name, c]) => [name, usdAt(c, RATES.Business)] as const)
    .sort((a, b) => b[1].comparedTo(a[1]))
    .slice(0, 3);
  const requests = rows.reduce((n, [, c]) => n + c.requests, 0);
  const refused = rows
    .map(([id, c]) => [id, usdAt(c.refused, RATES.Business)] as const)
    .sort((a, b) => b[1].comparedTo(a[1]))[0];
  return [
    `The table (standard profile, whole contract, the reference at ${MEASURED_RPS} requests/second) adds up to ${requests.toLocaleString("en-US")} requests.`,
    `The most requests: ${byRequests.map(([id, c]) => `\`${id}\` ${c.requests}${c.scalesWithRate ? " (a burst sized by the rate limit)" : ""}`).join(", ")}.`,
    `What the checks and their shared setups keep committed: ${dollars(total(RATES.Business))} at the Business rate ($${RATES.Business.toFixed()} per unit), ${dollars(total(RATES.Pro))} at the Pro rate ($${RATES.Pro.toFixed()}); the most: ${byMoney.map(([id, d]) => `\`${id}\` ${dollars(d)}`).join(", ")}; of the shared setups: ${setups.map(([name, d]) => `${name} ${dollars(d)}`).join(", ")} (Business).`,
    refused
      ? `The largest commitment held only until a refusal: \`${refused[0]}\` ${dollars(refused[1])} (Business), a negative case a conformant deployment refuses; under the default budget such a case is not sent.`
      : "",
  ]
    .filter(Boolean)
    .join("\n");
}

/** The first and last lines of the diff of today's generated document against the latest release. */
function contractDiffCurrent(): string {
  const base = resolveBase(undefined);
  const file = "generated/openapi.json";
  const report = diffContracts(base.doc, readDocument(path.join(root, file)));
  const lines = consoleTable(report, { base: base.label, current: file }).split("\n");
  return ["```", lines[0], "…", lines.at(-1), "```"].join("\n");
}

/** Replace in a file of the demo copy; an edit that finds nothing stops the script (the example would be vacuous). */
function edit(dir: string, file: string, from: RegExp, to: string): void {
  const p = path.join(dir, file);
  const text = readFileSync(p, "utf8");
  if (!from.test(text)) throw new Error(`contract demo: ${file} has no ${from}`);
  writeFileSync(p, text.replace(from, to));
}

/** `contract:diff --project tmp/contract-demo` on a copy of the TypeSpec with four edits a client would notice. */
function contractDiffDemo(): string {
  const dir = path.join(root, "tmp", "contract-demo");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const f of ["main.tsp", "tspconfig.yaml", "spec"])
    cpSync(path.join(root, f), path.join(dir, f), { recursive: true });
  for (const f of ["models.tsp", "routes.tsp"])
    edit(dir, `spec/mentions/${f}`, /are_views_estimated/g, "views_estimated");
  edit(
    dir,
    "spec/tracking-agents/models.tsp",
    /(model CreateTrackingAgentBody \{[\s\S]*?)@maxValue\(1000\)/,
    "$1@maxValue(500)",
  );
  edit(
    dir,
    "spec/datasets/runs.models.tsp",
    /model CreateDatasetRunBody \{\n/,
    "model CreateDatasetRunBody {\n  /** A note kept with the run. */\n  note?: string;\n\n",
  );
  edit(
    dir,
    "spec/account/models.tsp",
    /model CategoryPrices \{\n/,
    "model CategoryPrices {\n  /** Per transcribed minute. */\n  transcription?: Dollars;\n\n",
  );
  // against today's generated contract, so only the four edits show (a release would add every change since)
  const base = "generated/openapi.json";
  const report = diffContracts(readDocument(path.join(root, base)), compileTypeSpec(dir).doc);
  return ["```", consoleTable(report, { base, current: "TypeSpec in tmp/contract-demo" }), "```"].join("\n");
}

export const FIGURES: Figure[] = [
  { file: "docs/operating-the-reference.md", name: "demo-data", text: demoData },
  { file: "docs/performance.md", name: "kit-cost", text: kitCost },
  { file: "docs/changing-the-contract.md", name: "contract-diff-current", text: contractDiffCurrent },
  { file: "docs/changing-the-contract.md", name: "contract-diff-demo", text: contractDiffDemo },
];

const block = (name: string) => new RegExp(`<!-- figure:${name} -->\\n([\\s\\S]*?)\\n?<!-- /figure:${name} -->`);

/** Each figure's block as the file has it and as it should be. */
export function compare(): Array<{ figure: Figure; found?: string; wanted: string }> {
  return FIGURES.map((figure) => {
    const text = readFileSync(path.join(root, figure.file), "utf8");
    return { figure, found: block(figure.name).exec(text)?.[1], wanted: figure.text() };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const { figure, found, wanted } of compare()) {
    if (found === wanted) continue;
    if (found === undefined) {
      console.error(`${figure.file}: no <!-- figure:${figure.name} --> block`);
      stale++;
    } else if (check) {
      console.error(`${figure.file}: figure ${figure.name} is out of date`);
      stale++;
    } else {
      const file = path.join(root, figure.file);
      const fresh = `<!-- figure:${figure.name} -->\n${wanted}\n<!-- /figure:${figure.name} -->`;
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace(block(figure.name), () => fresh),
      );
      console.log(`${figure.file}: rewrote figure ${figure.name}`);
    }
  }
  process.exitCode = stale ? 1 : 0;
}
