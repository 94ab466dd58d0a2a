// Runs the selected checks against one deployment: active checks drive
// traffic, response checks inspect every recorded exchange, and everything
// the kit created is deleted at the end (also after a failure).
import { randomBytes } from "node:crypto";
import { Decimal } from "decimal.js";
import { Contract } from "./contract.ts";
import { HttpClient, TransportError, curlOf, type Exchange, type KeyRole, type RequestOptions } from "./http.ts";
import { Ledger } from "./ledger.ts";
import { allChecks, trafficDriver } from "./registry.ts";
import type { Check, CheckContext, CheckResult, Failure, InspectContext, Settings } from "./types.ts";

import { SkipError } from "./skip.ts";
import { preflight } from "./preflight.ts";
import { probeGroups, servedGroupsResult, withoutUnserved, type ServedGroups } from "./preflight-groups.ts";
import { LENIENT, lenientWarning, type LenientId } from "./lenient.ts";
import { settle, type Verdict } from "./verdict.ts";
export { SkipError };

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
  cleanup: { deleted: number; failed: string[] };
  unplanned429: number;
  /** requests that got no HTTP answer (their cassettes end with a status-0 entry) */
  transportErrors: TransportError[];
  /** what the served-groups preflight found (absent when the preflight was skipped) */
  servedGroups?: ServedGroups;
  /** each finding attributed (seed rule or contract decision), --level and --deviations applied */
  verdict: Verdict;
}

export interface Progress {
  /** checks finished, of total */
  done: number;
  total: number;
  current?: string;
  requests: number;
  elapsedMs: number;
  /** the advertised RateLimit-Limit of the main key (requests per second) */
  rate: number;
  /** ids of the checks still to run */
  remaining: string[];
}

export interface RunHooks {
  /** after the preflight, before the first check */
  onStart?(): void;
  /** progress after every check start and end */
  onProgress?(p: Progress): void;
  /** stop after the current request (Ctrl-C); cleanup still runs */
  signal?: AbortSignal;
  onCheckStart?(check: Check): void;
  onCheckEnd?(check: Check, result: CheckResult): void;
  log?(line: string): void;
  checks?: Check[];
}

/** Which checks apply, and why the others do not. */
export function selectChecks(
  settings: Settings,
  contract: Contract,
  checks: Check[] = allChecks,
  notServed?: Map<string, string>,
): Array<{ check: Check; skip?: string }> {
  return checks
    .filter((c) => !settings.only || settings.only.includes(c.id))
    .map((check) => {
      if (!check.profiles.includes(settings.profile)) return { check, skip: `not in profile ${settings.profile}` };
      if (settings.mock && !check.mock) return { check, skip: "needs a stateful deployment (not mock-applicable)" };
      if (settings.validatingProxy && check.invalidRequests)
        return { check, skip: "sends contract-invalid requests, which a validating proxy answers itself" };
      const missing = (check.requires ?? []).filter((k) => !contract.op(k));
      const unserved = missing.map((k) => notServed?.get(k)).find(Boolean);
      if (unserved) return { check, skip: unserved };
      if (missing.length) return { check, skip: `contract lacks ${missing.join(", ")}` };
      const keys = (check.keys ?? []).filter((k) => !settings.keys[k]);
      if (keys.length)
        return { check, skip: `no ${keys.map((k) => `--${k === "second" ? "second-seat" : k}-key`).join(", ")} given` };
      return { check };
    });
}

export async function runKit(settings: Settings, hooks: RunHooks = {}): Promise<RunReport> {
  const started = Date.now();
  const runId = `${new Date().toISOString().slice(0, 10).replace(/-/g, "")}-${randomBytes(3).toString("hex")}`;
  const contract = Contract.load(settings.contractPath, settings.operations);
  const client = new HttpClient({
    baseUrl: settings.baseUrl,
    keys: settings.keys,
    contract,
    timeoutMs: settings.requestTimeoutMs,
  });
  const results: CheckResult[] = [];
  // preflight first: an unserved group leaves the contract of this run before checks are selected
  let servedGroups: ServedGroups | undefined;
  if (!settings.skipPreflight) {
    await preflight(settings, client);
    const t0 = Date.now();
    const before = client.requestCount;
    servedGroups = await probeGroups(contract, client, settings);
    withoutUnserved(contract, servedGroups);
    results.push(
      servedGroupsResult(servedGroups, !!settings.requireGroups, client.requestCount - before, Date.now() - t0),
    );
    for (const p of servedGroups.probes.filter((x) => !x.served))
      hooks.log?.(`${settings.requireGroups ? "FAIL" : "WARN"} served-groups: ${p.reason}`);
  }
  const ledger = new Ledger(contract);
  const created = new Map<string, { kind: string; key: KeyRole }>();
  const sharedMemo = new Map<string, Promise<unknown>>();
  let spent = new Decimal(0);
  const log = hooks.log ?? (() => undefined);
  const selection = selectChecks(settings, contract, hooks.checks ?? allChecks, servedGroups?.notServed);

  const makeResult = (id: string): CheckResult => ({
    id,
    outcome: "pass",
    failures: [],
    warnings: [],
    ms: 0,
    requests: 0,
    exercised: 0,
    unexercised: [],
  });
  const tolerated = (result: CheckResult, decision: LenientId, ex: Exchange): boolean => {
    const rule = LENIENT[decision] as { applies?(e: Exchange): boolean };
    if (rule.applies && !rule.applies(ex)) return false;
    const w = lenientWarning(decision, `${ex.method} ${ex.path} → ${ex.status}`);
    if (!result.warnings.includes(w)) result.warnings.push(w);
    return true;
  };

  const contextFor = (check: Check, result: CheckResult): CheckContext => {
    const ctx: CheckContext = {
      id: check.id,
      settings,
      contract,
      client,
      runId,
      async req(o: RequestOptions) {
        const ex = await client.request({ ...o, check: check.id });
        if (settings.verbose) log(`    ${ex.method} ${ex.path} [${ex.keyRole}] → ${ex.status}`);
        return ex;
      },
      fail(f, ex) {
        const failure: Failure = { check: check.id, ...f, title: titled(check.id, f.title) };
        if (ex) {
          failure.curl ??= curlOf(ex);
          failure.seq ??= ex.seq;
          failure.operation ??= ex.op?.operationId;
          failure.status ??= ex.status;
          if (ex.op) ledger.record(ex.op.key, String(ex.status), check.id, false);
        }
        result.failures.push(failure);
        result.exercised = (result.exercised ?? 0) + 1;
      },
      expect(cond, f, ex) {
        if (cond) {
          result.exercised = (result.exercised ?? 0) + 1;
          if (ex) ctx.pass(ex);
        } else ctx.fail(f, ex);
        return cond;
      },
      pass(ex) {
        result.exercised = (result.exercised ?? 0) + 1;
        if (ex.op) ledger.record(ex.op.key, String(ex.status), check.id, true);
      },
      notExercised(reason) {
        if (!result.unexercised!.includes(reason)) result.unexercised!.push(reason);
      },
      lenient(decision, ex) {
        return tolerated(result, decision, ex);
      },
      warn(message, ex) {
        result.warnings.push(ex ? `${message} (${ex.method} ${ex.path} → ${ex.status})` : message);
      },
      skip(reason): never {
        throw new SkipError(reason);
      },
      name(label) {
        return `slk-${runId}-${label}`;
      },
      charge(usd, what) {
        if (settings.profile === "readonly") throw new SkipError(`readonly profile never charges (${what})`);
        const amount = new Decimal(usd);
        if (settings.budgetUsd !== undefined && spent.plus(amount).greaterThan(settings.budgetUsd)) {
          throw new SkipError(
            `budget guard: ${what} may cost $${amount.toFixed()} and $${spent.toFixed()} of $${settings.budgetUsd} is committed`,
          );
        }
        spent = spent.plus(amount);
        let released = false;
        return () => {
          if (!released) spent = spent.minus(amount);
          released = true;
        };
      },
      mutates(what) {
        if (settings.profile === "readonly") throw new SkipError(`readonly profile never creates (${what})`);
      },
      track(kind, deletePath, key = "main") {
        created.set(deletePath, { kind, key });
      },
      untrack(deletePath) {
        created.delete(deletePath);
      },
      shared<T>(name: string, fn: () => Promise<T>): Promise<T> {
        let p = sharedMemo.get(name) as Promise<T> | undefined;
        if (!p) {
          p = fn();
          sharedMemo.set(name, p);
        }
        return p;
      },
      fcSeed() {
        return settings.seed;
      },
      hasKey(role) {
        return !!settings.keys[role];
      },
    };
    return ctx;
  };

  let cleanup = { deleted: 0, failed: [] as string[] };
  hooks.onStart?.();
  try {
    const active = selection.filter((s) => s.check.kind === "active");
    const passive = selection.filter((s) => s.check.kind === "response");
    hooks.signal?.addEventListener("abort", () => (client.aborted = true));
    const order = new Map(selection.map((s, i) => [s.check.id, i]));
    const finished = new Set<string>();
    const progress = (current?: string) =>
      hooks.onProgress?.({
        done: finished.size,
        total: selection.length,
        current,
        requests: client.requestCount,
        elapsedMs: Date.now() - started,
        rate: client.limiter("main").limit,
        remaining: selection.map((s) => s.check.id).filter((id) => !finished.has(id) && id !== current),
      });
    const runActive = async ({ check, skip }: { check: Check; skip?: string }) => {
      const result = makeResult(check.id);
      hooks.onCheckStart?.(check);
      progress(check.id);
      const t0 = Date.now();
      const mine = () => client.exchanges.filter((e) => e.check === check.id).length;
      if (skip) {
        result.outcome = "skip";
        result.skipReason = skip;
      } else {
        try {
          await (check as Extract<Check, { kind: "active" }>).run(contextFor(check, result));
        } catch (e) {
          if (e instanceof SkipError) {
            if (result.failures.length === 0) {
              result.outcome = "skip";
              result.skipReason = e.message;
            }
          } else {
            const finding = answerFinding(e, client.exchanges.filter((x) => x.check === check.id).at(-1), check.id);
            if (finding) ctxFail(result, finding);
            else {
              result.outcome = "error";
              result.error = (e as Error).stack ?? String(e);
            }
          }
        }
        if (result.failures.length > 0) result.outcome = "fail";
        else if (result.outcome === "pass" && !result.exercised) {
          // a check that asserted nothing has not shown the rule holds
          result.outcome = "skip";
          result.skipReason = result.unexercised?.length
            ? `nothing exercised: ${result.unexercised.join("; ")}`
            : "the check found nothing to exercise";
        }
      }
      result.ms = Date.now() - t0;
      result.requests = mine();
      results.push(result);
      finished.add(check.id);
      hooks.onCheckEnd?.(check, result);
      progress();
    };
    // unauthenticated checks use no key's budget: they run alongside the keyed sequence
    const anonymous = (async () => {
      for (const a of active.filter((x) => x.check.lane === "anonymous"))
        if (!hooks.signal?.aborted) await runActive(a);
    })();
    for (const a of active.filter((x) => x.check.lane !== "anonymous")) {
      if (hooks.signal?.aborted) break;
      await runActive(a);
    }
    await anonymous;
    results.sort((x, y) => (order.get(x.id) ?? 0) - (order.get(y.id) ?? 0));
    // response-level checks need traffic; drive a small representative set if nothing else ran
    const runnable = passive.filter((p) => !p.skip);
    if (runnable.length > 0 && !hooks.signal?.aborted) {
      const drv = makeResult("(traffic)");
      try {
        await trafficDriver.run(contextFor(trafficDriver, drv));
      } catch (e) {
        if (!(e instanceof SkipError)) log(`traffic driver error: ${(e as Error).message}`);
      }
    }
    for (const { check, skip } of passive) {
      const result = makeResult(check.id);
      hooks.onCheckStart?.(check);
      const t0 = Date.now();
      if (skip) {
        result.outcome = "skip";
        result.skipReason = skip;
      } else {
        const seen = new Set<string>();
        const ictx: InspectContext = {
          contract,
          settings,
          fail(ex, f) {
            // one failure per (operation, status, title) keeps the report readable
            const k = `${ex.op?.key ?? ex.method + " " + ex.path}|${ex.status}|${f.title}`;
            if (ex.op) ledger.record(ex.op.key, String(ex.status), check.id, false);
            if (seen.has(k)) return;
            seen.add(k);
            result.exercised = (result.exercised ?? 0) + 1;
            result.failures.push({
              check: check.id,
              seq: ex.seq,
              curl: curlOf(ex),
              operation: ex.op?.operationId ?? `${ex.method} ${ex.path}`,
              status: ex.status,
              seed: ex.meta.seed,
              path: ex.meta.path,
              ...f,
              title: titled(check.id, f.title),
              message: `${f.message ?? ""}${f.message ? " " : ""}(exchange #${ex.seq}, sent by ${ex.check})`,
            });
          },
          pass(ex) {
            result.exercised = (result.exercised ?? 0) + 1;
            if (ex.op) ledger.record(ex.op.key, String(ex.status), check.id, true);
          },
          warn(message, ex) {
            const w = ex ? `${message} (${ex.method} ${ex.path} → ${ex.status})` : message;
            if (!result.warnings.includes(w)) result.warnings.push(w);
          },
          lenient(decision, ex) {
            return tolerated(result, decision, ex);
          },
        };
        try {
          for (const ex of client.exchanges)
            if (!ex.meta.mcp && !ex.meta.groupProbe) (check as Extract<Check, { kind: "response" }>).inspect(ex, ictx);
        } catch (e) {
          result.outcome = "error";
          result.error = (e as Error).stack ?? String(e);
        }
        if (result.failures.length > 0) result.outcome = "fail";
        if (result.outcome === "pass" && result.warnings.length === 0 && !result.exercised) {
          result.outcome = "skip";
          result.skipReason = client.exchanges.length
            ? `none of the ${client.exchanges.length} recorded exchanges falls under the rule`
            : "no traffic to inspect";
        }
      }
      result.ms = Date.now() - t0;
      results.push(result);
      finished.add(check.id);
      hooks.onCheckEnd?.(check, result);
      progress();
    }
  } finally {
    cleanup = await cleanUp(client, created, log);
  }
  const requestsByKey: Record<string, number> = {};
  for (const ex of client.exchanges) requestsByKey[ex.keyRole] = (requestsByKey[ex.keyRole] ?? 0) + 1;
  return {
    runId,
    settings,
    results,
    requestCount: client.requestCount,
    requestsByKey,
    ms: Date.now() - started,
    ledger,
    exchanges: client.exchanges,
    spentUsd: spent.toFixed(),
    cleanup,
    unplanned429: client.unplanned429,
    servedGroups,
    transportErrors: client.transportErrors,
    verdict: settle(results, settings),
  };
}

function ctxFail(result: CheckResult, f: Failure): void {
  result.failures.push(f);
  result.exercised = (result.exercised ?? 0) + 1;
}

/**
 * A check stopped by the deployment's answer rather than by a bug of the kit:
 * no answer at all (timeout, closed or refused connection), or an answer the
 * check could not read (not JSON, e.g. an HTML error page). Either is a
 * finding of that check, with the request to reproduce it; anything else
 * stays an error of the kit (outcome "error", with its stack).
 */
export function answerFinding(e: unknown, last: Exchange | undefined, id: string): Failure | undefined {
  if (e instanceof TransportError) {
    const curl = curlOf({ method: e.method, url: e.url, ...e.sent });
    return {
      check: id,
      title: `${id}: no answer: ${e.method} ${new URL(e.url).pathname} ${e.detail}`,
      received: e.detail,
      expected: "an HTTP answer",
      curl,
    };
  }
  const ct = last?.headers["content-type"] ?? "";
  // an SSE stream (MCP long poll) is read by the MCP client, not as one JSON body
  if (
    last &&
    !/event-stream/i.test(ct) &&
    (last.jsonError !== undefined || (last.text.length > 0 && !/json/i.test(ct)))
  ) {
    const head = last.text.replace(/\s+/g, " ").slice(0, 80);
    return {
      check: id,
      title: `${id}: unreadable answer: ${last.method} ${last.path} → ${last.status} ${ct || "(no content-type)"}`,
      received: head + (last.text.length > 80 ? "…" : ""),
      expected: "a JSON body (application/json)",
      curl: curlOf(last),
      operation: last.op?.operationId,
      status: last.status,
      seq: last.seq,
    };
  }
  return undefined;
}

async function cleanUp(
  client: HttpClient,
  created: Map<string, { kind: string; key: KeyRole }>,
  log: (l: string) => void,
) {
  client.currentCheck = "(cleanup)";
  client.aborted = false;
  let deleted = 0;
  const failed: string[] = [];
  // newest first: children before parents
  for (const [path, { key }] of [...created.entries()].reverse()) {
    try {
      const ex = await client.request({ method: "DELETE", path, key });
      if (ex.status < 300 || ex.status === 404) deleted++;
      else failed.push(`${path} → ${ex.status}`);
    } catch (e) {
      failed.push(`${path}: ${(e as Error).message}`);
    }
  }
  if (created.size)
    log(
      `cleanup: deleted ${deleted} of ${created.size} resources the kit created${failed.length ? `; could not delete ${failed.join(", ")}` : ""}`,
    );
  return { deleted, failed };
}

/** Every failure title starts with the id of the rule it enforces. */
function titled(id: string, title: string): string {
  return `${id}: ${title}`;
}
