// Console reporter: progress lines while checks run, then failures
// (received vs documented, curl, replay) and a summary table.
import type { Check, CheckResult, Failure } from "../types.ts";
import type { RunReport } from "../runner.ts";
import { describeAttribution } from "../attribution.ts";
import { countsLine, findingsOf, type Finding } from "../verdict.ts";

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number, s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
export const red = (s: string) => paint(31, s);
export const green = (s: string) => paint(32, s);
export const yellow = (s: string) => paint(33, s);
export const dim = (s: string) => paint(2, s);

const mark: Record<CheckResult["outcome"], string> = { pass: "PASS", fail: "FAIL", skip: "SKIP", error: "ERR " };

export function progressLine(check: Check, r: CheckResult): string {
  const m = mark[r.outcome];
  const tag = r.outcome === "pass" ? green(m) : r.outcome === "skip" ? dim(m) : red(m);
  const extra =
    r.outcome === "skip"
      ? dim(` (${r.skipReason})`)
      : r.outcome === "fail"
        ? ` ${r.failures.length} failure(s)`
        : r.outcome === "error"
          ? ` ${r.error?.split("\n")[0]}`
          : "";
  const warn = r.warnings.length ? yellow(` ${r.warnings.length} warning(s)`) : "";
  const decided = r.demoted?.length
    ? yellow(
        ` ${r.demoted.length} contract-decision finding(s) as warnings (${[...new Set(r.demoted.map((f) => f.attribution?.decision))].join(", ")})`,
      )
    : "";
  const accepted = r.accepted?.length ? dim(` ${r.accepted.length} accepted deviation(s)`) : "";
  return `${tag} ${check.id.padEnd(36)} ${dim(`${r.ms}ms ${r.requests ? r.requests + " req" : ""}`)}${extra}${warn}${decided}${accepted}`;
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
export function groupedFindings(report: RunReport, paint = true): string[] {
  const P = (f: (s: string) => string, s: string) => (paint ? f(s) : s);
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
      for (const f of fs.slice(0, 10))
        out.push(paint ? formatFailure(f.failure!) : formatFailure(f.failure!).replace(/\u001b\[\d+m/g, ""));
      if (fs.length > 10) out.push(P(dim, `  … and ${fs.length - 10} more of ${id}`));
    }
  };
  block("Failures: seed rules", failures("seed"));
  block("Failures: contract decisions on points the seed leaves open", failures("decision"));
  for (const r of report.results) if (r.error) out.push(P(red, `✗ ${r.id} crashed: ${r.error}`));
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
      out.push(P(yellow, `! ${describeAttribution(a, 140)} — ${d.failures} finding(s) in ${d.checks.join(", ")}`));
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
        P(
          yellow,
          `! ${k}${ws[0]!.attribution.kind === "decision" ? " (contract decision)" : ""}: ${ws.length} warning(s)`,
        ),
      );
      for (const w of ws.slice(0, 3)) out.push(`    ${w.check}: ${w.title}`);
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
          P(
            red,
            `✗ entry ${d.entry} ${d.label} is stale: it matches no finding any more (the deployment now conforms); remove it`,
          ),
        );
      else if (d.unexercised)
        out.push(P(dim, `- entry ${d.entry} ${d.label}: not judged (no check that can report it ran)`));
      else out.push(`✓ entry ${d.entry} ${d.label}: ${d.matched} finding(s) accepted until ${e.expires} — ${e.reason}`);
    }
  }
  return out;
}

export function summary(report: RunReport): string {
  const out: string[] = groupedFindings(report);
  out.push("", "| Check | Result | Failures | Warnings | Requests | ms |", "|---|---|---|---|---|---|");
  for (const r of report.results)
    out.push(
      `| ${r.id} | ${r.outcome}${r.skipReason ? ` (${r.skipReason})` : ""} | ${r.failures.length} | ${r.warnings.length} | ${r.requests} | ${r.ms} |`,
    );
  const count = (o: string) => report.results.filter((r) => r.outcome === o).length;
  const ledger = report.ledger.summary();
  out.push(
    "",
    `run ${report.runId}: ${count("pass")} passed, ${count("fail") + count("error")} failed, ${count("skip")} skipped; ${countsLine(report.verdict)}; ${report.requestCount} requests (${Object.entries(
      report.requestsByKey,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ", ",
      )}); ${report.unplanned429} unplanned 429; ${(report.ms / 1000).toFixed(1)}s; committed spend $${report.spentUsd}; coverage ${ledger.exercised}/${ledger.pairs} operation×status pairs`,
  );
  return out.join("\n");
}
