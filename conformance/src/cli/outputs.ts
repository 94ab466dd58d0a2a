// What the main command prints and writes once the run is over: the summary,
// the report files, the cassettes, the differential and a starting
// deviations file.
import { resolve } from "node:path";
import { writeCassettes } from "../cassettes/write.ts";
import { writeDeviations } from "../deviations.ts";
import { differentialText, writeDifferential, type DifferentialRun } from "../differential/run.ts";
import { summary } from "../reporters/console.ts";
import { writeReports } from "../reporters/files.ts";
import type { RunReport } from "../runner.ts";
import type { Settings } from "../types.ts";

export function writeOutputs(
  settings: Settings,
  report: RunReport,
  diff: DifferentialRun | undefined,
  deviationsTo: string | undefined,
  log: (line: string) => void,
): void {
  // cassettes first: each failure then names its file in the console and in every report
  const cassettes = settings.reportDir ? writeCassettes(settings.reportDir, report) : [];
  console.log(summary(report));
  if (settings.reportDir) log(`reports: ${writeReports(settings.reportDir, report).join(", ")}`);
  if (diff) {
    console.log(differentialText(diff));
    if (settings.reportDir) log(`differential: ${writeDifferential(settings.reportDir, diff).join(", ")}`);
  }
  if (cassettes.length)
    log(
      `cassettes: ${cassettes.length} HAR file(s) in ${settings.reportDir}/cassettes (keys redacted); re-send one with: sl-conformance replay <file> --base-url <url> --api-key …`,
    );
  if (deviationsTo) writeStartingDeviations(report, deviationsTo, log);
}

/** --write-deviations: one entry per contract decision that failed, for the user to give reasons. */
function writeStartingDeviations(report: RunReport, file: string, log: (line: string) => void): void {
  const written = writeDeviations(
    resolve(file),
    report.results.flatMap((r) => [...r.failures, ...(r.demoted ?? [])]),
  );
  log(
    `deviations: wrote ${written.length} entr${written.length === 1 ? "y" : "ies"} (one per contract decision that failed) to ${file}; give each a reason, then pass it with --deviations`,
  );
}
