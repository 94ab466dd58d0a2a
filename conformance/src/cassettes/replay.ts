// `sl-conformance replay FILE.har --base-url URL [keys]`: send a cassette's
// exchanges again, in order, to another (or the same, fixed) deployment and
// judge the same check. Ids the deployment hands out (and cursors) are mapped
// from the recorded answers to the new ones, so a recorded create followed by
// a read of that id reads the new resource; what the replay creates is deleted.
import { randomBytes } from "node:crypto";
import { allChecks } from "../registry.ts";
import { Contract } from "../contract.ts";
import {
  HttpClient,
  TransportError,
  USER_HEADER_RECORDED,
  keyEnv,
  type Exchange,
  type KeyRole,
  type RequestOptions,
} from "../http.ts";
import { LENIENT, type LenientId } from "../lenient.ts";
import { runKit } from "../runner.ts";
import type { CheckResult, Failure, InspectContext, ResponseCheck, Settings } from "../types.ts";
import { errorCodeOf, shapeDiff } from "../differential/shape.ts";
import type { Cassette, CassetteEntry } from "./har.ts";

export interface ReplayOptions {
  baseUrl: string;
  keys: Partial<Record<KeyRole, string>>;
  bearerToken?: string;
  /** -H: a gateway's headers, sent on every request (a cassette records their values redacted) */
  headers?: Record<string, string>;
  /** also run the check itself again (active checks; its own seed) */
  rerun: boolean;
  requestTimeoutMs?: number;
  log?(line: string): void;
}

export interface ReplayStep {
  index: number;
  request: string;
  recorded: string;
  replayed: string;
  /** where the replayed answer differs from the recorded one (status, error code, shape) */
  differs: string[];
}

export interface ReplayOutcome {
  check: string;
  title: string;
  steps: ReplayStep[];
  /** the finding shows again on the replayed exchanges */
  reproduced: boolean;
  verdict: string[];
  /** the check run again against the base URL (active checks, unless --no-rerun) */
  rerun?: CheckResult;
  cleanup: { deleted: number; failed: string[] };
}

const PLACEHOLDER = /\$\{(SLK_[A-Z_]+)\}/g;

/** The user's secret for each placeholder of the cassette; a missing one is a usage error naming its flag. */
function unredact(text: string, opts: ReplayOptions): string {
  const byEnv: Record<string, string | undefined> = { SLK_BEARER_TOKEN: opts.bearerToken };
  for (const [role, env] of Object.entries(keyEnv) as Array<[KeyRole, string]>) byEnv[env] = opts.keys[role];
  return text.replace(PLACEHOLDER, (_m, env: string) => {
    const v = byEnv[env];
    if (!v)
      throw new ReplayUsageError(
        `the cassette needs \${${env}}: pass --${env.replace(/^SLK_/, "").toLowerCase().replace(/_/g, "-")} (or set ${env})`,
      );
    return v;
  });
}

export class ReplayUsageError extends Error {}

/** Ids, cursors and the run id the recording's deployment handed out → what the replayed one hands out. */
class IdMap {
  private map = new Map<string, string>();
  set(from: string, to: string) {
    if (from !== to && from.length >= 3) this.map.set(from, to);
  }
  apply(s: string): string {
    let out = s;
    for (const [from, to] of [...this.map].sort((a, b) => b[0].length - a[0].length)) out = out.split(from).join(to);
    return out;
  }
  /** walk both answers in parallel: a differing string under an id-like key is the same resource */
  learn(recorded: unknown, replayed: unknown, key = "") {
    if (typeof recorded === "string" && typeof replayed === "string") {
      if (/(^|_)id$|^cursor$/.test(key)) this.set(recorded, replayed);
      return;
    }
    if (Array.isArray(recorded) && Array.isArray(replayed)) recorded.forEach((r, i) => this.learn(r, replayed[i], key));
    else if (recorded && replayed && typeof recorded === "object" && typeof replayed === "object")
      for (const [k, v] of Object.entries(recorded)) this.learn(v, (replayed as Record<string, unknown>)[k], k);
  }
}

const headerOf = (e: CassetteEntry, name: string) =>
  e.request.headers.find((h) => h.name.toLowerCase() === name)?.value;
const parse = (text: string | undefined): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

/** What a recorded entry says, in the words of a step line. */
function recordedLine(e: CassetteEntry): string {
  if (e._slc.noAnswer) return `no answer (${e._slc.noAnswer})`;
  const code = errorCodeOf(parse(e.response.content.text));
  return `${e.response.status}${code ? ` ${code}` : ""}`;
}

function compare(e: CassetteEntry, ex: Exchange): string[] {
  const out: string[] = [];
  if (e._slc.noAnswer) return [`recorded no answer, now ${ex.status}`];
  if (e.response.status !== ex.status) out.push(`status ${e.response.status} → ${ex.status}`);
  const before = parse(e.response.content.text);
  const a = errorCodeOf(before);
  const b = errorCodeOf(ex.json);
  if (a !== b) out.push(`error_code ${a ?? "(none)"} → ${b ?? "(none)"}`);
  if (e.response.status === ex.status) out.push(...shapeDiff(before, ex.json).map((d) => `shape ${d}`));
  return out;
}

/** Re-judge a response-level check on one replayed exchange: its own `inspect`, nothing restated. */
function inspectAgain(check: ResponseCheck, ex: Exchange, contract: Contract, settings: Settings): Failure[] {
  const failures: Failure[] = [];
  const ctx: InspectContext = {
    contract,
    settings,
    fail: (_ex, f) => failures.push({ check: check.id, ...f }),
    pass: () => undefined,
    warn: () => undefined,
    lenient: (id: LenientId, e: Exchange) => {
      const rule = LENIENT[id] as { applies?(x: Exchange): boolean };
      return !rule.applies || rule.applies(e);
    },
  };
  check.inspect(ex, ctx);
  return failures;
}

export async function replay(har: Cassette, opts: ReplayOptions): Promise<ReplayOutcome> {
  const info = har.log._slConformance;
  const log = opts.log ?? (() => undefined);
  const contract = Contract.load();
  const client = new HttpClient({
    baseUrl: opts.baseUrl,
    keys: opts.keys,
    contract,
    timeoutMs: opts.requestTimeoutMs,
    headers: opts.headers,
  });
  missingUserHeaders(har, opts);
  client.currentCheck = info.check;
  const ids = new IdMap();
  // names carry the recording run's id; a fresh one keeps the replay's resources apart (unique names stay unique)
  ids.set(info.runId, `replay-${randomBytes(3).toString("hex")}`);
  const recordedBase = info.baseUrl.replace(/\/+$/, "");
  const created: Array<{ path: string; key: RequestOptions["key"] }> = [];
  const steps: ReplayStep[] = [];
  let failingEx: Exchange | undefined;
  let failingNoAnswer: string | undefined;
  for (const [index, e] of har.log.entries.entries()) {
    const recordedUrl = unredact(e.request.url, opts);
    const rel = recordedUrl.startsWith(recordedBase)
      ? recordedUrl.slice(recordedBase.length)
      : new URL(recordedUrl).pathname + new URL(recordedUrl).search;
    const path = ids.apply(rel);
    const headers: Record<string, string> = {};
    for (const h of e.request.headers)
      // a -H header is recorded redacted: the client sends the value given to the replay
      if (!["x-api-key", "content-length", "host"].includes(h.name.toLowerCase()) && h.value !== USER_HEADER_RECORDED)
        headers[h.name] = ids.apply(unredact(h.value, opts));
    const role = e._slc.keyRole;
    const key: RequestOptions["key"] =
      role === "invalid" ? { invalid: unredact(headerOf(e, "x-api-key") ?? "sl_invalid", opts) } : role;
    if (role !== "none" && role !== "invalid" && !opts.keys[role])
      throw new ReplayUsageError(
        `the cassette sends with the ${role} key: pass --${role === "second" ? "second-seat" : role === "main" ? "api" : role}-key`,
      );
    const body =
      e.request.postData?.text !== undefined ? ids.apply(unredact(e.request.postData.text, opts)) : undefined;
    const line = `#${index + 1} ${e.request.method} ${path} [${role}]`;
    let ex: Exchange | undefined;
    let replayed: string;
    try {
      ex = await client.request({
        method: e.request.method,
        path,
        rawBody: body,
        headers,
        key,
        meta: { mcp: e._slc.mcp },
        redirect: e.response.status >= 300 && e.response.status < 400 ? "manual" : "follow",
      });
      replayed = `${ex.status}${errorCodeOf(ex.json) ? ` ${errorCodeOf(ex.json)}` : ""}`;
    } catch (err) {
      if (!(err instanceof TransportError)) throw err;
      replayed = `no answer (${err.detail})`;
      if (index === info.failing) failingNoAnswer = err.detail;
    }
    if (ex) {
      ids.learn(parse(e.response.content.text), ex.json);
      const id = (ex.json as { data?: { id?: unknown } } | undefined)?.data?.id;
      if (
        e.request.method === "POST" &&
        ex.status >= 200 &&
        ex.status < 300 &&
        typeof id === "string" &&
        contract.match("DELETE", `${path.split("?")[0]}/${id}`)
      )
        created.push({ path: `${path.split("?")[0]}/${id}`, key });
      if (index === info.failing) failingEx = ex;
    }
    const differs = ex ? compare(e, ex) : e._slc.noAnswer ? [] : [`recorded ${recordedLine(e)}, now ${replayed}`];
    steps.push({ index, request: line, recorded: recordedLine(e), replayed, differs });
    log(
      `${index === info.failing ? "▶" : " "} ${line}: recorded ${recordedLine(e)}, replayed ${replayed}${differs.length ? ` — differs: ${differs.join("; ")}` : ""}`,
    );
  }
  const cleanup = { deleted: 0, failed: [] as string[] };
  client.currentCheck = "(cleanup)";
  for (const c of created.reverse()) {
    try {
      const ex = await client.request({ method: "DELETE", path: c.path, key: c.key });
      if (ex.status < 300 || ex.status === 404) cleanup.deleted++;
      else cleanup.failed.push(`${c.path} → ${ex.status}`);
    } catch (err) {
      cleanup.failed.push(`${c.path}: ${(err as Error).message}`);
    }
  }
  const outcome: ReplayOutcome = {
    check: info.check,
    title: info.title,
    steps,
    reproduced: false,
    verdict: [],
    cleanup,
  };
  const check = allChecks.find((c) => c.id === info.check);
  const failingEntry = har.log.entries[info.failing];
  const settings = replaySettings(info, opts);
  if (check?.kind === "response") {
    if (!failingEx) outcome.verdict.push(`the failing request got no answer (${failingNoAnswer ?? "not sent"})`);
    else {
      const again = inspectAgain(check, failingEx, contract, settings);
      outcome.reproduced = again.length > 0;
      outcome.verdict.push(
        outcome.reproduced
          ? `${info.check} fails again on the replayed answer: ${again.map((f) => f.title).join("; ")}`
          : `${info.check} passes on the replayed answer (${failingEx.method} ${failingEx.path} → ${failingEx.status})`,
      );
    }
  } else {
    // an active check judged a sequence: the recorded observation is compared, and the check itself runs again
    const same = failingEx
      ? compare(failingEntry, failingEx).length === 0
      : !!failingEntry._slc.noAnswer && !!failingNoAnswer;
    outcome.reproduced = same;
    outcome.verdict.push(
      same
        ? `the failing exchange answers as recorded (${recordedLine(failingEntry)})`
        : `the failing exchange answers differently: ${failingEx ? compare(failingEntry, failingEx).join("; ") : `no answer (${failingNoAnswer})`}`,
    );
    if (check && opts.rerun) {
      log(
        `re-running ${info.check} with seed ${info.seed}${info.fcPath ? ` and path ${info.fcPath}` : ""} against ${opts.baseUrl}`,
      );
      const report = await runKit({ ...settings, only: [info.check] });
      outcome.rerun = report.results.find((r) => r.id === info.check);
      const r = outcome.rerun;
      if (r) {
        outcome.reproduced = r.outcome === "fail" || r.outcome === "error";
        outcome.verdict.push(
          `${info.check} run again: ${r.outcome}${
            r.failures.length
              ? ` — ${r.failures
                  .map((f) => f.title)
                  .slice(0, 3)
                  .join("; ")}`
              : ""
          }${r.skipReason ? ` (${r.skipReason})` : ""}`,
        );
      }
    }
  }
  return outcome;
}

/** A cassette recorded with -H needs the same headers given to the replay: their values are not in it. */
function missingUserHeaders(har: Cassette, opts: ReplayOptions): void {
  const given = new Set(Object.keys(opts.headers ?? {}).map((n) => n.toLowerCase()));
  const names = new Set(
    har.log.entries.flatMap((e) =>
      e.request.headers.filter((h) => h.value === USER_HEADER_RECORDED).map((h) => h.name.toLowerCase()),
    ),
  );
  const missing = [...names].filter((n) => !given.has(n));
  if (missing.length)
    throw new ReplayUsageError(
      `the cassette was recorded with ${missing.map((n) => `-H ${n}`).join(", ")} (values redacted): pass ${missing.map((n) => `-H '${n}: …'`).join(" ")}`,
    );
}

function replaySettings(info: Cassette["log"]["_slConformance"], opts: ReplayOptions): Settings {
  return {
    baseUrl: opts.baseUrl,
    keys: opts.keys,
    bearerToken: opts.bearerToken,
    headers: opts.headers,
    profile: info.profile ?? "standard",
    seed: info.seed,
    fcPath: info.fcPath,
    mock: false,
    numRuns: 5,
    runTimeoutMs: 120_000,
    quiet: true,
    requestTimeoutMs: opts.requestTimeoutMs,
  };
}
