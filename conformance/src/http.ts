// The kit's HTTP client: one shared limiter per API key that keeps under the
// advertised RateLimit-Limit, honours Retry-After on any 429 a check did not
// plan, and records every exchange (for response-level checks, the coverage
// ledger and curl reproductions with the key redacted).
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

export interface ClientOptions {
  baseUrl: string;
  keys: Partial<Record<KeyRole, string>>;
  contract: Contract;
  initialLimit?: number;
  timeoutMs?: number;
  onExchange?: (ex: Exchange) => void;
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
    const keySpec = o.key ?? "main";
    let keyRole: Exchange["keyRole"];
    let keyValue: string | undefined;
    if (keySpec === "none") keyRole = "none";
    else if (typeof keySpec === "object") {
      keyRole = "invalid";
      keyValue = keySpec.invalid;
    } else {
      keyRole = keySpec;
      keyValue = this.keys[keySpec];
      if (!keyValue) throw new Error(`no API key configured for role ${keySpec}`);
    }
    const headers: Record<string, string> = { accept: "application/json", ...(o.headers ?? {}) };
    if (keyValue !== undefined) headers["x-api-key"] = keyValue;
    let bodyText: string | undefined;
    if (o.rawBody !== undefined) bodyText = o.rawBody;
    else if (o.body !== undefined) bodyText = JSON.stringify(o.body);
    if (bodyText !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type"))
      headers["content-type"] = "application/json";
    // the limiter is shared by everything sent with one key; invalid/no key share one too
    const limiter = this.limiter(keyRole === "invalid" || keyRole === "none" ? "anonymous" : keyRole);
    let retried = 0;
    const timeoutMs = this.opts.timeoutMs ?? 30_000;
    for (;;) {
      if (!o.burst) await limiter.take();
      else limiter.note();
      const started = Date.now();
      const url = o.url ?? this.baseUrl + o.path;
      let res: Response;
      let text: string;
      try {
        // the timeout covers the whole answer, body included (a server that stalls mid-body is a timeout too)
        res = await fetch(url, {
          method: o.method,
          headers,
          body: bodyText,
          redirect: o.redirect ?? "follow",
          signal: AbortSignal.timeout(timeoutMs),
        });
        text = await res.text();
      } catch (e) {
        this.requestCount++;
        const { kind, detail } = transportFailure(e, timeoutMs);
        const err = new TransportError(kind, o.method, url, detail, o.check ?? this.currentCheck, {
          requestHeaders: headers,
          requestBody: bodyText,
          keyRole,
        });
        this.transportErrors.push(err);
        throw err;
      }
      this.requestCount++;
      const resHeaders: Record<string, string> = {};
      res.headers.forEach((v, k) => (resHeaders[k.toLowerCase()] = v));
      if (keyRole !== "none" && keyRole !== "invalid") limiter.observe(resHeaders);
      let json: unknown = undefined;
      let jsonError: string | undefined;
      if (text.length > 0) {
        try {
          json = JSON.parse(text);
        } catch (e) {
          jsonError = (e as Error).message;
        }
      }
      const ex: Exchange = {
        seq: ++this.seq,
        check: o.check ?? this.currentCheck,
        method: o.method,
        url,
        path: o.path,
        keyRole,
        requestHeaders: headers,
        requestBody: bodyText,
        status: res.status,
        headers: resHeaders,
        text,
        json,
        jsonError,
        op: this.opts.contract.match(o.method, o.path.split("?")[0]),
        meta: { ...(o.meta ?? {}), ...(o.burst ? { burst: true } : {}) },
        started,
        ms: Date.now() - started,
        retriedAfter429: retried || undefined,
      };
      this.exchanges.push(ex);
      this.opts.onExchange?.(ex);
      if (res.status === 429 && !o.burst && !o.meta?.planned429 && retried < 4) {
        // an unplanned 429: wait as told, then try again
        this.unplanned429++;
        ex.meta.retried = true;
        retried++;
        const wait = Number(resHeaders["retry-after"]);
        limiter.block((Number.isFinite(wait) && wait > 0 ? wait : 2 ** retried) * 1000 + Math.random() * 200);
        continue;
      }
      return ex;
    }
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
