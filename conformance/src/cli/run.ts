// The main command once its options are read: check the settings, run the
// kit (or the differential run) with a live progress line, print and write
// what it found, and decide the exit code (0 conformant, 1 findings or too
// little coverage, 2 usage, 130 Ctrl-C).
import { catalogueMarkdown } from "../catalogue.ts";
import type { Contract } from "../contract.ts";
import { runDifferential, type DifferentialRun } from "../differential/run.ts";
import { allChecks } from "../registry.ts";
import { progressLine } from "../reporters/console.ts";
import { progressEnabled, progressWriter } from "../reporters/progress.ts";
import { runKit, selectChecks, type RunHooks, type RunReport } from "../runner.ts";
import { seedLedgerMarkdown } from "../seed-ledger/report.ts";
import type { Settings } from "../types.ts";
import { settle } from "../verdict.ts";
import { coverageVerdict } from "./coverage.ts";
import { writeOutputs } from "./outputs.ts";
import type { CliOptions } from "./program.ts";
import { settingsFrom } from "./settings.ts";
import { loadContract, validateSettings } from "./validate.ts";

export async function runFromOptions(o: CliOptions, configFile: string | undefined): Promise<number> {
  if (o.catalogue) {
    process.stdout.write(catalogueMarkdown());
    return 0;
  }
  if (o.seedCoverage) {
    process.stdout.write(seedLedgerMarkdown());
    return 0;
  }
  if (o.list) {
    listChecks();
    return 0;
  }
  const settings = settingsFrom(o);
  validateSettings(settings);
  const contract = loadContract(settings);
  const log = (l: string) => (settings.quiet ? undefined : console.log(l));
  const stop = stopOnCtrlC();
  const { report, diff } = await runWithProgress(settings, contract, configFile, stop.signal, log);
  writeOutputs(settings, report, diff, o.writeDeviations, log);
  const ok =
    report.results.every((r) => r.outcome === "pass" || r.outcome === "skip") &&
    report.results.some((r) => r.outcome === "pass") &&
    report.verdict.ok;
  const cov = coverageVerdict(report, settings.minCoverage);
  if (cov) console.log(cov.line);
  return stop.interrupted() ? 130 : ok && (!cov || cov.ok) ? 0 : 1;
}

export function usage(msg: string): number {
  console.error(`sl-conformance: ${msg}`);
  return 2;
}

function listChecks(): void {
  for (const c of allChecks)
    console.log(
      `${c.id.padEnd(36)} ${c.severity.padEnd(9)} ${c.profiles.join(",").padEnd(24)} mock:${c.mock ? "yes" : "no "} ${c.rule}`,
    );
}

/** Ctrl-C stops after the current request; the run still cleans up what it created. */
function stopOnCtrlC(): { signal: AbortSignal; interrupted: () => boolean } {
  let interrupted = false;
  const stop = new AbortController();
  process.once("SIGINT", () => {
    interrupted = true;
    stop.abort();
    console.error("interrupted: finishing the current request, then cleaning up what the kit created");
  });
  return { signal: stop.signal, interrupted: () => interrupted };
}

/** The run, a banner once the preflight passed, one line per finished check and the live progress line on stderr. */
async function runWithProgress(
  settings: Settings,
  contract: Contract,
  configFile: string | undefined,
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<{ report: RunReport; diff?: DifferentialRun }> {
  const selected = selectChecks(settings, contract);
  const live = progressEnabled(settings.quiet);
  const clearProgress = () => live && process.stderr.write("\r\u001b[2K");
  const banner = () =>
    log(
      `sl-conformance → ${settings.baseUrl} profile=${settings.profile} seed=${settings.seed}${settings.budgetUsd !== undefined ? ` budget=$${settings.budgetUsd}` : ""} checks=${selected.filter((s) => !s.skip).length}/${selected.length} contract ops=${contract.operations.length}${configFile ? ` config=${configFile}` : ""}`,
    );
  const hooks: RunHooks = {
    onStart: banner,
    log: (l) => {
      clearProgress();
      log(l);
    },
    signal,
    onProgress: live ? progressWriter() : undefined,
    onCheckEnd: (c, r) => {
      clearProgress();
      // the line shows the check at the run's --level and with its deviations (the final verdict recomputes the same)
      settle([r], settings);
      log(progressLine(c, r));
    },
  };
  const out = settings.differential ? await differential(settings, hooks) : { report: await runKit(settings, hooks) };
  clearProgress();
  return out;
}

async function differential(
  settings: Settings,
  hooks: RunHooks,
): Promise<{ report: RunReport; diff: DifferentialRun }> {
  const diff = await runDifferential(
    settings,
    { referenceUrl: settings.referenceUrl, referenceKeysFile: settings.referenceKeys },
    hooks,
  );
  return { report: diff.deployment, diff };
}
