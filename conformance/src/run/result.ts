// One check's result as the run builds it: created passing, each assertion
// counted (a check that asserted nothing is skipped, never passed), failures
// titled with the check id, tolerated departures noted once as warnings.
import type { Exchange } from "../http.ts";
import { LENIENT, lenientWarning, type LenientId, type LenientRule } from "../lenient.ts";
import type { Check, CheckResult, Failure } from "../types.ts";

export function newResult(id: string): CheckResult {
  return { id, outcome: "pass", failures: [], warnings: [], ms: 0, requests: 0, exercised: 0, unexercised: [] };
}

/** One more assertion was made (it held or it failed). */
export function countAssertion(result: CheckResult): void {
  result.exercised = (result.exercised ?? 0) + 1;
}

export function addFailure(result: CheckResult, failure: Failure): void {
  result.failures.push(failure);
  countAssertion(result);
}

/** Every failure title starts with the id of the check that found it (the checks' own titles never carry it). */
export function titled(id: string, title: string): string {
  return `${id}: ${title}`;
}

/** The check stopped short: skipped with this reason. */
export function skipped(result: CheckResult, reason: string): void {
  result.outcome = "skip";
  result.skipReason = reason;
}

/** The kit itself failed inside the check (a bug, not a finding). */
export function errored(result: CheckResult, e: unknown): void {
  result.outcome = "error";
  result.error = (e as Error).stack ?? String(e);
}

/** Whether the lenient rule `decision` tolerates this exchange; when it does, the check warns once. */
export function tolerated(result: CheckResult, decision: LenientId, ex: Exchange): boolean {
  const rule: LenientRule = LENIENT[decision];
  if (rule.applies && !rule.applies(ex)) return false;
  const w = lenientWarning(decision, `${ex.method} ${ex.path} → ${ex.status}`);
  if (!result.warnings.includes(w)) result.warnings.push(w);
  return true;
}

/**
 * A check that declares `asserts` names one of them on every failure: a
 * failure that names none is a defect of the kit (the check errors), never a
 * finding attributed by guesswork.
 */
export function assertionNamed(check: Pick<Check, "id" | "asserts">, f: Pick<Failure, "judges" | "title">): void {
  if (!check.asserts) return;
  if (!f.judges || !(f.judges in check.asserts))
    throw new Error(
      `kit defect: ${check.id} recorded the failure "${f.title}" naming ${f.judges ? `an unknown assertion "${f.judges}"` : "no assertion"} (asserts: ${Object.keys(check.asserts).join(", ")})`,
    );
}
