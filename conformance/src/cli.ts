#!/usr/bin/env node
// sl-conformance: check a deployment of the Social Listening API against the contract.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Command, CommanderError, Option } from "commander";
import { runKit, selectChecks, type RunHooks, type RunReport } from "./runner.ts";
import { UsageError, checkBaseUrl } from "./preflight.ts";
import { progressEnabled, progressWriter } from "./reporters/progress.ts";
import { allChecks } from "./registry.ts";
import { catalogueMarkdown } from "./catalogue.ts";
import { Contract } from "./contract.ts";
import { progressLine, summary } from "./reporters/console.ts";
import { writeReports } from "./reporters/files.ts";
import { writeCassettes } from "./cassettes/write.ts";
import { replayMain } from "./cassettes/replay-cli.ts";
import { differentialText, runDifferential, writeDifferential, type DifferentialRun } from "./differential/run.ts";
import { PROFILES, type Profile, type Settings } from "./types.ts";
import { DeviationsError, loadDeviations, writeDeviations } from "./deviations.ts";
import { settle } from "./verdict.ts";
import { withTargetOptions } from "./target-options.ts";

export function buildProgram(): Command {
  const program = withTargetOptions(new Command("sl-conformance"))
    .description("Check a deployment of the Social Listening Research Service against its contract, rule by rule.")
    .addOption(
      new Option(
        "--profile <profile>",
        "readonly never creates or charges; standard creates and deletes; full also runs long scenarios",
      )
        .choices(PROFILES)
        .default("standard")
        .env("SLK_PROFILE"),
    )
    .addOption(
      new Option("--budget <usd>", "maximum US dollars the kit may commit (checked before every chargeable call)").env(
        "SLK_BUDGET",
      ),
    )
    .addOption(
      new Option("--only <check...>", "run only these checks (ids as in the catalogue; comma or space separated)").env(
        "SLK_ONLY",
      ),
    )
    .addOption(
      new Option(
        "--report <dir>",
        "write junit.xml, coverage.json, coverage.md, results.json, summary.md and report.html (self-contained, failures first) here",
      ).env("SLK_REPORT_DIR"),
    )
    .addOption(
      new Option("--seed <n>", "fast-check seed (printed on every run; pass it back to replay)").env("SLK_SEED"),
    )
    .addOption(
      new Option("--fc-path <path>", "fast-check counterexample path to replay (with --seed and --only)").env(
        "SLK_FC_PATH",
      ),
    )
    .addOption(
      new Option("--num-runs <n>", "fast-check runs per property (on top of the deterministic sweep of every bound)")
        .default("5")
        .env("SLK_NUM_RUNS"),
    )
    .addOption(
      new Option("--mock", "the target is a stateless mock (Prism): run only mock-applicable checks").env("SLK_MOCK"),
    )
    .addOption(
      new Option(
        "--validating-proxy",
        "the target is a contract-validating proxy (prism proxy --errors): skip checks that send contract-invalid requests",
      ).env("SLK_VALIDATING_PROXY"),
    )
    .addOption(
      new Option("--run-timeout <seconds>", "how long to wait for asynchronous runs to settle")
        .default("120")
        .env("SLK_RUN_TIMEOUT"),
    )
    .addOption(
      new Option(
        "--contract <path>",
        "OpenAPI document to check against (default: the package's generated/openapi.json)",
      ).env("SLK_CONTRACT"),
    )
    .addOption(
      new Option(
        "--operations <scope...>",
        "check only these operations: path prefixes (/v1/datasets) or operationId groups (Account); default all",
      ).env("SLK_OPERATIONS"),
    )
    .addOption(
      new Option("--mcp-url <url>", "MCP endpoint, trailing slash included (default: <base-url>/mcp/)").env(
        "SLK_MCP_URL",
      ),
    )
    .addOption(
      new Option(
        "--require-groups",
        "fail the run when the served-groups preflight finds a group of the contract not served (default: one warning per group, its checks skipped)",
      ).env("SLK_REQUIRE_GROUPS"),
    )
    .addOption(
      new Option(
        "--request-timeout <seconds>",
        "how long one request may take, answer included, before it is reported as no answer",
      )
        .default("30")
        .env("SLK_REQUEST_TIMEOUT"),
    )
    .addOption(
      new Option(
        "--level <level>",
        "contract: every strict decision of the contract fails; seed: only the seed's own rules fail, decisions on points the seed leaves open are warnings naming the decision",
      )
        .choices(["contract", "seed"])
        .default("contract")
        .env("SLK_LEVEL"),
    )
    .addOption(
      new Option(
        "--deviations <file>",
        "accepted deviations (JSON: decision or check, optional operation, reason, expires); a covered finding is reported as accepted, an entry that matches nothing fails the run as stale",
      ).env("SLK_DEVIATIONS"),
    )
    .addOption(
      new Option(
        "--write-deviations <file>",
        "after the run, write today's contract-decision failures to this file as a starting deviations file",
      ).env("SLK_WRITE_DEVIATIONS"),
    )
    .addOption(
      new Option(
        "--differential",
        "run the same checks with the same seed against the reference server too (started in-process when the kit runs from the repository) and report per step where the two differ",
      ).env("SLK_DIFFERENTIAL"),
    )
    .addOption(
      new Option(
        "--reference-url <url>",
        "--differential against this running reference instead of one started in-process (an installed kit does not carry the reference)",
      ).env("SLK_REFERENCE_URL"),
    )
    .addOption(
      new Option(
        "--reference-keys <file>",
        "--differential: the reference's demo-keys.json (default: the repository's fixtures/demo-keys.json)",
      ).env("SLK_REFERENCE_KEYS"),
    )
    .addOption(
      new Option(
        "--min-coverage <pct>",
        "exit 1 when less than this percentage of documented operation × status pairs was exercised",
      ).env("SLK_MIN_COVERAGE"),
    )
    .addOption(
      new Option(
        "--config <path>",
        "settings file (JSON, keys as the long flags: base-url, profile, budget, …); default ./sl-conformance.config.json when present",
      ).env("SLK_CONFIG"),
    )
    .addOption(new Option("--list", "print the check ids and rules and exit"))
    .addOption(new Option("--catalogue", "print the catalogue as a Markdown table and exit"))
    .addOption(new Option("-q, --quiet", "no progress lines"))
    .addOption(new Option("-v, --verbose", "print every request"))
    .addHelpText(
      "after",
      "\nSend a finding's HAR cassette (<report>/cassettes/*.har) again and judge the same check:\n  sl-conformance replay FILE.har --base-url <url> --api-key <key> [other keys] [--no-rerun]   (replay --help)",
    );
  return program;
}

export function settingsFrom(o: Record<string, any>): Settings {
  const only = o.only
    ? (Array.isArray(o.only) ? o.only : [o.only]).flatMap((s: string) => s.split(/[ ,]+/)).filter(Boolean)
    : undefined;
  const seed = o.seed !== undefined ? Number(o.seed) : Math.floor(Math.random() * 2 ** 31);
  return {
    baseUrl: String(o.baseUrl ?? ""),
    keys: { main: o.apiKey, foreign: o.foreignKey, second: o.secondSeatKey, poor: o.poorKey },
    profile: o.profile as Profile,
    budgetUsd: o.budget !== undefined ? Number(o.budget) : undefined,
    only,
    reportDir: o.report,
    seed,
    mock: flag(o.mock),
    validatingProxy: flag(o.validatingProxy),
    contractPath: o.contract,
    operations: o.operations
      ? (Array.isArray(o.operations) ? o.operations : [o.operations])
          .flatMap((s: string) => s.split(/[ ,]+/))
          .filter(Boolean)
      : undefined,
    numRuns: Number(o.numRuns ?? 5),
    fcPath: o.fcPath,
    runTimeoutMs: Number(o.runTimeout ?? 120) * 1000,
    quiet: !!o.quiet,
    verbose: !!o.verbose,
    mcpUrl: o.mcpUrl,
    bearerToken: o.bearerToken,
    minCoverage: o.minCoverage !== undefined ? Number(o.minCoverage) : undefined,
    differential: flag(o.differential),
    referenceUrl: o.referenceUrl,
    referenceKeys: o.referenceKeys,
    requireGroups: flag(o.requireGroups),
    requestTimeoutMs: Number(o.requestTimeout ?? 30) * 1000,
    level: o.level === "seed" ? "seed" : "contract",
    deviationsFile: o.deviations,
  };
}

export const CONFIG_FILE = "sl-conformance.config.json";

/**
 * Layer a config file under the flags and SLK_* variables: a value from the
 * file is used only where neither a flag nor a variable set one.
 */
export function applyConfig(program: Command, path: string | undefined, cwd = process.cwd()): string | undefined {
  const file = path ?? (existsSync(resolve(cwd, CONFIG_FILE)) ? resolve(cwd, CONFIG_FILE) : undefined);
  if (!file) return undefined;
  let cfg: Record<string, unknown>;
  try {
    cfg = JSON.parse(readFileSync(resolve(cwd, file), "utf8"));
  } catch (e) {
    throw new UsageError(`cannot read config ${file}: ${(e as Error).message}`);
  }
  if (typeof cfg !== "object" || cfg === null || Array.isArray(cfg))
    throw new UsageError(`config ${file} must hold a JSON object`);
  const names = new Set(program.options.map((opt) => opt.attributeName()));
  for (const [k, v] of Object.entries(cfg)) {
    if (k === "$schema" || k === "$comment") continue;
    const name = k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (!names.has(name) || ["config", "list", "catalogue"].includes(name))
      throw new UsageError(`config ${file}: unknown setting "${k}" (see --help for the long flag names)`);
    const src = program.getOptionValueSource(name);
    if (src === "cli" || src === "env") continue;
    program.setOptionValueWithSource(
      name,
      Array.isArray(v) ? v.map(String) : typeof v === "boolean" ? v : String(v),
      "config",
    );
  }
  return file;
}

export async function main(argv = process.argv): Promise<number> {
  if (argv[2] === "replay") return replayMain(argv.slice(3));
  const program = buildProgram();
  program.exitOverride();
  program.configureOutput({
    writeErr: (str) => process.stderr.write(str.startsWith("error:") ? `sl-conformance: ${str.slice(7)}` : str),
  });
  try {
    program.parse(argv);
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    throw e;
  }
  try {
    const configFile = applyConfig(program, program.opts().config);
    return await runFromOptions(program.opts(), configFile);
  } catch (e) {
    if (e instanceof UsageError) return usage(e.message);
    throw e;
  }
}

async function runFromOptions(o: Record<string, any>, configFile: string | undefined): Promise<number> {
  if (o.catalogue) {
    process.stdout.write(catalogueMarkdown());
    return 0;
  }
  if (o.list) {
    for (const c of allChecks)
      console.log(
        `${c.id.padEnd(36)} ${c.severity.padEnd(9)} ${c.profiles.join(",").padEnd(24)} mock:${c.mock ? "yes" : "no "} ${c.rule}`,
      );
    return 0;
  }
  const settings = settingsFrom(o);
  if (!settings.baseUrl) return usage("--base-url (or SLK_BASE_URL) is required");
  if (!settings.keys.main) return usage("--api-key (or SLK_API_KEY) is required");
  checkBaseUrl(settings.baseUrl);
  if (settings.budgetUsd !== undefined && !(settings.budgetUsd >= 0))
    return usage("--budget must be a non-negative number of US dollars");
  if (!Number.isInteger(settings.seed)) return usage("--seed must be an integer");
  if (!(settings.requestTimeoutMs! > 0)) return usage("--request-timeout must be a positive number of seconds");
  if (settings.minCoverage !== undefined && !(settings.minCoverage >= 0 && settings.minCoverage <= 100))
    return usage("--min-coverage must be a percentage between 0 and 100");
  const unknown = (settings.only ?? []).filter((id) => !allChecks.some((c) => c.id === id));
  if (unknown.length) return usage(`unknown check id(s): ${unknown.join(", ")} (see --list)`);
  if (settings.deviationsFile) {
    try {
      settings.deviations = loadDeviations(
        resolve(settings.deviationsFile),
        allChecks.map((c) => c.id),
      );
    } catch (e) {
      if (e instanceof DeviationsError) return usage(e.message);
      throw e;
    }
  }
  let contract: Contract;
  try {
    contract = Contract.load(settings.contractPath, settings.operations);
  } catch (e) {
    return usage(
      `cannot load the contract ${settings.contractPath ?? "(bundled)"}: ${(e as Error).message.split("\n")[0]}`,
    );
  }
  if (!contract.operations.length)
    return usage(`--operations ${settings.operations?.join(" ")} matches no operation of the contract`);
  const selected = selectChecks(settings, contract);
  const log = (l: string) => (settings.quiet ? undefined : console.log(l));
  const live = progressEnabled(settings.quiet);
  const showProgress = live ? progressWriter() : undefined;
  const clearProgress = () => live && process.stderr.write("\r\u001b[2K");
  const banner = () =>
    log(
      `sl-conformance → ${settings.baseUrl} profile=${settings.profile} seed=${settings.seed}${settings.budgetUsd !== undefined ? ` budget=$${settings.budgetUsd}` : ""} checks=${selected.filter((s) => !s.skip).length}/${selected.length} contract ops=${contract.operations.length}${configFile ? ` config=${configFile}` : ""}`,
    );
  let interrupted = false;
  const stop = new AbortController();
  process.once("SIGINT", () => {
    interrupted = true;
    stop.abort();
    console.error("interrupted: finishing the current request, then cleaning up what the kit created");
  });
  let diff: DifferentialRun | undefined;
  const run = settings.differential
    ? (s: Settings, h: RunHooks) =>
        runDifferential(s, { referenceUrl: settings.referenceUrl, referenceKeysFile: settings.referenceKeys }, h).then(
          (d) => (diff = d).deployment,
        )
    : runKit;
  const report = await run(settings, {
    onStart: banner,
    log: (l) => {
      clearProgress();
      log(l);
    },
    signal: stop.signal,
    onProgress: showProgress,
    onCheckEnd: (c, r) => {
      clearProgress();
      // the line shows the check at the run's --level and with its deviations (the final verdict recomputes the same)
      settle([r], settings);
      log(progressLine(c, r));
    },
  });
  clearProgress();
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
  if (o.writeDeviations) {
    const written = writeDeviations(
      resolve(o.writeDeviations),
      report.results.flatMap((r) => [...r.failures, ...(r.demoted ?? [])]),
    );
    log(
      `deviations: wrote ${written.length} entr${written.length === 1 ? "y" : "ies"} (one per contract decision that failed) to ${o.writeDeviations}; give each a reason, then pass it with --deviations`,
    );
  }
  const ok =
    report.results.every((r) => r.outcome === "pass" || r.outcome === "skip") &&
    report.results.some((r) => r.outcome === "pass") &&
    report.verdict.ok;
  const cov = coverageVerdict(report, settings.minCoverage);
  if (cov) console.log(cov.line);
  return interrupted ? 130 : ok && (!cov || cov.ok) ? 0 : 1;
}

/** --min-coverage: the share of documented operation × status pairs the run exercised. */
export function coverageVerdict(
  report: Pick<RunReport, "ledger">,
  min: number | undefined,
): { ok: boolean; pct: number; line: string } | undefined {
  if (min === undefined) return undefined;
  const { pairs, exercised } = report.ledger.summary();
  const pct = pairs ? (exercised / pairs) * 100 : 0;
  const ok = pct >= min;
  return {
    ok,
    pct,
    line: `coverage ${pct.toFixed(1)} % of ${pairs} operation × status pairs ${ok ? ">=" : "<"} --min-coverage ${min} %${ok ? "" : ": FAIL"}`,
  };
}

function flag(v: unknown): boolean {
  return v === true || (typeof v === "string" && !["", "0", "false", "no"].includes(v.toLowerCase()));
}

function usage(msg: string): number {
  console.error(`sl-conformance: ${msg}`);
  return 2;
}

const invokedDirectly = process.argv[1] && /cli\.ts$/.test(process.argv[1]);
if (invokedDirectly || process.env.SLK_CLI_ENTRY === "1") {
  main().then(
    (code) => process.exit(code),
    (e) => {
      // an unexpected crash of the kit itself: one line, the stack only with SLK_DEBUG
      console.error(`sl-conformance: ${(e as Error)?.message ?? e}`);
      if (process.env.SLK_DEBUG) console.error(e);
      process.exit(2);
    },
  );
}
