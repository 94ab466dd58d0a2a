// The context a response check judges recorded exchanges with. Unlike an
// active check it reports one failure per (operation, status, title): the
// same fault seen on every exchange of an operation would drown the report.
import { curlOf, type Exchange } from "../http.ts";
import type { Check, CheckResult, Failure, InspectContext } from "../types.ts";
import { addFailure, assertionNamed, countAssertion, tolerated, titled } from "./result.ts";
import type { RunSession } from "./session.ts";

export function inspectContext(session: RunSession, check: Check, result: CheckResult): InspectContext {
  const { contract, settings, ledger } = session;
  const seen = new Set<string>();
  return {
    contract,
    settings,
    fail(ex, f) {
      assertionNamed(check, f);
      const k = `${ex.op?.key ?? ex.method + " " + ex.path}|${ex.status}|${f.title}`;
      if (ex.op) ledger.record(ex.op.key, String(ex.status), check.id, false);
      if (seen.has(k)) return;
      seen.add(k);
      addFailure(result, exchangeFailure(check.id, ex, f));
    },
    pass(ex) {
      countAssertion(result);
      if (ex.op) ledger.record(ex.op.key, String(ex.status), check.id, true);
    },
    warn(message, ex) {
      const w = ex ? `${message} (${ex.method} ${ex.path} → ${ex.status})` : message;
      if (!result.warnings.includes(w)) result.warnings.push(w);
    },
    lenient: (decision, ex) => tolerated(result, decision, ex),
  };
}

/** A response check's failure: the exchange it judged, who sent it, and how to send it again. */
function exchangeFailure(id: string, ex: Exchange, f: Omit<Failure, "check">): Failure {
  return {
    check: id,
    seq: ex.seq,
    curl: curlOf(ex),
    operation: ex.op?.operationId ?? `${ex.method} ${ex.path}`,
    status: ex.status,
    seed: ex.meta.seed,
    path: ex.meta.path,
    ...f,
    title: titled(id, f.title),
    message: `${f.message ?? ""}${f.message ? " " : ""}(exchange #${ex.seq}, sent by ${ex.check})`,
  };
}
