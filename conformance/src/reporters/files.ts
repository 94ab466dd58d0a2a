// File reporters: JUnit XML, coverage ledger (JSON + Markdown), full results JSON.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import junitModule, { type Builder } from "junit-report-builder";

const junit = ((junitModule as unknown as { default?: Builder }).default ?? junitModule) as Builder;
import type { RunReport } from "../runner.ts";
import { allChecks } from "../checks/index.ts";
import { formatFailure } from "./console.ts";
import { htmlReport } from "./html.ts";
import { summaryMarkdown } from "./summary-md.ts";

export function writeReports(dir: string, report: RunReport): string[] {
  mkdirSync(dir, { recursive: true });
  const b = junit.newBuilder();
  const suite = b.testSuite().name(`sl-conformance ${report.settings.profile} ${report.settings.baseUrl}`);
  const meta = new Map(allChecks.map((c) => [c.id, c]));
  for (const r of report.results) {
    const c = meta.get(r.id);
    const tc = suite.testCase().className(`conformance.${c?.kind ?? "check"}`).name(r.id).time(r.ms / 1000);
    if (r.outcome === "skip") tc.skipped();
    else if (r.outcome === "error") tc.error(r.error?.split("\n")[0] ?? "error", "error", r.error);
    else if (r.outcome === "fail") tc.failure(r.failures[0]?.title ?? "failed", c?.severity ?? "failure");
    const text = [c ? `rule: ${c.rule}\nsection: ${c.section}` : "", ...r.failures.map(formatFailure), ...r.warnings.map((w) => `warning: ${w}`), r.skipReason ? `skipped: ${r.skipReason}` : ""].filter(Boolean).join("\n\n");
    if (text) tc.standardOutput(text);
  }
  const files = [join(dir, "junit.xml"), join(dir, "coverage.json"), join(dir, "coverage.md"), join(dir, "results.json"), join(dir, "summary.md"), join(dir, "report.html")];
  b.writeTo(files[0]);
  const { pairs, exercised } = report.ledger.summary();
  writeFileSync(files[1], JSON.stringify({ runId: report.runId, baseUrl: report.settings.baseUrl, profile: report.settings.profile, pairs, exercised, rows: report.ledger.rows() }, null, 2) + "\n");
  writeFileSync(files[2], report.ledger.markdown());
  writeFileSync(files[3], JSON.stringify({ runId: report.runId, baseUrl: report.settings.baseUrl, profile: report.settings.profile, seed: report.settings.seed, requestCount: report.requestCount, requestsByKey: report.requestsByKey, ms: report.ms, spentUsd: report.spentUsd, cleanup: report.cleanup, results: report.results }, null, 2) + "\n");
  writeFileSync(files[4], summaryMarkdown(report));
  writeFileSync(files[5], htmlReport(report));
  return files;
}
