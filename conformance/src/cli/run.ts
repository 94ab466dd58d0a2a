// The main command once its options are read: check the settings, price the
// run (--plan; the default budget), run the kit (or the differential run)
// with a live progress line and one line per check, print and write what it
// found, and decide the exit code (0 conformant, 1 findings or too little
// coverage, 2 usage, 130 Ctrl-C, 143 SIGTERM).
import { catalogueMarkdown } from "../catalogue.ts";
import type { Contract } from "../contract.ts";
import { HOW_TO_POINT, inProcessAvailable } from "../differential/reference.ts";
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
import { excludeOf, settingsFrom } from "./settings.ts";
import { loadContract, validateSettings } from "./validate.ts";
import { defaultBudgetOf, planOf, planText, readPrices, type Plan } from "./cost.ts";
import { loadUserHooks, runHooksOf } from "./user-hooks.ts";
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
  validateSettings(settings, excludeOf(o));
  const contract = loadContract(settings);
  const referencePort = portOf(o.referencePort);
  const userHooks = o.hooks ? runHooksOf(await loadUserHooks(o.hooks), settings) : {};
  const log = (l: string) => (settings.quiet ? undefined : console.log(l));
  if (o.plan) {
    const plan = planOf(settings, contract, await readPrices(settings, contract));
    console.log(planText(plan, settings, o.budget));
    return 0;
  }
  // a usage error needs no request: an installed kit without the reference says so before pricing the run
  if (settings.differential && !settings.referenceUrl && !inProcessAvailable())
    throw new UsageError(`--differential: ${HOW_TO_POINT}`);
  const budgetNote = await applyDefaultBudget(settings, contract, o.budget);
  const stop = stopOnSignals();
  const { report, diff } = await runWithProgress(settings, contract, {
    configFile,
    signal: stop.signal,
    log,
    referencePort,
    budgetNote,
    userHooks,
  });
  const ok =
    report.results.every((r) => r.outcome === "pass" || r.outcome === "skip") &&
    report.results.some((r) => r.outcome === "pass") &&
    report.verdict.ok;
  const cov = coverageVerdict(report, settings.minCoverage);
  writeOutputs(settings, report, diff, o.writeDeviations, log, cov ? [cov.line] : []);
  return stop.exitCode() ?? (ok && (!cov || cov.ok) ? 0 : 1);
}

/**
 * A chargeable profile runs under a budget: --budget's, or by default the
 * plan's worst case for the selected checks at the deployment's prices plus
 * a margin (cli/cost.ts). --budget none lifts it. Returns how the banner
 * names it.
 */
async function applyDefaultBudget(
  settings: Settings,
  contract: Contract,
  given: string | undefined,
): Promise<string | undefined> {
  if (settings.profile === "readonly" || settings.mock) return undefined;
  if (given !== undefined) return settings.budgetUsd === undefined ? "budget=none (--budget none)" : undefined;
  let plan: Plan;
  try {
    plan = planOf(settings, contract, await readPrices(settings, contract));
  } catch (e) {
    throw new UsageError(
      `cannot set the default budget (${(e as Error).message.split("\n")[0]}): pass --budget <usd>, or --budget none to run without one`,
    );
  }
  settings.budgetUsd = defaultBudgetOf(plan);
  // negative cases a deployment accepts keep at most the room of one: the rest (the plan + 10%) stays the plan's
  settings.negativeRoomUsd = plan.refusalRoomUsd.toNumber();
  // the two reads went around the run's own rate limiter: let their window pass before the run starts
  await new Promise((r) => setTimeout(r, 1100));
  return `budget=$${settings.budgetUsd.toFixed(2)} (default: what the selected checks commit, $${plan.worstUsd.toDecimalPlaces(2, 0).toFixed(2)} at this deployment's prices, with room for one refused negative case, $${plan.refusalRoomUsd.toDecimalPlaces(2, 0).toFixed(2)}, + 10%; negative cases the deployment accepts keep at most that room; --plan lists it; --budget none lifts it)`;
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

interface RunOptions {
  configFile: string | undefined;
  signal: AbortSignal;
  log: (line: string) => void;
  referencePort: number;
  budgetNote: string | undefined;
  userHooks: Pick<RunHooks, "beforeCheck" | "afterCheck">;
}

/** The run, a banner once the preflight passed, one line per finished check and the live progress line on stderr. */
async function runWithProgress(
  settings: Settings,
  contract: Contract,
  o: RunOptions,
): Promise<{ report: RunReport; diff?: DifferentialRun }> {
  const { log } = o;
  const selected = selectChecks(settings, contract);
  const live = progressEnabled(settings.quiet);
  const clearProgress = () => live && process.stderr.write("\r\u001b[2K");
  const budget =
    o.budgetNote ?? (settings.budgetUsd !== undefined ? `budget=$${settings.budgetUsd.toFixed(2)}` : undefined);
  const banner = () =>
    log(
      `sl-conformance → ${settings.baseUrl} profile=${settings.profile} level=${settings.level ?? "contract"} seed=${settings.seed} checks=${selected.filter((s) => !s.skip).length}/${selected.length} contract ops=${contract.operations.length}${configFile(o)}${budget ? `\n${budget}` : ""}`,
    );
  const hooks: RunHooks = {
    onStart: banner,
    log: (l) => {
      clearProgress();
      log(l);
    },
    signal: o.signal,
    onProgress: live ? progressWriter() : undefined,
    ...o.userHooks,
    onCheckEnd: (c, r, spend) => {
      clearProgress();
      // the line shows the check at the run's --level and with its deviations (the final verdict recomputes the same)
      settle([r], settings);
      log(progressLine(c, r, { verbose: settings.verbose }, spend));
    },
  };
  const out = settings.differential
    ? await differential(settings, hooks, o.referencePort)
    : { report: await runKit(settings, hooks) };
  clearProgress();
  return out;
}

const configFile = (o: RunOptions) => (o.configFile ? ` config=${o.configFile}` : "");

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
