// Runs the selected checks against one deployment: active checks drive
// traffic, response checks inspect every recorded exchange, and everything
// the kit created is deleted at the end (also after a failure). Each step
// lives in run/; this file puts them in order and assembles the report.
import { randomBytes } from "node:crypto";
import { Contract } from "./contract.ts";
import { HttpClient, type Exchange, type TransportError } from "./http.ts";
import type { Ledger } from "./ledger.ts";
import type { ServedGroups } from "./preflight-groups.ts";
import { allChecks } from "./registry.ts";
import { runActiveChecks } from "./run/active.ts";
import { cleanUp, type Cleanup } from "./run/cleanup.ts";
import type { RunHooks } from "./run/hooks.ts";
import { RunProgress } from "./run/progress.ts";
import { driveTraffic, runResponseChecks } from "./run/response.ts";
import { selectChecks, type Selected } from "./run/select.ts";
import { servedGroupsPreflight } from "./run/served-groups.ts";
import { openSession, type RunSession } from "./run/session.ts";
import type { SpendReport } from "./run/spend.ts";
import type { ActiveCheck, CheckResult, ResponseCheck, Settings } from "./types.ts";
import { settle, type Verdict } from "./verdict.ts";

export type { Progress, RunHooks } from "./run/hooks.ts";
export { selectChecks } from "./run/select.ts";

export interface RunReport {
  runId: string;
  settings: Settings;
  results: CheckResult[];
  requestCount: number;
  requestsByKey: Record<string, number>;
  ms: number;
  ledger: Ledger;
  exchanges: Exchange[];
  spentUsd: string;
  /** committed and settled spend, per check (run/spend.ts) */
  spend: SpendReport;
  cleanup: Cleanup;
  unplanned429: number;
  /** requests that got no HTTP answer (their cassettes end with a status-0 entry) */
  transportErrors: TransportError[];
  /** what the served-groups preflight found (absent when the preflight was skipped) */
  servedGroups?: ServedGroups;
  /** each finding attributed (seed rule or contract decision), --level and --deviations applied */
  verdict: Verdict;
}

/** The HTTP client a run's settings describe (base URL, keys, timeout, -H): the run's, and the plan's price reads. */
export function clientFor(settings: Settings, contract: Contract): HttpClient {
  return new HttpClient({
    baseUrl: settings.baseUrl,
    keys: settings.keys,
    contract,
    timeoutMs: settings.requestTimeoutMs,
    headers: settings.headers,
  });
}

export async function runKit(settings: Settings, hooks: RunHooks = {}): Promise<RunReport> {
  const started = Date.now();
  const contract = Contract.load(settings.contractPath, settings.operations);
  const client = clientFor(settings, contract);
  const results: CheckResult[] = [];
  const preflight = settings.skipPreflight
    ? undefined
    : await servedGroupsPreflight(settings, contract, client, hooks.log);
  if (preflight) results.push(preflight.result);
  const session = openSession(settings, contract, client, newRunId(), hooks.log ?? (() => undefined));
  const selection = selectChecks(settings, contract, hooks.checks ?? allChecks, preflight?.servedGroups.notServed);
  let cleanup: Cleanup = { deleted: 0, failed: [] };
  hooks.onStart?.();
  try {
    await runSelection(session, selection, results, hooks, started);
  } finally {
    cleanup = await cleanUp(client, session.created, session.log);
  }
  if (!client.aborted) await session.spend.close();
  return report(session, results, cleanup, started, preflight?.servedGroups);
}

/** `YYYYMMDD-xxxxxx`: the day, and enough randomness to keep parallel runs' resource names apart. */
function newRunId(): string {
  return `${new Date().toISOString().slice(0, 10).replace(/-/g, "")}-${randomBytes(3).toString("hex")}`;
}

/** Active checks first (results kept in selection order), then response checks over all the traffic. */
async function runSelection(
  session: RunSession,
  selection: Selected[],
  results: CheckResult[],
  hooks: RunHooks,
  started: number,
): Promise<void> {
  const active = selection.filter((s): s is Selected & { check: ActiveCheck } => s.check.kind === "active");
  const passive = selection.filter((s): s is Selected & { check: ResponseCheck } => s.check.kind === "response");
  hooks.signal?.addEventListener("abort", () => (session.client.aborted = true));
  const order = new Map(selection.map((s, i) => [s.check.id, i]));
  const progress = new RunProgress(
    selection.map((s) => s.check.id),
    results,
    session,
    hooks,
    started,
  );
  await runActiveChecks(session, active, progress, hooks.signal);
  // the anonymous lane finishes out of order: report in the order of the selection
  results.sort((x, y) => (order.get(x.id) ?? 0) - (order.get(y.id) ?? 0));
  await driveTraffic(session, passive, hooks.signal);
  runResponseChecks(session, passive, progress);
}

function report(
  session: RunSession,
  results: CheckResult[],
  cleanup: Cleanup,
  started: number,
  servedGroups: ServedGroups | undefined,
): RunReport {
  const { client, settings } = session;
  const requestsByKey: Record<string, number> = {};
  for (const ex of client.exchanges) requestsByKey[ex.keyRole] = (requestsByKey[ex.keyRole] ?? 0) + 1;
  return {
    runId: session.runId,
    settings,
    results,
    requestCount: client.requestCount,
    requestsByKey,
    ms: Date.now() - started,
    ledger: session.ledger,
    exchanges: client.exchanges,
    spentUsd: session.budget.spentUsd(),
    spend: session.spend.report(),
    cleanup,
    unplanned429: client.unplanned429,
    servedGroups,
    transportErrors: client.transportErrors,
    verdict: settle(results, settings),
  };
}
