// Console reporter: progress lines while checks run, then failures
// (received vs documented, curl, replay) and a summary table.
import type { Check, CheckResult, Failure } from "../types.ts";
import type { RunReport } from "../runner.ts";

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
  const extra = r.outcome === "skip" ? dim(` (${r.skipReason})`) : r.outcome === "fail" ? ` ${r.failures.length} failure(s)` : r.outcome === "error" ? ` ${r.error?.split("\n")[0]}` : "";
  const warn = r.warnings.length ? yellow(` ${r.warnings.length} warning(s)`) : "";
  return `${tag} ${check.id.padEnd(36)} ${dim(`${r.ms}ms ${r.requests ? r.requests + " req" : ""}`)}${extra}${warn}`;
}

export function formatFailure(f: Failure): string {
  const lines = [red(`✗ ${f.title}`)];
  if (f.operation) lines.push(`  operation: ${f.operation}${f.status ? ` → ${f.status}` : ""}`);
  if (f.message) lines.push(`  ${f.message}`);
  if (f.received !== undefined) lines.push(`  - received:   ${stringify(f.received)}`);
  if (f.expected !== undefined) lines.push(`  + documented: ${stringify(f.expected)}`);
  if (f.curl) lines.push(`  reproduce: ${f.curl}`);
  if (f.cassette) lines.push(`  cassette: ${f.cassette} (sl-conformance replay)`);
  if (f.replay) lines.push(`  replay: ${f.replay}`);
  else if (f.seed !== undefined) lines.push(`  replay: --seed ${f.seed}${f.path ? ` --fc-path ${f.path}` : ""} --only ${f.check}`);
  return lines.join("\n");
}

function stringify(v: unknown): string {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s && s.length > 600 ? s.slice(0, 600) + "…" : String(s);
}

export function summary(report: RunReport): string {
  const out: string[] = [];
  const failed = report.results.filter((r) => r.outcome === "fail" || r.outcome === "error");
  if (failed.length) {
    out.push("", "Failures:");
    for (const r of failed) {
      for (const f of r.failures.slice(0, 10)) out.push(formatFailure(f));
      if (r.failures.length > 10) out.push(dim(`  … and ${r.failures.length - 10} more failure(s) of ${r.id}`));
      if (r.error) out.push(red(`✗ ${r.id} crashed: ${r.error}`));
    }
  }
  const warned = report.results.filter((r) => r.warnings.length);
  if (warned.length) {
    out.push("", "Warnings (lenient rules):");
    for (const r of warned) for (const w of r.warnings.slice(0, 5)) out.push(yellow(`! ${w}`));
  }
  out.push("", "| Check | Result | Failures | Warnings | Requests | ms |", "|---|---|---|---|---|---|");
  for (const r of report.results) out.push(`| ${r.id} | ${r.outcome}${r.skipReason ? ` (${r.skipReason})` : ""} | ${r.failures.length} | ${r.warnings.length} | ${r.requests} | ${r.ms} |`);
  const count = (o: string) => report.results.filter((r) => r.outcome === o).length;
  const ledger = report.ledger.summary();
  out.push(
    "",
    `run ${report.runId}: ${count("pass")} passed, ${count("fail") + count("error")} failed, ${count("skip")} skipped; ${report.requestCount} requests (${Object.entries(report.requestsByKey).map(([k, v]) => `${k} ${v}`).join(", ")}); ${report.unplanned429} unplanned 429; ${(report.ms / 1000).toFixed(1)}s; committed spend $${report.spentUsd}; coverage ${ledger.exercised}/${ledger.pairs} operation×status pairs`,
  );
  return out.join("\n");
}
