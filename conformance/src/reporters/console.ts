// Console reporter: one line per check as it ends, then the findings (one
// line each; -v in full: received vs documented, curl, replay), what to do
// next, and the verdict line last. -q keeps only the failures and that line.
import type { Check, CheckResult, Failure } from "../types.ts";
import type { RunReport } from "../runner.ts";
import type { CheckSpend } from "../run/spend.ts";
import { describeAttribution } from "../attribution.ts";
import { countsLine, findingsOf, type Finding } from "../verdict.ts";

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number, s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
export const red = (s: string) => paint(31, s);
export const green = (s: string) => paint(32, s);
export const yellow = (s: string) => paint(33, s);
export const dim = (s: string) => paint(2, s);

const mark: Record<CheckResult["outcome"], string> = { pass: "PASS", fail: "FAIL", skip: "SKIP", error: "ERR " };

/** Console options: -q (only failures and the verdict line) and -v (everything in full). */
export interface ConsoleOptions {
  quiet?: boolean;
  verbose?: boolean;
}

/**
 * The one line a check gets when it ends. A pass with parts it could not
 * exercise says how many; -v names them on the lines below.
 */
export function progressLine(check: Check, r: CheckResult, o: ConsoleOptions = {}, spend?: CheckSpend): string {
  const m = mark[r.outcome];
  const tag = r.outcome === "pass" ? green(m) : r.outcome === "skip" ? dim(m) : red(m);
  const unexercised = r.outcome === "pass" ? (r.unexercised ?? []) : [];
  const extra =
    r.outcome === "skip"
      ? dim(` (${r.skipReason})`)
      : r.outcome === "fail"
        ? ` ${r.failures.length} failure(s)`
        : r.outcome === "error"
          ? ` ${r.error?.split("\n")[0]}`
          : unexercised.length
            ? yellow(` ${unexercised.length} part(s) not exercised${o.verbose ? ":" : " (-v names them)"}`)
            : "";
  const warn = r.warnings.length ? yellow(` ${r.warnings.length} warning(s)`) : "";
  const decided = r.demoted?.length
    ? yellow(
        ` ${r.demoted.length} contract-decision finding(s) as warnings (${[...new Set(r.demoted.map((f) => f.attribution?.decision))].join(", ")})`,
      )
    : "";
  const accepted = r.accepted?.length ? dim(` ${r.accepted.length} accepted deviation(s)`) : "";
  const money = spend
    ? dim(` $${spend.committedUsd} committed${spend.settledUsd !== undefined ? `, $${spend.settledUsd} settled` : ""}`)
    : "";
  const line = `${tag} ${check.id.padEnd(36)} ${dim(`${r.ms}ms ${r.requests ? r.requests + " req" : ""}`)}${money}${extra}${warn}${decided}${accepted}`;
  return o.verbose && unexercised.length
    ? [line, ...unexercised.map((u) => dim(`       not exercised: ${u}`))].join("\n")
    : line;
}

/** A failure in one line: its title, and where (operation → status). */
export function failureLine(f: Failure, width = 220): string {
  const where = f.operation ? ` (${f.operation}${f.status ? ` → ${f.status}` : ""})` : "";
  const text = `${f.title}${where}`;
  return red(`✗ ${text.length > width ? text.slice(0, width - 1) + "…" : text}`);
}

export function formatFailure(f: Failure): string {
  const lines = [red(`✗ ${f.title}`)];
  if (f.attribution) lines.push(`  rule: ${describeAttribution(f.attribution)}`);
  if (f.operation) lines.push(`  operation: ${f.operation}${f.status ? ` → ${f.status}` : ""}`);
  if (f.message) lines.push(`  ${f.message}`);
  if (f.received !== undefined) lines.push(`  - received:   ${stringify(f.received)}`);
  if (f.expected !== undefined) lines.push(`  + documented: ${stringify(f.expected)}`);
  if (f.curl) lines.push(`  reproduce: ${f.curl}`);
  if (f.cassette) lines.push(`  cassette: ${f.cassette} (sl-conformance replay)`);
  if (f.replay) lines.push(`  replay: ${f.replay}`);
  else if (f.seed !== undefined)
    lines.push(`  replay: --seed ${f.seed}${f.path ? ` --fc-path ${f.path}` : ""} --only ${f.check}`);
  return lines.join("\n");
}

function stringify(v: unknown): string {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s && s.length > 600 ? s.slice(0, 600) + "…" : String(s);
}

/** Findings grouped by kind: seed-rule failures, contract-decision failures, warnings by decision, accepted deviations. */
export function groupedFindings(report: RunReport, o: ConsoleOptions = {}): string[] {
  const out: string[] = [];
  const all = findingsOf(report.results);
  const failures = (kind: "seed" | "decision") =>
    all.filter((f) => f.level === "failure" && f.attribution.kind === kind);
  const block = (title: string, list: Finding[]) => {
    if (!list.length) return;
    out.push("", `${title} (${list.length}):`);
    const byCheck = new Map<string, Finding[]>();
    for (const f of list) byCheck.set(f.check, [...(byCheck.get(f.check) ?? []), f]);
    for (const [id, fs] of byCheck) {
      for (const f of fs.slice(0, 10)) out.push(o.verbose ? formatFailure(f.failure!) : failureLine(f.failure!));
      if (fs.length > 10) out.push(dim(`  … and ${fs.length - 10} more of ${id}`));
    }
  };
  block("Failures: seed rules", failures("seed"));
  block("Failures: contract decisions on points the seed leaves open", failures("decision"));
  for (const r of report.results)
    if (r.error) out.push(red(`✗ ${r.id} crashed: ${o.verbose ? r.error : r.error.split("\n")[0]}`));
  const v = report.verdict;
  if (v.demotedDecisions.length) {
    out.push(
      "",
      `Warnings: contract decisions this deployment decides otherwise (--level seed; each fails at --level contract) (${v.demotedDecisions.length}):`,
    );
    for (const d of v.demotedDecisions) {
      const a = all.find(
        (f) => f.level === "warning" && f.attribution.decision === d.decision && f.failure,
      )!.attribution;
      out.push(yellow(`! ${describeAttribution(a, 140)} — ${d.failures} finding(s) in ${d.checks.join(", ")}`));
    }
  }
  const warned = all.filter((f) => f.level === "warning" && !f.failure);
  if (warned.length) {
    out.push("", `Warnings: lenient rules and advisories (${warned.length}):`);
    const byRule = new Map<string, Finding[]>();
    for (const w of warned) {
      const k = w.attribution.kind === "decision" ? w.attribution.decision! : `seed rule (${w.check})`;
      byRule.set(k, [...(byRule.get(k) ?? []), w]);
    }
    for (const [k, ws] of byRule) {
      out.push(
        yellow(
          `! ${k}${ws[0]!.attribution.kind === "decision" ? " (contract decision)" : ""}: ${ws.length} warning(s) in ${[...new Set(ws.map((w) => w.check))].join(", ")}`,
        ),
      );
      if (o.verbose) for (const w of ws.slice(0, 3)) out.push(`    ${w.check}: ${w.title}`);
    }
  }
  const accepted = all.filter((f) => f.level === "accepted");
  if (v.deviations.length) {
    out.push(
      "",
      `Deviations file${report.settings.deviationsFile ? ` ${report.settings.deviationsFile}` : ""} (${v.deviations.length} entr${v.deviations.length === 1 ? "y" : "ies"}, ${accepted.length} finding(s) accepted):`,
    );
    const entries = report.settings.deviations ?? [];
    for (const d of v.deviations) {
      const e = entries[d.entry - 1]!;
      if (d.stale)
        out.push(
          red(
            `✗ entry ${d.entry} ${d.label} is stale: it matches no finding any more (the deployment now conforms); remove it`,
          ),
        );
      else if (d.unexercised)
        out.push(dim(`- entry ${d.entry} ${d.label}: not judged (no check that can report it ran)`));
      else out.push(`✓ entry ${d.entry} ${d.label}: ${d.matched} finding(s) accepted until ${e.expires} — ${e.reason}`);
    }
  }
  return out;
}

/** -q: every failure in one line (seed rules, then contract decisions), the crashes and the stale deviation entries. */
export function failureLines(report: RunReport): string[] {
  const all = findingsOf(report.results).filter((f) => f.level === "failure");
  const sorted = [
    ...all.filter((f) => f.attribution.kind === "seed"),
    ...all.filter((f) => f.attribution.kind !== "seed"),
  ];
  return [
    ...sorted.map((f) => failureLine(f.failure!)),
    ...report.results.filter((r) => r.error).map((r) => red(`✗ ${r.id} crashed: ${r.error!.split("\n")[0]}`)),
    ...report.verdict.deviations
      .filter((d) => d.stale)
      .map((d) => red(`✗ deviations entry ${d.entry} ${d.label} is stale: remove it`)),
  ];
}

/** What a run that failed asks of its reader: how to run the failing checks again, and where the details are. */
export interface NextSteps {
  /** the command that runs only the failing checks again, with this run's seed */
  replay: string;
  /** the report files, when --report was given */
  reports?: string[];
  cassettes?: string;
}

function nextStepLines(report: RunReport, next: NextSteps | undefined): string[] {
  const failed = report.results.filter((r) => r.outcome === "fail" || r.outcome === "error");
  if (!next || !failed.length) return [];
  return [
    "",
    `Next (${failed.length} check(s) failed):`,
    `  run them again: ${next.replay}`,
    next.reports?.length
      ? `  each failure in full (received vs documented, curl, rule): ${next.reports.join(", ")}`
      : "  each failure in full: add --report <dir> (summary.md, report.html, a HAR cassette per failure) or -v",
    ...(next.cassettes
      ? [`  re-send one failure: sl-conformance replay ${next.cassettes}/<file>.har --base-url … --api-key …`]
      : []),
  ];
}

/** Money in one phrase: committed, settled and the budget. */
export function spendPhrase(report: RunReport): string {
  const s = report.spend;
  if (!s) return `committed spend $${report.spentUsd}`;
  const settled = s.settledUsd !== undefined ? `, settled $${s.settledUsd}` : "";
  const budget = s.budgetUsd !== undefined ? ` (budget $${s.budgetUsd})` : "";
  return `committed spend $${s.committedUsd}${settled}${budget}`;
}

/** The last line of every run: what passed and failed, the findings by kind, requests, time, money, coverage. */
export function verdictLine(report: RunReport): string {
  const count = (o: string) => report.results.filter((r) => r.outcome === o).length;
  const partial = report.results.filter((r) => r.outcome === "pass" && r.unexercised?.length).length;
  const ledger = report.ledger.summary();
  return `run ${report.runId}: ${count("pass")} passed${partial ? ` (${partial} with parts not exercised)` : ""}, ${count("fail") + count("error")} failed, ${count("skip")} skipped; ${countsLine(report.verdict)}; ${report.requestCount} requests (${Object.entries(
    report.requestsByKey,
  )
    .map(([k, v]) => `${k} ${v}`)
    .join(
      ", ",
    )}); ${report.unplanned429} unplanned 429; ${(report.ms / 1000).toFixed(1)}s; ${spendPhrase(report)}; coverage ${ledger.exercised}/${ledger.pairs} operation×status pairs`;
}

/**
 * What the console prints once the run is over. Without -q: the findings
 * (one line each; -v in full), what to do next, then the verdict line last.
 * With -q: only the failures and the verdict line.
 */
export function summary(report: RunReport, o: ConsoleOptions & { next?: NextSteps; extra?: string[] } = {}): string {
  if (o.quiet) return [...failureLines(report), ...(o.extra ?? []), verdictLine(report)].join("\n");
  return [
    ...groupedFindings(report, o),
    ...nextStepLines(report, o.next),
    ...(o.extra ?? []),
    verdictLine(report),
  ].join("\n");
}
