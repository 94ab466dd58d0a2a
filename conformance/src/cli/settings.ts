// From the program's options to the run's Settings, and the config file that
// fills in what neither a flag nor an SLK_* variable set.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { UsageError } from "../preflight.ts";
import type { Profile, Settings } from "../types.ts";
import type { CliOptions } from "./program.ts";
import { headersOf } from "../target-options.ts";

export { headersOf };

export function settingsFrom(o: CliOptions): Settings {
  const seed = o.seed !== undefined ? Number(o.seed) : Math.floor(Math.random() * 2 ** 31);
  return {
    baseUrl: String(o.baseUrl ?? ""),
    keys: { main: o.apiKey, foreign: o.foreignKey, second: o.secondSeatKey, poor: o.poorKey },
    profile: o.profile as Profile,
    // "none" lifts the limit; unset, the run decides a default (cli/cost.ts)
    budgetUsd: o.budget !== undefined && o.budget.toLowerCase() !== "none" ? Number(o.budget) : undefined,
    only: o.only ? words(o.only) : undefined,
    headers: o.header ? headersOf(o.header) : undefined,
    reportDir: o.report,
    seed,
    mock: flag(o.mock),
    validatingProxy: flag(o.validatingProxy),
    contractPath: o.contract,
    operations: o.operations ? words(o.operations) : undefined,
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

/** --exclude as given (resolved with --only into the run's selection by validateSettings). */
export function excludeOf(o: CliOptions): string[] | undefined {
  return o.exclude ? words(o.exclude) : undefined;
}

/**
 * -H 'Name: value', repeated (SLK_HEADERS: one per line). A malformed header
 * or one the kit must set itself is a usage error.
 */

/** A list option given once or repeated, each value comma or space separated. */
function words(v: string | string[]): string[] {
  return (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(/[ ,]+/)).filter(Boolean);
}

/** A boolean option: true, or a variable or config value that does not say no. */
function flag(v: unknown): boolean {
  return v === true || (typeof v === "string" && !["", "0", "false", "no"].includes(v.toLowerCase()));
}

export const CONFIG_FILE = "sl-conformance.config.json";

/**
 * Layer a config file under the flags and SLK_* variables: a value from the
 * file is used only where neither a flag nor a variable set one.
 */
export function applyConfig(program: Command, path: string | undefined, cwd = process.cwd()): string | undefined {
  const file = path ?? (existsSync(resolve(cwd, CONFIG_FILE)) ? resolve(cwd, CONFIG_FILE) : undefined);
  if (!file) return undefined;
  const cfg = readConfig(resolve(cwd, file), file);
  const names = new Set(program.options.map((opt) => opt.attributeName()));
  for (const [k, v] of Object.entries(cfg)) {
    if (k === "$schema" || k === "$comment") continue;
    const name = k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (!names.has(name) || ["config", "list", "catalogue", "seedCoverage"].includes(name))
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

function readConfig(path: string, file: string): Record<string, unknown> {
  let cfg: unknown;
  try {
    cfg = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new UsageError(`cannot read config ${file}: ${(e as Error).message}`);
  }
  if (typeof cfg !== "object" || cfg === null || Array.isArray(cfg))
    throw new UsageError(`config ${file} must hold a JSON object`);
  return cfg as Record<string, unknown>;
}
