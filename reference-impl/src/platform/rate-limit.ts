// Fixed one-second windows per API key, keyed on the key's SHA-256 digest.
// Every authenticated response, errors included, carries RateLimit-Limit,
// RateLimit-Remaining and RateLimit-Reset; over the cap a 429 with
// retry_after_seconds and Retry-After. One mechanism for REST and MCP.
import type { MiddlewareHandler } from "hono";
import type { Clock } from "./clock.ts";
import { TooManyRequestsError } from "./errors.ts";
import type { AppEnv, Principal } from "./env.ts";
import { nodeBindings } from "./request-headers.ts";

export interface RateLimitOptions {
  /** Requests per second per key (default 5). */
  perSecond: number;
}

interface Window {
  start: number;
  count: number;
}

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  retryAfterSeconds: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  constructor(
    private readonly clock: Clock,
    private readonly options: RateLimitOptions,
  ) {}

  limitFor(principal: Pick<Principal, "account">): number {
    return principal.account.rate_limit ?? this.options.perSecond;
  }

  take(keyDigest: string, limit: number): RateDecision {
    const now = this.clock.now();
    const start = now - (now % 1000);
    let w = this.windows.get(keyDigest);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(keyDigest, w);
      if (this.windows.size > 10_000) this.sweep(start);
    }
    const allowed = w.count < limit;
    if (allowed) w.count++;
    const msLeft = start + 1000 - now;
    return {
      allowed,
      retryAfterSeconds: msLeft / 1000,
      headers: {
        "RateLimit-Limit": String(limit),
        "RateLimit-Remaining": String(Math.max(0, limit - w.count)),
        "RateLimit-Reset": String(Math.max(1, Math.ceil(msLeft / 1000))),
      },
    };
  }

  private sweep(currentStart: number): void {
    for (const [k, w] of this.windows) if (w.start !== currentStart) this.windows.delete(k);
  }
}

export interface RateLimitStamp {
  /**
   * Off Node (`app.request()` in tests): put the headers on the context
   * before the handler runs (`c.header`), so responses built with
   * `c.json`/`c.body` carry them. Only for routes whose every answer is built
   * that way (REST); a handler that returns a raw Response would lose them,
   * so the default stamps the finished response. On Node both modes write
   * them onto the ServerResponse before the handler.
   */
  beforeHandler?: boolean;
}

export function rateLimit(limiter: RateLimiter, stamp: RateLimitStamp = {}): MiddlewareHandler<AppEnv> {
  // Not async: handing back next()'s promise spares an async frame per
  // request; a throw here still reaches onError through Hono's compose.
  return function enforceRateLimit(c, next) {
    const principal = c.get("principal");
    const decision = limiter.take(principal.keyDigest, limiter.limitFor(principal));
    if (!decision.allowed) throw new TooManyRequestsError(decision.retryAfterSeconds, decision.headers);
    const h = decision.headers;
    // On Node the headers go straight onto the ServerResponse, which merges
    // them into whatever is answered (errors, raw Responses and streams
    // included). Through c.header() every answer would carry a WHATWG
    // Headers object that @hono/node-server then copies header by header:
    // about a fifth of a cheap request's cost (throughput).
    const outgoing = nodeBindings(c).outgoing;
    if (outgoing) {
      outgoing.setHeader("RateLimit-Limit", h["RateLimit-Limit"]!);
      outgoing.setHeader("RateLimit-Remaining", h["RateLimit-Remaining"]!);
      outgoing.setHeader("RateLimit-Reset", h["RateLimit-Reset"]!);
      return next();
    }
    if (stamp.beforeHandler) {
      c.header("RateLimit-Limit", h["RateLimit-Limit"]);
      c.header("RateLimit-Remaining", h["RateLimit-Remaining"]);
      c.header("RateLimit-Reset", h["RateLimit-Reset"]);
      return next();
    }
    // An answer that already states the bucket (a JSON-RPC batch that took
    // more than one, an injected 429) keeps its own figures, as on Node,
    // where the answer's headers win over those set here.
    return next().then(() => {
      const headers = c.res.headers;
      for (const k in h) if (!headers.has(k)) headers.set(k, h[k]!);
    });
  };
}
