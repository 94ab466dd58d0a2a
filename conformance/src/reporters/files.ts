// File reporters: JUnit XML, coverage ledger (JSON + Markdown), full results JSON.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import junitModule, { type Builder } from "junit-report-builder";

const junit = ((junitModule as unknown as { default?: Builder }).default ?? junitModule) as Builder;
import type { RunReport } from "../runner.ts";
import { allChecks } from "../registry.ts";
import { formatFailure } from "./console.ts";
import { htmlReport } from "./html.ts";
import { summaryMarkdown } from "./summary-md.ts";
import { describeAttribution } from "../attribution.ts";
import { findingsOf } from "../verdict.ts";

export function writeReports(dir: string, report: RunReport): string[] {
  mkdirSync(dir, { recursive: true });
  const b = junit.newBuilder();
  const suite = b.testSuite().name(`sl-conformance ${report.settings.profile} ${report.settings.baseUrl}`);
  const meta = new Map(allChecks.map((c) => [c.id, c]));
  for (const r of report.results) {
    const c = meta.get(r.id);
    const tc = suite
      .testCase()
      .className(`conformance.${c?.kind ?? "check"}`)
      .name(r.id)
      .time(r.ms / 1000);
    if (r.outcome === "skip") tc.skipped();
    else if (r.outcome === "error") tc.error(r.error?.split("\n")[0] ?? "error", "error", r.error);
    // the failure's type says its kind: seed-rule, or the contract decision's id
    else if (r.outcome === "fail")
      tc.failure(
        `${r.failures.length} failure(s): ${r.failures[0]?.title ?? "failed"}`,
        r.failures.some((f) => f.attribution?.kind === "seed")
          ? "seed-rule"
          : `contract-decision ${[...new Set(r.failures.map((f) => f.attribution?.decision))].join(" ")}`,
      );
    const kind = (k: string) => r.failures.filter((f) => f.attribution?.kind === k).map(formatFailure);
    const text = [
      c ? `rule: ${c.rule}\nsection: ${c.section}` : "",
      kind("seed").length ? `FAILURES: SEED RULES\n${kind("seed").join("\n")}` : "",
      kind("decision").length ? `FAILURES: CONTRACT DECISIONS\n${kind("decision").join("\n")}` : "",
      ...(r.demoted ?? []).map(
        (f) => `warning (contract decision, --level seed): ${f.title}\n  ${describeAttribution(f.attribution!)}`,
      ),
      ...r.warnings.map((w) => `warning: ${w}`),
      ...(r.accepted ?? []).map(
        (f) =>
          `accepted deviation (entry ${f.deviation?.entry}, until ${f.deviation?.expires}: ${f.deviation?.reason}): ${f.title}`,
      ),
      r.skipReason ? `skipped: ${r.skipReason}` : "",
    ]
      .filter(Boolean)
      .join("\n\n");
    if (text) tc.standardOutput(text);
  }
  // an entry of the deviations file that matches nothing any more fails the run: one test case each
  for (const d of report.verdict.deviations.filter((x) => x.stale))
    suite
      .testCase()
      .className("conformance.deviations")
      .name(`deviations entry ${d.entry}: ${d.label}`)
      .failure(`stale: entry ${d.entry} (${d.label}) matches no finding any more; remove it`, "stale-deviation");
  const files = [
    join(dir, "junit.xml"),
    join(dir, "coverage.json"),
    join(dir, "coverage.md"),
    join(dir, "results.json"),
    join(dir, "summary.md"),
    join(dir, "report.html"),
  ];
  b.writeTo(files[0]);
  const { pairs, exercised } = report.ledger.summary();
  writeFileSync(
    files[1],
    JSON.stringify(
      {
        runId: report.runId,
        baseUrl: report.settings.baseUrl,
        profile: report.settings.profile,
        pairs,
        exercised,
        rows: report.ledger.rows(),
      },
      null,
      2,
    ) + "\n",
  );
  writeFileSync(files[2], report.ledger.markdown());
  writeFileSync(
    files[3],
    JSON.stringify(
      {
        runId: report.runId,
        baseUrl: report.settings.baseUrl,
        profile: report.settings.profile,
        seed: report.settings.seed,
        requestCount: report.requestCount,
        requestsByKey: report.requestsByKey,
        ms: report.ms,
        spentUsd: report.spentUsd,
        spend: report.spend,
        cleanup: report.cleanup,
        verdict: report.verdict,
        findings: findingsOf(report.results).map(({ failure: _f, ...f }) => ({
          ...f,
          operation: _f?.operation,
          status: _f?.status,
        })),
        results: report.results,
      },
      null,
      2,
    ) + "\n",
  );
  writeFileSync(files[4], summaryMarkdown(report));
  writeFileSync(files[5], htmlReport(report));
  return files;
}
