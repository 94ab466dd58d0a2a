// Active checks drive traffic. The keyed ones run one after another (they
// share the keys' rate-limit budget); the unauthenticated ones use no key's
// budget, so they run alongside.
import { SkipError } from "../skip.ts";
import type { ActiveCheck, CheckResult } from "../types.ts";
import { answerFinding } from "./answer-finding.ts";
import { checkContext } from "./check-context.ts";
import type { RunProgress } from "./progress.ts";
import { addFailure, errored, newResult, skipped } from "./result.ts";
import type { Selected } from "./select.ts";
import type { RunSession } from "./session.ts";

type SelectedActive = Selected & { check: ActiveCheck };

export async function runActiveChecks(
  session: RunSession,
  active: SelectedActive[],
  progress: RunProgress,
  signal: AbortSignal | undefined,
): Promise<void> {
  const anonymous = (async () => {
    for (const a of active.filter((x) => x.check.lane === "anonymous"))
      if (!signal?.aborted) await runActiveCheck(session, a, progress);
  })();
  for (const a of active.filter((x) => x.check.lane !== "anonymous")) {
    if (signal?.aborted) break;
    await runActiveCheck(session, a, progress);
  }
  await anonymous;
}

async function runActiveCheck(session: RunSession, { check, skip }: SelectedActive, progress: RunProgress) {
  const result = newResult(check.id);
  progress.begin(check, true);
  if (skip) skipped(result, skip);
  else {
    // the caller's hooks (--hooks, the settled spend) run around the check, outside its time
    const refused = await progress.before(check);
    const t0 = Date.now();
    if (refused) skipped(result, refused);
    else {
      await runGuarded(session, check, result);
      judge(result);
    }
    result.ms = Date.now() - t0;
    await progress.after(check, result);
  }
  result.requests = sentBy(session, check.id).length;
  progress.end(check, result);
}

/** Run the check; what it throws becomes a skip, a finding about the deployment's answer, or an error of the kit. */
async function runGuarded(session: RunSession, check: ActiveCheck, result: CheckResult): Promise<void> {
  try {
    await check.run(checkContext(session, check, result));
  } catch (e) {
    if (e instanceof SkipError) {
      // a skip after a failure keeps the failure
      if (result.failures.length === 0) skipped(result, e.message);
      return;
    }
    const finding = answerFinding(e, sentBy(session, check.id).at(-1), check.id);
    if (finding) addFailure(result, finding);
    else errored(result, e);
  }
}

/** Failures fail the check; a check that asserted nothing has not shown the rule holds, so it is skipped. */
function judge(result: CheckResult): void {
  if (result.failures.length > 0) result.outcome = "fail";
  else if (result.outcome === "pass" && !result.exercised)
    skipped(
      result,
      result.unexercised?.length
        ? `nothing exercised: ${result.unexercised.join("; ")}`
        : "the check found nothing to exercise",
    );
}

function sentBy(session: RunSession, id: string) {
  return session.client.exchanges.filter((e) => e.check === id);
}
