// The seed-rule ledger as Markdown: the figure (observable seed rules judged),
// the uncovered rows with their reasons, the rows a client cannot observe,
// and every row in the seed's order. `sl-conformance --seed-coverage` prints
// it; docs/seed-ledger.md is the same text (conformance/scripts/
// update-seed-ledger.ts). It reads only the ledger's data, never the seed
// file, so an installed kit prints it too.
import { IGNORED } from "./ignored.ts";
import { LEDGER } from "./rules.ts";
import { judgesOf } from "./judges.ts";
import { isRule, isUncovered, isUnobservable, isUnsettled, type LedgerRow } from "./types.ts";

export interface SeedCoverage {
  /** observable rows some check judges */
  judged: number;
  /** of those, rows that name a mutation fault proving the assertion fails */
  proven: number;
  /** observable rows no check judges */
  uncovered: number;
  /** of those, rows a check could judge cheaply */
  cheap: number;
  /** rows a client cannot observe (not counted) */
  unobservable: number;
  /** points the seed states two ways or hedges, decided by the contract (not counted) */
  unsettled: number;
  /** judged + uncovered */
  observable: number;
  /** judged / observable, in percent */
  percent: number;
}

export function seedCoverage(rows: LedgerRow[] = LEDGER): SeedCoverage {
  // a row to judge that no check judges counts as uncovered (the ledger's test fails on it)
  const judged = rows.filter((r) => isRule(r) && judgesOf(r.id).length > 0);
  const uncovered = rows.filter((r) => isUncovered(r) || (isRule(r) && judgesOf(r.id).length === 0));
  const observable = judged.length + uncovered.length;
  return {
    judged: judged.length,
    proven: judged.filter((r) => judgesOf(r.id).some((j) => j.faults.length > 0)).length,
    uncovered: uncovered.length,
    cheap: uncovered.filter((r) => isUncovered(r) && r.cheap).length,
    unobservable: rows.filter(isUnobservable).length,
    unsettled: rows.filter(isUnsettled).length,
    observable,
    percent: observable ? (100 * judged.length) / observable : 100,
  };
}

/** The one line the README and the CLI show. */
export function seedCoverageLine(c: SeedCoverage = seedCoverage()): string {
  return `${c.judged} of ${c.observable} observable seed rules judged (${c.percent.toFixed(1)}%)`;
}

/** What conformance/README.md shows between its seed-ledger markers. */
export function seedLedgerReadme(c: SeedCoverage = seedCoverage()): string {
  return `\n**${seedCoverageLine(c)}**, ${c.proven} of them proven by a mutation fault; ${c.uncovered} uncovered, each with its reason (${c.cheap} cheap to judge), in [\`docs/seed-ledger.md\`](../docs/seed-ledger.md). \`sl-conformance --seed-coverage\` prints the same ledger.\n`;
}

/** A table cell: pipes escaped, line breaks flattened. */
const cell = (s: string) => s.replace(/\s+/g, " ").replace(/\|/g, "\\|");

/** The seed's words as a cell: quoted, with the row's own formulation after them when it has one. */
function said(r: LedgerRow): string {
  return cell(`“${r.quote}”`) + (r.rule ? `<br>→ ${cell(r.rule)}` : "");
}

function judges(r: LedgerRow): string {
  if (isUncovered(r)) return `**uncovered**: ${cell(r.uncovered)}`;
  if (isUnsettled(r)) return `*stated two ways, decided by ${r.decision}*: ${cell(r.unsettled)}`;
  if (isUnobservable(r)) return `*not observable*: ${cell(r.notObservable)}`;
  const js = judgesOf(r.id);
  if (!js.length) return "**uncovered**: no check judges it";
  return (
    js
      .map((j) => `\`${j.check}\`${j.faults.length ? ` (${j.faults.map((f) => `fault \`${f}\``).join(", ")})` : ""}`)
      .join(", ") + (r.note ? `<br>*${cell(r.note)}*` : "")
  );
}

export function seedLedgerMarkdown(rows: LedgerRow[] = LEDGER): string {
  const c = seedCoverage(rows);
  const uncovered = rows.filter(isUncovered);
  const unobservable = rows.filter(isUnobservable);
  const unsettled = rows.filter(isUnsettled);
  const out = [
    "# Seed-rule ledger",
    "",
    "<!-- Generated from conformance/src/seed-ledger/ by `npx tsx conformance/scripts/update-seed-ledger.ts`; `npm run conformance -- --seed-coverage` prints the same. Do not edit by hand. -->",
    "",
    `**${seedCoverageLine(c)}.**`,
    "",
    "Each row is one rule the service specification (the seed, `spec/seed.txt`) states, quoted in the seed's own words and listed in the seed's order. " +
      "A row is **judged** when a check of the kit asserts it: the check fails on a deployment that breaks the rule. " +
      `${c.proven} of the ${c.judged} judged rows also name a mutation fault (\`conformance/mutation/faults*.ts\`) that breaks exactly that rule and that the check catches, the proof that the assertion can fail (\`npm test\` runs every fault). ` +
      "A row is **uncovered** when a client could observe the rule but no check judges it; the reason is given, and for " +
      `${c.cheap} of the ${c.uncovered} a cheap way to judge it. ` +
      `Rows that state nothing a client can observe (server internals, instructions to clients, promises about later versions, events no client can provoke) are listed apart and not counted, and so are points the seed states two ways or only hedges: the contract decides those (a \`D-…\` row the kit judges as a decision). The figure is judged rows / (judged + uncovered rows). ` +
      `The ledger's test fails when a sentence of the seed that carries a rule marker (a default, a bound, "only", "must", a status code, an error code, "never", "always", a charge word, an endpoint or state table row) is quoted by no row and by none of the ${IGNORED.length} ignored sentences.`,
    "",
    "| Rows | Count |",
    "|---|---|",
    `| judged | ${c.judged} (${c.proven} proven by a mutation fault) |`,
    `| uncovered | ${c.uncovered} (${c.cheap} cheap to judge) |`,
    `| not observable (not counted) | ${c.unobservable} |`,
    `| stated two ways or hedged, decided by the contract (not counted) | ${c.unsettled} |`,
    "",
    "## Uncovered observable rules",
    "",
    "| Row | The seed says | Why no check judges it | A cheap check |",
    "|---|---|---|---|",
    ...uncovered.map((r) => `| \`${r.id}\` | ${said(r)} | ${cell(r.uncovered)} | ${r.cheap ? cell(r.cheap) : ""} |`),
    "",
    "## Not observable by a client (not counted)",
    "",
    "| Row | The seed says | Why |",
    "|---|---|---|",
    ...unobservable.map((r) => `| \`${r.id}\` | ${said(r)} | ${cell(r.notObservable)} |`),
    "",
    "## Stated two ways or hedged: decided by the contract (not counted)",
    "",
    "| Row | The seed says | Decision | Why |",
    "|---|---|---|---|",
    ...unsettled.map((r) => `| \`${r.id}\` | ${said(r)} | ${r.decision} | ${cell(r.unsettled)} |`),
    "",
    "## Sentences with a rule marker that state no rule",
    "",
    "| The seed says | Why it is not a row |",
    "|---|---|",
    ...IGNORED.map((g) => `| ${cell(`“${g.quote}”`)} | ${cell(g.reason)} |`),
    "",
    "## Every row, in the seed's order",
    "",
    "| Row | Kind | The seed says | Judged by |",
    "|---|---|---|---|",
    ...rows.map((r) => `| \`${r.id}\` | ${r.kind} | ${said(r)} | ${judges(r)} |`),
    "",
  ];
  return out.join("\n");
}
