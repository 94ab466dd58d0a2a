// The mutation harness, shared by its shard files (mutation.test.ts,
// mutation-2.test.ts, mutation-3.test.ts): vitest runs the shards in separate
// workers, so the harness spreads over both cores while each run waits mostly
// on the rate limit.
//
// Every fault (and every control) is judged by a WHOLE kit run, every check,
// the whole contract, against a fresh reference app of its own: fresh state
// and rate-limit buckets, so runs in flight together cannot disturb each other
// (a reference boot costs about a tenth of a second of CPU, a kit run over a
// second). The fault sits in a proxy in front of the app, in this process, and
// rewrites exactly the requests and responses that used to cross the wire.
// Neither hop is HTTP any more: the proxy calls the app's fetch handler, and
// the kit's fetch of the proxy's URL is answered in this process too (see
// loopbackFetch: the same headers, body, status and redirects undici would
// give the kit). The kit's checks, client, limiter and verdicts are unchanged;
// its HTTP transport over a socket is covered by the kit's own tests against
// live servers (kit-reference, kit-prism-proxy, ...). The kit-to-proxy hop was
// about half of a whole-kit run's CPU (the proxy-to-app hop, gone before it,
// about 40%). A shard starts its runs three at once and adds more, up to
// SLK_MUTATION_PARALLEL (default 12), while its event loop keeps up
// (adaptivePool).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { createApp } from "../../reference-impl/src/app.ts";
import { runKit, type RunReport } from "../src/runner.ts";
import type { Settings } from "../src/types.ts";
import { faults } from "../mutation/faults.ts";
import {
  proxyError,
  startProxy,
  type Fault,
  type ProxyRequest,
  type ProxyResponse,
  type RunningProxy,
} from "../mutation/proxy.ts";
import { seedLevelCheck } from "../mutation/deviations-levels.ts";
import { demoKeys, settings, unexpectedFailures } from "./helpers.ts";

/** The number of shard files (each calls mutationShard with its own index). */
export const MUTATION_SHARDS = 3;

// the main seat's demo OAuth access token, so the MCP bearer rules are exercised too
const bearerToken = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../fixtures/demo-keys.json", import.meta.url)), "utf8"),
).bearer_tokens?.find((t: any) => t.account_id === "acc_demoA" && t.user_id === "usr_a_owner")?.access_token;

/** A proxy's answer to one request: the fault's rewrite of what the app says. */
type ProxyHandler = (req: ProxyRequest) => Promise<ProxyResponse>;

/** Proxies of this process by origin (http://127.0.0.1:port): the kit's requests to them never reach a socket. */
const inProcess = new Map<string, ProxyHandler>();
let socketFetch: typeof fetch | undefined;

/** Headers undici's fetch adds to every request it sends (Node 24), so the fault and the app see what they saw over HTTP. */
const FETCH_ADDS: Record<string, string> = {
  accept: "*/*",
  "accept-language": "*",
  "sec-fetch-mode": "cors",
  "user-agent": "node",
  "accept-encoding": "gzip, deflate",
};
/** Statuses whose response carries no body (the proxy ends a 204 or 304 without one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * fetch for the kit: a request to a proxy of this process becomes the
 * ProxyRequest its HTTP server would have read (method, path and query as
 * undici sends them, headers lower-cased with undici's own added, no body for
 * an empty one), and its answer the Response undici would have parsed (node's
 * framing headers, no body for 204/304). Redirects are followed as fetch
 * follows them unless the kit asks for "manual"; the kit's timeout signal
 * still aborts. Any other URL goes to the real fetch.
 */
function loopbackFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  const handle = inProcess.get(url.origin);
  if (!handle || input instanceof Request || (init.body != null && typeof init.body !== "string"))
    return socketFetch!(input, init);
  return answer(handle, url, init, 0);
}

async function answer(handle: ProxyHandler, url: URL, init: RequestInit, hops: number): Promise<Response> {
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  // the same validation and normalisation as undici (a bad header value throws the same TypeError)
  const given = new Headers(init.headers);
  const method = init.method ?? "GET";
  const normalised = /^(delete|get|head|options|post|put)$/i.test(method) ? method.toUpperCase() : method;
  const body = (init.body ?? undefined) as string | undefined;
  // requests undici refuses to send, with the TypeError it throws
  if (/^(connect|trace|track)$/i.test(method)) throw new TypeError(`'${method}' HTTP method is unsupported.`);
  if (body !== undefined && (normalised === "GET" || normalised === "HEAD"))
    throw new TypeError("Request with GET/HEAD method cannot have body.");
  const headers: Record<string, string> = { host: url.host, connection: "keep-alive" };
  given.forEach((v, k) => (headers[k] = v));
  if (body !== undefined) headers["content-type"] ??= "text/plain;charset=UTF-8";
  for (const [k, v] of Object.entries(FETCH_ADDS)) headers[k] ??= v;
  if (body) headers["content-length"] = String(Buffer.byteLength(body));
  const path = url.pathname + url.search;
  const req: ProxyRequest = {
    method: normalised,
    path,
    url: new URL(path, "http://proxy"),
    headers,
    body: body || undefined,
    key: headers["x-api-key"],
  };
  let out: ProxyResponse;
  if (!signal) out = await handle(req);
  else {
    let onAbort!: () => void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason as Error);
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      out = await Promise.race([handle(req), aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }
  const location = out.headers.location;
  if (out.status >= 300 && out.status < 400 && location !== undefined && init.redirect !== "manual") {
    if (init.redirect === "error" || hops >= 20) throw new TypeError("fetch failed", { cause: new Error("redirect") });
    const next = new URL(location, url);
    // fetch turns a 303, and a POST answered 301 or 302, into a GET without a body; 307 and 308 keep both
    const toGet =
      out.status === 303 ? normalised !== "HEAD" : (out.status === 301 || out.status === 302) && normalised === "POST";
    const h = new Headers(init.headers);
    if (toGet)
      for (const k of ["content-type", "content-length", "content-encoding", "content-language", "content-location"])
        h.delete(k);
    if (next.origin !== url.origin) h.delete("authorization");
    const again: RequestInit = { ...init, headers: h, ...(toGet ? { method: "GET", body: undefined } : {}) };
    const there = inProcess.get(next.origin);
    return there ? answer(there, next, again, hops + 1) : socketFetch!(next, again);
  }
  // what node's server adds unless the answer has it already
  const framing: Record<string, string> = {
    connection: "keep-alive",
    date: new Date().toUTCString(),
    "keep-alive": "timeout=5",
  };
  const empty = NO_BODY.has(out.status) || normalised === "HEAD";
  if (!empty) framing["transfer-encoding"] = "chunked";
  try {
    return new Response(empty ? null : out.body, { status: out.status, headers: { ...framing, ...out.headers } });
  } catch (e) {
    // what the proxy answers when node refuses to write the fault's response
    const err = proxyError(e);
    return new Response(err.body, { status: err.status, headers: { ...framing, ...err.headers } });
  }
}

/**
 * The reference app in this process with a fault in front (or none), on a free
 * 127.0.0.1 port, the kit's requests to it answered in this process (until
 * close). 50 requests per second: the burst rules need a limit a burst can
 * exhaust (at 100, bursts of 200 straddle window boundaries on a busy
 * machine). 50 ms between pipeline steps (not 0): runs stay in flight long
 * enough for the 409 rules to be exercised while many runs share the CPU.
 */
export async function faultedReference(fault: Pick<Fault, "request" | "response"> | undefined): Promise<RunningProxy> {
  const { app } = createApp({ rateLimitPerSecond: 50, stepDelayMs: 50, logger: () => undefined });
  const proxy = await startProxy(app.fetch, fault, demoKeys());
  if (inProcess.size === 0) {
    socketFetch = globalThis.fetch;
    globalThis.fetch = loopbackFetch as typeof fetch;
  }
  inProcess.set(new URL(proxy.baseUrl).origin, proxy.handle);
  return {
    ...proxy,
    close: async () => {
      inProcess.delete(new URL(proxy.baseUrl).origin);
      if (inProcess.size === 0 && socketFetch) {
        globalThis.fetch = socketFetch;
        socketFetch = undefined;
      }
      await proxy.close();
    },
  };
}

/** The whole kit (every check) against a fresh reference behind this fault, or behind none; `over` adds kit settings. */
export async function wholeKitBehind(
  fault: Pick<Fault, "request" | "response"> | undefined,
  over: Partial<Settings> = {},
): Promise<RunReport> {
  const target = await faultedReference(fault);
  try {
    return await runKit(
      settings(target.baseUrl, {
        operations: undefined,
        numRuns: 1,
        runTimeoutMs: 20_000,
        seed: 7,
        bearerToken,
        ...over,
      }),
    );
  } finally {
    await target.close();
  }
}

/**
 * Run fn over items, results in order: `min` at once, then one more every
 * half second while fewer than `max` run and this process's event loop keeps
 * up (90th percentile delay under `lagMs`). A saturated loop would spread the
 * kit's planned burst of 2 x limit + 3 requests over several rate-limit
 * windows, or let a run finish before the kit's 409 probe arrives: runs are
 * added only while there is CPU to spare, on a quiet machine or a busy one.
 */
async function adaptivePool<T, R>(
  items: T[],
  o: { min: number; max: number; lagMs: number },
  fn: (item: T) => Promise<R>,
): Promise<{ out: R[]; peak: number; rss: number }> {
  const out: R[] = new Array(items.length);
  const inflight = new Set<Promise<void>>();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let next = 0;
  let peak = 0;
  let rss = 0;
  try {
    while (next < items.length) {
      if (inflight.size >= o.min) {
        loop.reset();
        await sleep(500);
        rss = Math.max(rss, process.memoryUsage.rss());
        if (inflight.size >= o.max || loop.percentile(90) / 1e6 > o.lagMs) continue;
      }
      const i = next++;
      const p: Promise<void> = fn(items[i]!)
        .then((r) => void (out[i] = r))
        .finally(() => inflight.delete(p));
      inflight.add(p);
      peak = Math.max(peak, inflight.size);
    }
    rss = Math.max(rss, process.memoryUsage.rss());
    await Promise.all(inflight);
  } finally {
    loop.disable();
  }
  return { out, peak, rss };
}

const outcomes = (r: RunReport) =>
  JSON.stringify(
    r.results
      .filter((x) => x.outcome !== "pass")
      .map((x) => [
        x.id,
        x.outcome,
        x.skipReason?.slice(0, 80),
        x.failures[0]?.title?.slice(0, 120),
        x.error?.split("\n")[0],
      ]),
  );

/** The faults of one shard: every MUTATION_SHARDS-th fault from `index` (0-based), so the groups spread over the shards. */
export function shardOf(index: number, list: Fault[] = faults): Fault[] {
  return list.filter((_, i) => i % MUTATION_SHARDS === index);
}

/** Did this whole-kit run give the verdict its fault calls for (no fault: nothing fails)? */
function asExpected(fault: Fault | undefined, r: RunReport | Error): boolean {
  if (r instanceof Error) return false;
  if (!fault) return unexpectedFailures(r).length === 0;
  const res = r.results.find((x) => x.id === fault.expect);
  if (fault.control) return unexpectedFailures(r).length === 0 && res?.outcome === "pass" && res.warnings.length > 0;
  return res?.outcome === "fail";
}

/**
 * A fault's run: first the checks it names (its `expect` plus `only`, the
 * checks it needs), which is the check a user would run with --only; when
 * that does not give the expected verdict, the whole kit behind the same
 * fault decides (a check may need state another check builds). The two
 * whole-kit baselines of each shard still hold every check on the plain
 * reference, so a fault counts only for a check that passes there.
 */
async function scopedFirst(fault: Fault): Promise<RunReport> {
  const scoped = await wholeKitBehind(fault, { only: [...new Set([fault.expect, ...(fault.only ?? [])])] });
  return asExpected(fault, scoped) ? scoped : await wholeKitBehind(fault);
}

/** More unexpected verdicts than this in a shard is not a busy machine: they are reported without a second run. */
const RERUN_CAP = 8;

/**
 * One shard of the harness: the baseline (no fault, twice) and this shard's
 * faults, all in one pool; each fault is then judged against the baseline. A
 * run whose verdict is not the expected one runs once more, alone in its
 * shard: on a saturated machine the kit's planned burst can spread over
 * several rate-limit windows, or a run end before a 409 probe, which says
 * nothing about the fault. The second run's verdict is final, and the shard
 * prints which runs needed it.
 */
export function mutationShard(index: number): void {
  const MAX = Number(process.env.SLK_MUTATION_PARALLEL ?? 12);
  // SLK_MUTATION_ONLY=mcp-,aud- runs the faults whose id starts with one of these (while working on them)
  const ONLY = process.env.SLK_MUTATION_ONLY?.split(",").filter(Boolean);
  const mine = shardOf(index).filter((f) => !ONLY || ONLY.some((p) => f.id.startsWith(p)));
  const reports = new Map<string, RunReport | Error>();
  let baseline: RunReport | Error;
  /** Checks that pass with no fault: a fault aimed at a check the reference cannot exercise is left out, and said. */
  let catchable = new Set<string>();

  describe(`mutation harness, shard ${index + 1} of ${MUTATION_SHARDS} (whole kit behind each fault)`, () => {
    beforeAll(async () => {
      const t0 = Date.now();
      const cpu0 = process.cpuUsage();
      // two baselines side by side: the first runs start while the shards load and the gates compile,
      // the busiest moment, and one holding is enough (a run alone at the end otherwise)
      const B = 2;
      const runs: Array<Fault | undefined> = [undefined, undefined, ...mine];
      const walls: number[] = [];
      const judge = async (fault: Fault | undefined): Promise<RunReport | Error> => {
        const started = Date.now();
        try {
          // a verdict needs the results only; the exchanges (megabytes a run) go at once
          const r = fault ? await scopedFirst(fault) : await wholeKitBehind(fault);
          return { ...r, exchanges: [] } as RunReport;
        } catch (e) {
          return e as Error;
        } finally {
          walls.push(Date.now() - started);
        }
      };
      const passing = (r: RunReport | Error) =>
        new Set(r instanceof Error ? [] : r.results.filter((x) => x.outcome === "pass").map((x) => x.id));
      const { out: done, peak, rss } = await adaptivePool(runs, { min: Math.min(3, MAX), max: MAX, lagMs: 20 }, judge);
      const rescued: string[] = [];
      const again: number[] = [];
      const runAgain = async (i: number) => {
        again.push(i);
        done[i] = await judge(runs[i]);
        if (i === 0 ? baselineHolds(done[0]!) : asExpected(runs[i], done[i]!))
          rescued.push(runs[i]?.id ?? "(no fault)");
      };
      // the baseline as expected: nothing fails, and every check a fault of this shard aims at passes
      const targets = new Set(mine.map((f) => f.expect));
      const baselineHolds = (r: RunReport | Error) =>
        asExpected(undefined, r) && [...passing(r)].filter((id) => targets.has(id)).length === targets.size;
      if (!baselineHolds(done[0]!) && baselineHolds(done[1]!)) done[0] = done[1]!;
      // what kept the baselines from holding, said in the summary
      const why = [0, 1]
        .map((i) => (done[i] instanceof Error ? (done[i] as Error).message : outcomes(done[i] as RunReport)))
        .join(" / ");
      if (!baselineHolds(done[0]!)) await runAgain(0);
      catchable = passing(done[0]!);
      const unexpected = runs
        .map((_, i) => i)
        .filter((i) => i >= B && catchable.has(runs[i]!.expect) && !asExpected(runs[i], done[i]!));
      if (unexpected.length <= RERUN_CAP) for (const i of unexpected) await runAgain(i);
      baseline = done[0]!;
      mine.forEach((f, i) => reports.set(f.id, done[i + B]!));
      const cpu = process.cpuUsage(cpu0);
      const cpuS = (cpu.user + cpu.system) / 1e6;
      walls.sort((a, b) => a - b);
      console.info(
        `mutation shard ${index + 1}/${MUTATION_SHARDS}: ${runs.length} runs (2 whole-kit baselines + ${mine.length} faults/controls, each scoped to its checks first), up to ${peak} at a time, ` +
          `${((Date.now() - t0) / 1000).toFixed(1)} s; a run: median ${(walls[walls.length >> 1]! / 1000).toFixed(1)} s wall, ` +
          `${(cpuS / walls.length).toFixed(2)} s CPU (this process ${cpuS.toFixed(1)} s, at most ${Math.round(rss / 2 ** 20)} MB); baseline ${baseline instanceof Error ? "crashed" : `${baseline.requestCount} requests`}, ${catchable.size} checks pass`,
      );
      const ids = (list: number[]) => list.map((i) => runs[i]?.id ?? "(no fault)").join(", ");
      if (unexpected.length > RERUN_CAP)
        console.info(
          `${unexpected.length} faults gave an unexpected verdict (over ${RERUN_CAP}: not run again): ${ids(unexpected)}`,
        );
      if (again.length)
        console.info(
          `ran again, alone in the shard: ${ids(again)}; as expected the second time: ${rescued.join(", ") || "none"}${again[0] === 0 ? ` (the two baselines: ${why})` : ""}`,
        );
      const out = mine.filter((f) => !catchable.has(f.expect));
      if (out.length)
        console.info(
          `left out (their check does not pass on the reference, so cannot show the fault): ${out.map((f) => `${f.id} → ${f.expect}`).join(", ")}`,
        );
    }, 1_800_000);

    afterAll(() => reports.clear());

    it("passes behind the proxy with no fault", () => {
      if (baseline instanceof Error) throw baseline;
      expect(unexpectedFailures(baseline)).toEqual([]);
    });

    for (const fault of mine) {
      it(`${fault.id} → ${fault.control ? "passes (control)" : `${fault.expect} fails`}`, (t) => {
        if (!catchable.has(fault.expect)) t.skip();
        const r = reports.get(fault.id);
        if (r instanceof Error) throw r;
        const res = r!.results.find((x) => x.id === fault.expect);
        expect(res, `no result for ${fault.expect}`).toBeDefined();
        if (fault.control) {
          expect(unexpectedFailures(r!), outcomes(r!)).toEqual([]);
          expect(res!.outcome).toBe("pass");
          expect(res!.warnings.length).toBeGreaterThan(0);
        } else {
          expect(res!.outcome, `${fault.id}: ${outcomes(r!)}`).toBe("fail");
          // the same run judged at --level seed (no extra request): a fault that breaks a seed rule still fails
          // there, attributed to a row it breaks; one that only re-decides an open point (`decision`) becomes a warning
          const seed = seedLevelCheck(r!, fault);
          expect(
            seed.ok,
            `${fault.id} at --level seed: ${seed.outcome}, expected ${seed.expected}${fault.rows ? ` naming one of ${fault.rows.join(", ")}` : ""}${seed.rows.length ? ` (rows named: ${seed.rows.join(", ")})` : ""}`,
          ).toBe(true);
        }
      });
    }
  });
}
