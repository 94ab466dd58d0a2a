// What the main command prints and writes once the run is over: the report
// files, the cassettes, the differential, a starting deviations file, and
// last the summary, whose final line is the verdict.
import { resolve } from "node:path";
import { writeCassettes } from "../cassettes/write.ts";
import { writeDeviations } from "../deviations.ts";
import { differentialText, writeDifferential, type DifferentialRun } from "../differential/run.ts";
import { summary, type ConsoleOptions, type NextSteps } from "../reporters/console.ts";
import { writeReports } from "../reporters/files.ts";
import type { RunReport } from "../runner.ts";
import type { Settings } from "../types.ts";

export function writeOutputs(
  settings: Settings,
  report: RunReport,
  diff: DifferentialRun | undefined,
  deviationsTo: string | undefined,
  log: (line: string) => void,
  extra: string[] = [],
): void {
  // cassettes first: each failure then names its file in every report
  const cassettes = settings.reportDir ? writeCassettes(settings.reportDir, report) : [];
  const reports = settings.reportDir ? writeReports(settings.reportDir, report) : [];
  if (reports.length) log(`reports: ${reports.join(", ")}`);
  if (diff) {
    log(differentialText(diff));
    if (settings.reportDir) log(`differential: ${writeDifferential(settings.reportDir, diff).join(", ")}`);
  }
  if (cassettes.length)
    log(`cassettes: ${cassettes.length} HAR file(s) in ${settings.reportDir}/cassettes (keys and -H values redacted)`);
  if (deviationsTo) writeStartingDeviations(report, deviationsTo, log);
  const o: ConsoleOptions = { quiet: settings.quiet, verbose: settings.verbose };
  console.log(
    summary(report, {
      ...o,
      extra,
      next: nextSteps(settings, report, reports, cassettes.length ? `${settings.reportDir}/cassettes` : undefined),
    }),
  );
}

/** The command that runs the failing checks again with this run's seed and scope (keys as before). */
export function replayCommand(settings: Settings, report: RunReport): string {
  const failed = report.results.filter((r) => r.outcome === "fail" || r.outcome === "error").map((r) => r.id);
  const parts = ["sl-conformance", "--base-url", settings.baseUrl, "--api-key", "…"];
  if (settings.profile !== "standard") parts.push("--profile", settings.profile);
  if (settings.level === "seed") parts.push("--level", "seed");
  if (settings.contractPath) parts.push("--contract", settings.contractPath);
  if (settings.operations?.length) parts.push("--operations", settings.operations.join(","));
  if (settings.headers && Object.keys(settings.headers).length) parts.push("-H", "…");
  parts.push("--seed", String(settings.seed), "--only", failed.join(","));
  return parts.join(" ");
}

function nextSteps(settings: Settings, report: RunReport, reports: string[], cassettes: string | undefined): NextSteps {
  const pick = reports.filter((f) => /summary\.md$|report\.html$/.test(f));
  return { replay: replayCommand(settings, report), reports: pick.length ? pick : undefined, cassettes };
}

/** --write-deviations: one entry per contract decision that failed, for the user to give reasons. */
function writeStartingDeviations(report: RunReport, file: string, log: (line: string) => void): void {
  const written = writeDeviations(
    resolve(file),
    report.results.flatMap((r) => [...r.failures, ...(r.demoted ?? [])]),
  );
  log(
    `deviations: wrote ${written.length} entr${written.length === 1 ? "y" : "ies"} (one per contract decision that failed) to ${file}; replace each "TODO" reason with yours (a placeholder reason is refused), then pass it with --deviations`,
  );
}
