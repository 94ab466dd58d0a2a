// The context an active check runs with: its requests go through the run's
// client under the check's id, its assertions land in its result and in the
// coverage ledger, and the guards (readonly profile, budget) and the cleanup
// register are the run's.
import { curlOf, type RequestOptions } from "../http.ts";
import { SkipError } from "../skip.ts";
import type { Check, CheckContext, CheckResult, Failure } from "../types.ts";
import { addFailure, assertionNamed, countAssertion, tolerated, titled } from "./result.ts";
import type { RunSession } from "./session.ts";

export function checkContext(session: RunSession, check: Check, result: CheckResult): CheckContext {
  const { settings, contract, client, runId, ledger } = session;
  const pass: CheckContext["pass"] = (ex) => {
    countAssertion(result);
    if (ex.op) ledger.record(ex.op.key, String(ex.status), check.id, true);
  };
  const fail: CheckContext["fail"] = (f, ex) => {
    assertionNamed(check, f);
    const failure: Failure = { check: check.id, ...f, title: titled(check.id, f.title) };
    if (ex) {
      failure.curl ??= curlOf(ex);
      failure.seq ??= ex.seq;
      failure.operation ??= ex.op?.operationId;
      failure.status ??= ex.status;
      if (ex.op) ledger.record(ex.op.key, String(ex.status), check.id, false);
    }
    addFailure(result, failure);
  };
  return {
    id: check.id,
    settings,
    contract,
    client,
    runId,
    async req(o: RequestOptions) {
      const ex = await client.request({ ...o, check: check.id });
      if (settings.verbose) session.log(`    ${ex.method} ${ex.path} [${ex.keyRole}] → ${ex.status}`);
      return ex;
    },
    fail,
    expect(cond, f, ex) {
      if (cond) {
        countAssertion(result);
        if (ex) pass(ex);
      } else fail(f, ex);
      return cond;
    },
    pass,
    notExercised(reason) {
      const unexercised = (result.unexercised ??= []);
      if (!unexercised.includes(reason)) unexercised.push(reason);
    },
    lenient: (decision, ex) => tolerated(result, decision, ex),
    warn(message, ex) {
      result.warnings.push(ex ? `${message} (${ex.method} ${ex.path} → ${ex.status})` : message);
    },
    skip(reason): never {
      throw new SkipError(reason);
    },
    name: (label) => `slk-${runId}-${label}`,
    charge(usd, what, o) {
      if (settings.profile === "readonly") throw new SkipError(`readonly profile never charges (${what})`);
      return session.budget.charge(usd, what, o);
    },
    mutates(what) {
      if (settings.profile === "readonly") throw new SkipError(`readonly profile never creates (${what})`);
    },
    track(kind, deletePath, key = "main") {
      session.created.set(deletePath, { kind, key });
    },
    untrack(deletePath) {
      session.created.delete(deletePath);
    },
    shared<T>(name: string, fn: () => Promise<T>): Promise<T> {
      let p = session.shared.get(name) as Promise<T> | undefined;
      if (!p) {
        p = fn();
        session.shared.set(name, p);
      }
      return p;
    },
    fcSeed: () => settings.seed,
    hasKey: (role) => !!settings.keys[role],
  };
}
