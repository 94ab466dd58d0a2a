// --differential: the same checks with the same seed against the deployment
// and against the reference, at the same time, then a step-by-step diff.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { curlOf, type KeyRole } from "../http.ts";
import { runKit, type RunHooks, type RunReport } from "../runner.ts";
import type { Settings } from "../types.ts";
import { differential, type DifferentialResult, type StepDiff } from "./align.ts";
import {
  referenceKeysFrom,
  repoDemoKeys,
  startInProcess,
  inProcessAvailable,
  HOW_TO_POINT,
  type ReferenceKeys,
} from "./reference.ts";
import { UsageError } from "../preflight.ts";
import { existsSync } from "node:fs";

export interface DifferentialOptions {
  /** a running reference; default: start the repository's reference in this process */
  referenceUrl?: string;
  /** demo-keys.json of that reference; default: the repository's fixtures/demo-keys.json */
  referenceKeysFile?: string;
  /** settings of the in-process reference, as `npm start` reads them (tests shorten pipeline steps) */
  referenceEnv?: Record<string, string>;
}

export interface DifferentialRun {
  deployment: RunReport;
  reference: RunReport;
  referenceUrl: string;
  inProcess: boolean;
  result: DifferentialResult;
  ms: number;
}

export async function runDifferential(
  settings: Settings,
  opts: DifferentialOptions,
  hooks: RunHooks = {},
): Promise<DifferentialRun> {
  const started = Date.now();
  const keysFile = opts.referenceKeysFile ?? (existsSync(repoDemoKeys) ? repoDemoKeys : undefined);
  if (!keysFile)
    throw new UsageError(
      `--differential: no keys for the reference: pass --reference-keys <demo-keys.json> (${HOW_TO_POINT})`,
    );
  const ref: ReferenceKeys = referenceKeysFrom(keysFile);
  if (!opts.referenceUrl && !inProcessAvailable()) throw new UsageError(`--differential: ${HOW_TO_POINT}`);
  const server = opts.referenceUrl ? undefined : await startInProcess(opts.referenceEnv);
  const referenceUrl = opts.referenceUrl?.replace(/\/+$/, "") ?? server!.baseUrl;
  try {
    // the same roles on both sides, so both runs take the same paths
    const keys: Partial<Record<KeyRole, string>> = {};
    for (const role of Object.keys(settings.keys) as KeyRole[]) if (settings.keys[role]) keys[role] = ref.keys[role];
    const missing = (Object.keys(settings.keys) as KeyRole[]).filter((r) => settings.keys[r] && !keys[r]);
    if (missing.length)
      throw new UsageError(
        `--differential: the reference keys lack the ${missing.join(", ")} role(s) the deployment run uses`,
      );
    const refSettings: Settings = {
      ...settings,
      baseUrl: referenceUrl,
      keys,
      bearerToken: settings.bearerToken ? ref.bearer : undefined,
      mcpUrl: undefined,
      reportDir: undefined,
      quiet: true,
      verbose: false,
    };
    const [deployment, reference] = await Promise.all([
      runKit(settings, hooks),
      runKit(refSettings, { signal: hooks.signal }),
    ]);
    const result = differential(deployment, reference, curlOf);
    return { deployment, reference, referenceUrl, inProcess: !!server, result, ms: Date.now() - started };
  } finally {
    await server?.close();
  }
}

const line = (d: StepDiff) =>
  `${d.check} · ${d.step.length > 160 ? d.step.slice(0, 160) + "…" : d.step}${d.deployment && d.deployment.count > 1 ? ` (×${d.deployment.count})` : ""}`;

/** The console form: one block per differing step. */
export function differentialText(run: DifferentialRun): string {
  const { result } = run;
  const out = [
    "",
    `Differential: deployment ${run.deployment.settings.baseUrl} vs reference ${run.referenceUrl}${run.inProcess ? " (started in-process)" : ""}, seed ${run.deployment.settings.seed}`,
    `  ${result.compared} aligned steps compared; ${result.diffs.length} differ; requests: deployment ${run.deployment.requestCount}, reference ${run.reference.requestCount}; ${(run.ms / 1000).toFixed(1)} s; left out as timing-driven: ${result.leftOut.deployment} / ${result.leftOut.reference} exchanges (planned bursts, retried 429s, cleanup)`,
  ];
  for (const d of result.diffs) {
    out.push(`  ≠ ${line(d)}`);
    for (const x of d.differences) out.push(`      ${x}`);
    if (d.deployment?.curl) out.push(`      reproduce: ${d.deployment.curl}`);
  }
  if (!result.diffs.length)
    out.push(
      "  no difference: every aligned step answered with the same status, error code, shape, states and charges",
    );
  return out.join("\n");
}

/** differential.md (readable) and differential.json (every differing step) in the report folder. */
export function writeDifferential(dir: string, run: DifferentialRun): string[] {
  mkdirSync(dir, { recursive: true });
  const md = [
    "# Differential run",
    "",
    `Deployment \`${run.deployment.settings.baseUrl}\` against the reference \`${run.referenceUrl}\`${run.inProcess ? " (started in-process by the kit)" : ""}, seed ${run.deployment.settings.seed}, profile ${run.deployment.settings.profile}.`,
    "",
    `${run.result.compared} aligned steps compared, **${run.result.diffs.length} differ**. Requests: deployment ${run.deployment.requestCount}, reference ${run.reference.requestCount}; ${(run.ms / 1000).toFixed(1)} s.`,
    "Compared per step: status, error code, response shape (fields and types, not values), run states seen and the balance change between two account reads. Repeated polls are one step; planned rate-limit bursts, retried 429s and cleanup are left out (their count is timing).",
    "",
  ];
  for (const d of run.result.diffs) {
    md.push(`## ${d.check}`, "", "```", d.step, "```", "");
    for (const x of d.differences) md.push(`- ${x}`);
    if (d.deployment?.curl) md.push("", "```sh", d.deployment.curl, "```");
    md.push("");
  }
  const files = [join(dir, "differential.md"), join(dir, "differential.json")];
  writeFileSync(files[0], md.join("\n"));
  writeFileSync(
    files[1],
    JSON.stringify(
      {
        deployment: run.deployment.settings.baseUrl,
        reference: run.referenceUrl,
        inProcess: run.inProcess,
        seed: run.deployment.settings.seed,
        requests: { deployment: run.deployment.requestCount, reference: run.reference.requestCount },
        ms: run.ms,
        ...run.result,
      },
      null,
      2,
    ) + "\n",
  );
  return files;
}
