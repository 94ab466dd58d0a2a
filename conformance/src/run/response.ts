// Response checks judge every recorded exchange after the active checks ran.
// When nothing else produced traffic, a small representative set is sent
// first (the traffic driver), so they have something to judge.
import { trafficDriver } from "../registry.ts";
import { SkipError } from "../skip.ts";
import type { CheckResult, ResponseCheck } from "../types.ts";
import { checkContext } from "./check-context.ts";
import { inspectContext } from "./inspect-context.ts";
import type { RunProgress } from "./progress.ts";
import { errored, newResult, skipped } from "./result.ts";
import type { Selected } from "./select.ts";
import type { RunSession } from "./session.ts";

type SelectedResponse = Selected & { check: ResponseCheck };

export async function driveTraffic(session: RunSession, passive: SelectedResponse[], signal?: AbortSignal) {
  const runnable = passive.filter((p) => !p.skip);
  if (runnable.length === 0 || signal?.aborted) return;
  try {
    await trafficDriver.run(checkContext(session, trafficDriver, newResult("(traffic)")));
  } catch (e) {
    if (!(e instanceof SkipError)) session.log(`traffic driver error: ${(e as Error).message}`);
  }
}

export function runResponseChecks(session: RunSession, passive: SelectedResponse[], progress: RunProgress): void {
  for (const { check, skip } of passive) {
    const result = newResult(check.id);
    progress.begin(check, false);
    const t0 = Date.now();
    if (skip) skipped(result, skip);
    else inspectAll(session, check, result);
    result.ms = Date.now() - t0;
    progress.end(check, result);
  }
}

/** MCP exchanges and the served-groups probes are judged by their own checks, not by the REST response rules. */
function inspectAll(session: RunSession, check: ResponseCheck, result: CheckResult): void {
  const { exchanges } = session.client;
  const ctx = inspectContext(session, check, result);
  try {
    for (const ex of exchanges) if (!ex.meta.mcp && !ex.meta.groupProbe && !ex.meta.document) check.inspect(ex, ctx);
  } catch (e) {
    errored(result, e);
  }
  if (result.failures.length > 0) result.outcome = "fail";
  if (result.outcome === "pass" && result.warnings.length === 0 && !result.exercised)
    skipped(
      result,
      exchanges.length
        ? `none of the ${exchanges.length} recorded exchanges falls under the rule`
        : "no traffic to inspect",
    );
}
