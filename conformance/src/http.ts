// The kit's HTTP client: one shared limiter per API key that keeps under the
// advertised RateLimit-Limit, honours Retry-After on any 429 a check did not
// plan, and records every exchange (for response-level checks, the coverage
// ledger and curl reproductions with the key redacted). A connection the
// deployment closes never costs the next request its answer: idle connections
// are dropped before a deployment's idle timeout, and a request whose
// connection closed before any byte of an answer is sent once more.
import { Agent, EnvHttpProxyAgent, type Dispatcher } from "undici";
import type { Contract, Operation } from "./contract.ts";

export type KeyRole = "main" | "foreign" | "second" | "poor";
export const keyEnv: Record<KeyRole, string> = {
  main: "SLK_API_KEY",
  foreign: "SLK_FOREIGN_KEY",
  second: "SLK_SECOND_SEAT_KEY",
  poor: "SLK_POOR_KEY",
};

export interface RequestOptions {
  method: string;
  path: string; // concrete path incl. query, e.g. /v1/datasets?limit=2
  /** an absolute URL instead of baseUrl + path (the MCP endpoint may live on its own host) */
  url?: string;
  /** "manual" to see a redirect instead of following it (the MCP 307) */
  redirect?: "follow" | "manual";
  key?: KeyRole | "none" | { invalid: string };
  body?: unknown; // serialised as JSON
  rawBody?: string; // sent verbatim (malformed JSON)
  headers?: Record<string, string>;
  /** bypass the limiter (a planned burst) */
  burst?: boolean;
  /** annotations for response-level checks (e.g. the field a negative case broke) */
  meta?: ExchangeMeta;
  /** the check sending it (defaults to client.currentCheck) */
  check?: string;
}

export interface ExchangeMeta {
  brokenLoc?: string[]; // the loc a 422 must point at
  negative?: string; // description of the negative case
  planned429?: boolean;
  seed?: number;
  path?: string;
  /** an MCP (JSON-RPC) exchange: REST response-level checks do not apply to it */
  mcp?: boolean;
  /** a document outside /v1 (the OpenAPI document, its viewer): REST response-level checks do not apply to it */
  document?: boolean;
  /** sent around the limiter as part of a planned burst */
  burst?: boolean;
  /**
   * a served-groups probe (the control path, a list read, an unknown id, a malformed POST): it only tells served
   * from unserved, so response-level checks leave it alone (a mock or a validating proxy answers the malformed
   * POST itself; an unserved group's finding is its one line; a served group's own checks judge its routes)
   */
  groupProbe?: boolean;
  /** a 429 the client answered by waiting and sending the request again (the next exchange is the retry) */
  retried?: boolean;
}

/**
 * The deployment gave no HTTP answer: it timed out, closed the connection or
 * refused it. Thrown by `HttpClient.request`; the runner turns it into a
 * finding of the check that sent the request, never a crash of the kit.
 */
export class TransportError extends Error {
  constructor(
    readonly kind: "timeout" | "closed" | "refused" | "other",
    readonly method: string,
    readonly url: string,
    readonly detail: string,
    readonly check: string,
    /** what was sent, for a curl line (the key is redacted by `curlOf`) */
    readonly sent: Pick<Exchange, "requestHeaders" | "requestBody" | "keyRole">,
  ) {
    super(`${method} ${url}: ${detail}`);
    this.name = "TransportError";
  }
}

/** What went wrong on the wire, in one line (undici hides the socket error in `cause`). */
export function transportFailure(e: unknown, timeoutMs: number): { kind: TransportError["kind"]; detail: string } {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  const code = err.cause?.code ?? (err as { code?: string }).code;
  const text = `${err.message ?? ""} ${err.cause?.message ?? ""}`;
  if (err.name === "TimeoutError" || err.name === "AbortError" || /aborted due to timeout/i.test(text))
    return { kind: "timeout", detail: `no answer within ${timeoutMs / 1000} s (timed out)` };
  if (code === "ECONNREFUSED") return { kind: "refused", detail: "connection refused (ECONNREFUSED)" };
  if (
    code === "ECONNRESET" ||
    code === "UND_ERR_SOCKET" ||
    code === "EPIPE" ||
    /other side closed|socket hang up|terminated/i.test(text)
  )
    return {
      kind: "closed",
      detail: `connection closed before a complete answer (${code ?? err.cause?.message ?? err.message})`,
    };
  return { kind: "other", detail: [err.message, err.cause?.message].filter(Boolean).join(": ") };
}

export interface Exchange {
  seq: number;
  check: string;
  method: string;
  url: string;
  path: string;
  keyRole: KeyRole | "none" | "invalid";
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
  jsonError?: string;
  op?: Operation;
  meta: ExchangeMeta;
  /** when the request was sent (epoch ms) */
  started?: number;
  ms: number;
  retriedAfter429?: number;
  /** the first attempt's connection closed before any byte of an answer: this answer is the one retry's, on a fresh connection */
  retriedAfterClose?: string;
}

/** Sliding-window limiter: at most `limit` requests in any window of ~1 s. */
export class KeyLimiter {
  limit: number;
  private stamps: number[] = [];
  private blockedUntil = 0;
  private chain: Promise<void> = Promise.resolve();
  constructor(limit: number) {
    this.limit = limit;
  }
  take(): Promise<void> {
    const next = this.chain.then(() => this.acquire());
    this.chain = next.catch(() => undefined);
    return next;
  }
  private async acquire(): Promise<void> {
    const windowMs = 1100; // a margin over one second covers fixed and sliding server windows
    for (;;) {
      const now = Date.now();
      if (now < this.blockedUntil) {
        await sleep(this.blockedUntil - now);
        continue;
      }
      this.stamps = this.stamps.filter((t) => now - t < windowMs);
      if (this.stamps.length < this.limit) {
        this.stamps.push(now);
        return;
      }
      await sleep(windowMs - (now - this.stamps[0]) + 1);
    }
  }
  observe(headers: Record<string, string>): void {
    const lim = Number(headers["ratelimit-limit"]);
    if (Number.isInteger(lim) && lim > 0) this.limit = lim;
    const retry = Number(headers["retry-after"]);
    if (Number.isFinite(retry) && retry > 0) this.block(retry * 1000);
  }
  block(ms: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, Date.now() + ms);
  }
  /** count a request sent around the limiter (a planned burst) */
  note(): void {
    this.stamps.push(Date.now());
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * The connections the kit keeps between requests. A deployment closes an idle
 * connection after its own timeout (5 s for node:http with default settings,
 * 2 s for some servers, less behind some proxies), and a request written on a
 * connection it is closing is lost. So an idle connection is dropped after
 * 1 s, and never reused when the deployment announces `Keep-Alive: timeout=1`
 * (undici keeps 1 s under the announced timeout). undici never reuses a
 * connection after `Connection: close` or once the deployment closed it. The
 * one retry in `HttpClient.send` covers the race that is left (a close already
 * on its way when the kit writes).
 */
const IDLE_MS = 1000;
const connections = dispatcher({
  keepAliveTimeout: IDLE_MS,
  keepAliveMaxTimeout: IDLE_MS,
  keepAliveTimeoutThreshold: 1000,
});

/** Node's own fetch goes through HTTP(S)_PROXY when told to (NODE_USE_ENV_PROXY=1, --use-env-proxy): so does the kit. */
function dispatcher(options: Agent.Options): Dispatcher {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  const viaProxy = process.env.NODE_USE_ENV_PROXY === "1" || flags.includes("--use-env-proxy");
  return viaProxy ? new EnvHttpProxyAgent(options) : new Agent(options);
}

/** One attempt's dispatcher: sends through `via` and notes whether any byte of an answer arrived (the parser began a response). */
class Watched {
  answerStarted = false;
  constructor(private readonly via: Dispatcher) {}
  dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const watched = Object.create(handler) as Dispatcher.DispatchHandler;
    const onResponseStarted = handler.onResponseStarted;
    watched.onResponseStarted = () => {
      this.answerStarted = true;
      onResponseStarted?.call(watched);
    };
    return this.via.dispatch(opts, watched);
  }
}

/** What one attempt gave: an answer, or the failure and whether any byte of an answer had arrived. */
type Attempt = Answer | { failure: ReturnType<typeof transportFailure>; answerStarted: boolean };

/** An HTTP answer, read whole; `retriedAfterClose` says why it is the answer to a second attempt. */
interface Answer {
  res: Response;
  text: string;
  started: number;
  retriedAfterClose?: string;
}

/** What a request sends, the same on every attempt. */
interface Sending {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** the headers as exchanges and reports record them (-H values replaced) */
  recorded: Record<string, string>;
  body: string | undefined;
  redirect: "follow" | "manual";
}

export interface ClientOptions {
  baseUrl: string;
  keys: Partial<Record<KeyRole, string>>;
  contract: Contract;
  initialLimit?: number;
  timeoutMs?: number;
  onExchange?: (ex: Exchange) => void;
  /** -H: headers sent on every request, under the ones a check or the kit sets itself (`withUserHeaders`) */
  headers?: Record<string, string>;
}

/**
 * Headers a user may not give with -H: the kit sends the keys of each role
 * itself (a check of a missing or wrong key must be able to leave them out),
 * sets the content type a check needs, and leaves the framing headers to the
 * HTTP client.
 */
export const RESERVED_HEADERS = [
  "x-api-key",
  "content-type",
  "content-length",
  "host",
  "connection",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
];

/** What an exchange records for a -H header: its value may be a gateway's secret, so reports and cassettes never carry it. */
export const USER_HEADER_RECORDED = "<value given with -H>";

/**
 * The -H headers under the request's own: a header the check or the kit sets
 * (Authorization of a bearer check, Accept, …) wins over a -H header of the
 * same name. Returns the headers to send and the ones to record.
 */
export function withUserHeaders(
  own: Record<string, string>,
  user: Record<string, string> | undefined,
): { send: Record<string, string>; record: Record<string, string> } {
  const taken = new Set(Object.keys(own).map((h) => h.toLowerCase()));
  const send: Record<string, string> = {};
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(user ?? {}))
    if (!taken.has(name.toLowerCase())) {
      send[name] = value;
      record[name] = USER_HEADER_RECORDED;
    }
  return { send: { ...send, ...own }, record: { ...record, ...own } };
}

export class HttpClient {
  readonly baseUrl: string;
  readonly keys: Partial<Record<KeyRole, string>>;
  readonly exchanges: Exchange[] = [];
  private limiters = new Map<string, KeyLimiter>();
  private seq = 0;
  currentCheck = "setup";
  requestCount = 0;
  unplanned429 = 0;
  /** requests that got no HTTP answer (timeouts, closed or refused connections) */
  readonly transportErrors: TransportError[] = [];

  constructor(private opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    this.keys = opts.keys;
  }

  limiter(role: string): KeyLimiter {
    let l = this.limiters.get(role);
    if (!l) {
      // unauthenticated calls carry no RateLimit headers to learn from
      l = new KeyLimiter(role === "anonymous" ? 10 : (this.opts.initialLimit ?? 5));
      this.limiters.set(role, l);
    }
    return l;
  }

  /** set on Ctrl-C: every further request (except cleanup) throws */
  aborted = false;

  async request(o: RequestOptions): Promise<Exchange> {
    if (this.aborted) throw new Error("interrupted");
    const { keyRole, keyValue } = this.keyOf(o.key ?? "main");
    const own: Record<string, string> = { accept: "application/json", ...(o.headers ?? {}) };
    if (keyValue !== undefined) own["x-api-key"] = keyValue;
    let bodyText: string | undefined;
    if (o.rawBody !== undefined) bodyText = o.rawBody;
    else if (o.body !== undefined) bodyText = JSON.stringify(o.body);
    if (bodyText !== undefined && !Object.keys(own).some((h) => h.toLowerCase() === "content-type"))
      own["content-type"] = "application/json";
    const { send: headers, record: recorded } = withUserHeaders(own, this.opts.headers);
    // the limiter is shared by everything sent with one key; invalid/no key share one too
    const limiter = this.limiter(keyRole === "invalid" || keyRole === "none" ? "anonymous" : keyRole);
    const url = o.url ?? this.baseUrl + o.path;
    const sending: Sending = {
      method: o.method,
      url,
      headers,
      recorded,
      body: bodyText,
      redirect: o.redirect ?? "follow",
    };
    let retried = 0;
    for (;;) {
      const ex = this.exchangeOf(o, sending, keyRole, await this.send(o, sending, keyRole, limiter), retried);
      if (keyRole !== "none" && keyRole !== "invalid") limiter.observe(ex.headers);
      this.exchanges.push(ex);
      this.opts.onExchange?.(ex);
      if (ex.status === 429 && !o.burst && !o.meta?.planned429 && retried < 4) {
        // an unplanned 429: wait as told, then try again
        this.unplanned429++;
        ex.meta.retried = true;
        retried++;
        const wait = Number(ex.headers["retry-after"]);
        limiter.block((Number.isFinite(wait) && wait > 0 ? wait : 2 ** retried) * 1000 + Math.random() * 200);
        continue;
      }
      return ex;
    }
  }

  private exchangeOf(
    o: RequestOptions,
    s: Sending,
    keyRole: Exchange["keyRole"],
    answer: Answer,
    retried429: number,
  ): Exchange {
    const headers: Record<string, string> = {};
    answer.res.headers.forEach((v, k) => (headers[k.toLowerCase()] = v));
    let json: unknown = undefined;
    let jsonError: string | undefined;
    if (answer.text.length > 0) {
      try {
        json = JSON.parse(answer.text);
      } catch (e) {
        jsonError = (e as Error).message;
      }
    }
    return {
      seq: ++this.seq,
      check: o.check ?? this.currentCheck,
      method: o.method,
      url: s.url,
      path: o.path,
      keyRole,
      requestHeaders: s.recorded,
      requestBody: s.body,
      status: answer.res.status,
      headers,
      text: answer.text,
      json,
      jsonError,
      op: this.opts.contract.match(o.method, o.path.split("?")[0]),
      meta: { ...(o.meta ?? {}), ...(o.burst ? { burst: true } : {}) },
      started: answer.started,
      ms: Date.now() - answer.started,
      retriedAfter429: retried429 || undefined,
      retriedAfterClose: answer.retriedAfterClose,
    };
  }

  private keyOf(spec: NonNullable<RequestOptions["key"]>): { keyRole: Exchange["keyRole"]; keyValue?: string } {
    if (spec === "none") return { keyRole: "none" };
    if (typeof spec === "object") return { keyRole: "invalid", keyValue: spec.invalid };
    const keyValue = this.keys[spec];
    if (!keyValue) throw new Error(`no API key configured for role ${spec}`);
    return { keyRole: spec, keyValue };
  }

  /**
   * The request on the wire; sent once more, on a fresh connection, when its
   * connection closed before any byte of an answer arrived. That is safe
   * enough for any method: the deployment did not answer, so it either never
   * read the request (a connection it was closing as the kit wrote; an early
   * answer, e.g. 413 to an oversized body, lost in the close) or dropped it
   * without a word, and one that drops it again is reported as before. Never
   * after part of an answer (the deployment acted on it), nor after a timeout
   * (it may still be acting on it). No answer at all throws a TransportError.
   */
  private async send(
    o: RequestOptions,
    sending: Sending,
    keyRole: Exchange["keyRole"],
    limiter: KeyLimiter,
  ): Promise<Answer> {
    const first = await this.attempt(o, sending, limiter, connections);
    if ("res" in first) return first;
    if (first.failure.kind !== "closed" || first.answerStarted) throw this.noAnswer(o, sending, keyRole, first.failure);
    const retriedAfterClose = `${first.failure.detail} and before any byte of one: sent again on a fresh connection`;
    const fresh = dispatcher({});
    try {
      const again = await this.attempt(o, sending, limiter, fresh);
      if ("res" in again) return { ...again, retriedAfterClose };
      throw this.noAnswer(o, sending, keyRole, {
        kind: again.failure.kind,
        detail: `${again.failure.detail} (sent twice: the first connection closed before any answer too)`,
      });
    } finally {
      await fresh.destroy(); // the answer is read whole (or lost): nothing is left in flight
    }
  }

  /** One attempt through `via`; the timeout covers the whole answer, body included (a stall mid-body is a timeout too). */
  private async attempt(o: RequestOptions, s: Sending, limiter: KeyLimiter, via: Dispatcher): Promise<Attempt> {
    if (!o.burst) await limiter.take();
    else limiter.note();
    const started = Date.now();
    const timeoutMs = this.opts.timeoutMs ?? 30_000;
    const watched = new Watched(via);
    // global fetch, called at send time: a test may answer it in-process (it then ignores the dispatcher)
    const init: RequestInit & { dispatcher: Watched } = {
      method: s.method,
      headers: s.headers,
      body: s.body,
      redirect: s.redirect,
      signal: AbortSignal.timeout(timeoutMs),
      dispatcher: watched,
    };
    this.requestCount++;
    try {
      const res = await fetch(s.url, init);
      return { res, text: await res.text(), started };
    } catch (e) {
      return { failure: transportFailure(e, timeoutMs), answerStarted: watched.answerStarted };
    }
  }

  private noAnswer(
    o: RequestOptions,
    s: Sending,
    keyRole: Exchange["keyRole"],
    failure: ReturnType<typeof transportFailure>,
  ): TransportError {
    const err = new TransportError(failure.kind, s.method, s.url, failure.detail, o.check ?? this.currentCheck, {
      requestHeaders: s.recorded,
      requestBody: s.body,
      keyRole,
    });
    this.transportErrors.push(err);
    return err;
  }
}

/** A curl command reproducing the exchange, the key replaced by its environment variable. */
export function curlOf(ex: Pick<Exchange, "method" | "url" | "requestHeaders" | "requestBody" | "keyRole">): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const parts = ["curl", "-sS", "-i", "-X", ex.method, q(ex.url)];
  for (const [k, v] of Object.entries(ex.requestHeaders)) {
    if (k.toLowerCase() === "accept") continue;
    if (k.toLowerCase() === "authorization") {
      parts.push("-H", `"authorization: Bearer $SLK_BEARER_TOKEN"`);
      continue;
    }
    if (k.toLowerCase() === "x-api-key") {
      const redacted =
        ex.keyRole === "invalid" ? "<invalid-key>" : `"$${keyEnv[ex.keyRole as KeyRole] ?? "SLK_API_KEY"}"`;
      parts.push(
        "-H",
        ex.keyRole === "invalid"
          ? q(`x-api-key: ${v.length > 24 ? "<invalid-key>" : v}`)
          : `"x-api-key: ${redacted.slice(1, -1)}"`,
      );
      continue;
    }
    parts.push("-H", q(`${k}: ${v}`));
  }
  if (ex.requestBody !== undefined)
    parts.push("--data-raw", q(ex.requestBody.length > 2000 ? ex.requestBody.slice(0, 2000) + "…" : ex.requestBody));
  return parts.join(" ");
}
