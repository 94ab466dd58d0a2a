// --hooks <module>: the user's own setup and teardown around each check (a
// gateway token to refresh, a tenant to reset, a log to mark). The module may
// export, by name or on its default export:
//
//   beforeCheck(check, run)          awaited before an active check runs;
//                                    return { skip: "why" } to skip it, throw
//                                    to skip it with the error as the reason
//   afterCheck(check, result, run)   awaited after it ran (also after a skip
//                                    by beforeCheck); a throw becomes a warning
//                                    of the check
//
// `check` is { id, rule, section, severity, phase, profiles }; `result` is
// { outcome, failures (titles), warnings, skipReason, unexercised, ms };
// `run` is { baseUrl, profile, level, seed }. Plain data,
// copies: a hook cannot change what the kit judges. Response checks (they
// only read recorded traffic) get no hooks; checks of the anonymous lane run
// alongside the keyed ones, so their hooks may overlap another check.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { UsageError } from "../preflight.ts";
import type { RunHooks } from "../run/hooks.ts";
import type { ActiveCheck, CheckResult, Settings } from "../types.ts";

export interface HookCheck {
  id: string;
  rule: string;
  section: string;
  severity: string;
  phase: string;
  profiles: string[];
}

export interface HookResult {
  outcome: CheckResult["outcome"];
  failures: string[];
  warnings: string[];
  skipReason?: string;
  unexercised: string[];
  ms: number;
}

export interface HookRun {
  baseUrl: string;
  profile: string;
  level: string;
  seed: number;
}

export interface UserHooks {
  beforeCheck?(check: HookCheck, run: HookRun): unknown;
  afterCheck?(check: HookCheck, result: HookResult, run: HookRun): unknown;
}

const NAMES = ["beforeCheck", "afterCheck"] as const;

/** Import the module (a path, relative to the working directory) and take its hooks; a usage error when it has none. */
export async function loadUserHooks(spec: string, cwd = process.cwd()): Promise<UserHooks> {
  const file = resolve(cwd, spec);
  if (!existsSync(file)) throw new UsageError(`--hooks ${spec}: no such file`);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (e) {
    throw new UsageError(`--hooks ${spec}: cannot load it: ${(e as Error).message.split("\n")[0]}`);
  }
  const from = (name: string) => mod[name] ?? (mod.default as Record<string, unknown> | undefined)?.[name];
  const hooks: UserHooks = {};
  for (const name of NAMES) {
    const fn = from(name);
    if (fn === undefined) continue;
    if (typeof fn !== "function") throw new UsageError(`--hooks ${spec}: ${name} is not a function`);
    hooks[name] = fn as never;
  }
  if (!hooks.beforeCheck && !hooks.afterCheck)
    throw new UsageError(`--hooks ${spec}: exports neither beforeCheck nor afterCheck`);
  return hooks;
}

const checkOf = (c: ActiveCheck): HookCheck => ({
  id: c.id,
  rule: c.rule,
  section: c.section,
  severity: c.severity,
  phase: c.phase,
  profiles: [...c.profiles],
});

const resultOf = (r: CheckResult): HookResult => ({
  outcome: r.outcome,
  failures: r.failures.map((f) => f.title),
  warnings: [...r.warnings],
  skipReason: r.skipReason,
  unexercised: [...(r.unexercised ?? [])],
  ms: r.ms,
});

/** The run's hooks that call the user's: a returned `{ skip }` or a throw of beforeCheck skips the check. */
export function runHooksOf(user: UserHooks, settings: Settings): Pick<RunHooks, "beforeCheck" | "afterCheck"> {
  const run: HookRun = {
    baseUrl: settings.baseUrl,
    profile: settings.profile,
    level: settings.level ?? "contract",
    seed: settings.seed,
  };
  return {
    beforeCheck: user.beforeCheck
      ? async (check) => {
          const answer = (await user.beforeCheck!(checkOf(check), { ...run })) as { skip?: unknown } | undefined;
          return answer && typeof answer.skip === "string"
            ? `skipped by --hooks beforeCheck: ${answer.skip}`
            : undefined;
        }
      : undefined,
    afterCheck: user.afterCheck
      ? async (check, result) => {
          await user.afterCheck!(checkOf(check), resultOf(result), { ...run });
        }
      : undefined,
  };
}
