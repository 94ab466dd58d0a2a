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
import { UsageError } from "../preflight.ts";

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
  const stop = stopOnSignals();
  const referencePort = portOf(o.referencePort);
  const { report, diff } = await runWithProgress(settings, contract, configFile, stop.signal, log, referencePort);
  writeOutputs(settings, report, diff, o.writeDeviations, log);
  const ok =
    report.results.every((r) => r.outcome === "pass" || r.outcome === "skip") &&
    report.results.some((r) => r.outcome === "pass") &&
    report.verdict.ok;
  const cov = coverageVerdict(report, settings.minCoverage);
  if (cov) console.log(cov.line);
  return stop.exitCode() ?? (ok && (!cov || cov.ok) ? 0 : 1);
}

/** --reference-port: 0 (a free port) unless given. */
function portOf(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535)
    throw new UsageError(`--reference-port ${raw}: expected a whole number between 0 and 65535 (0: a free port)`);
  return port;
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

/**
 * Ctrl-C (SIGINT) or SIGTERM stops after the current request; the run still
 * cleans up what it created, and an in-process --differential reference is
 * closed, before the kit exits 130 (SIGINT) or 143 (SIGTERM). A second signal
 * exits at once.
 */
function stopOnSignals(): { signal: AbortSignal; exitCode: () => number | undefined } {
  let code: number | undefined;
  const stop = new AbortController();
  for (const [name, exit] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)
    process.on(name, () => {
      if (code !== undefined) process.exit(code);
      code = exit;
      stop.abort();
      console.error(
        `${name === "SIGINT" ? "interrupted" : "terminated"}: finishing the current request, then cleaning up what the kit created (send it again to stop at once)`,
      );
    });
  return { signal: stop.signal, exitCode: () => code };
}

/** The run, a banner once the preflight passed, one line per finished check and the live progress line on stderr. */
async function runWithProgress(
  settings: Settings,
  contract: Contract,
  configFile: string | undefined,
  signal: AbortSignal,
  log: (line: string) => void,
  referencePort: number,
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
  const out = settings.differential
    ? await differential(settings, hooks, referencePort)
    : { report: await runKit(settings, hooks) };
  clearProgress();
  return out;
}

async function differential(
  settings: Settings,
  hooks: RunHooks,
  referencePort: number,
): Promise<{ report: RunReport; diff: DifferentialRun }> {
  const diff = await runDifferential(
    settings,
    {
      referenceUrl: settings.referenceUrl,
      referenceKeysFile: settings.referenceKeys,
      referenceEnv: { PORT: String(referencePort) },
    },
    hooks,
  );
  return { report: diff.deployment, diff };
}
