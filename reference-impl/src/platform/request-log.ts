// One structured line per request (method, path, status, duration, account
// id; never the key, never a body), written by pino so logging costs a few
// microseconds rather than a console write. A client that went away before
// its answer is logged as one short "request aborted" line.
import type { Context, MiddlewareHandler } from "hono";
import { pino, type DestinationStream, type Logger } from "pino";
import type { AppEnv } from "./env.ts";
import { batchedStdout } from "./log-destination.ts";
import { nodeBindings } from "./request-headers.ts";

export type { Logger };

export interface LoggerOptions {
  /** pino level: fatal, error, warn, info, debug, trace or silent (default info). */
  level?: string;
  /** Where lines go; default stdout, batched per event-loop turn into pino's sonic-boom writer. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const destination = options.destination ?? batchedStdout();
  return pino(
    { level: options.level ?? "info", base: undefined, timestamp: pino.stdTimeFunctions.epochTime },
    destination,
  );
}

/**
 * Whether the client hung up before its answer. On @hono/node-server the
 * socket says so directly; reading `Request.signal` there would build an
 * AbortController for every request just to ask (throughput).
 * Elsewhere (app.request in tests) the signal is all there is.
 */
function clientWentAway(c: Context<AppEnv>): boolean {
  const incoming = nodeBindings(c).incoming;
  if (incoming) return incoming.socket?.destroyed === true;
  return c.req.raw.signal?.aborted === true;
}

export function requestLog(log: Logger): MiddlewareHandler<AppEnv> {
  function write(c: Context<AppEnv>, started: number): void {
    const entry = {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 100) / 100,
      account: c.get("principal")?.account.id,
    };
    if (clientWentAway(c)) log.info(entry, "request aborted");
    else log.info(entry, "request");
  }
  // Not async: Hono's next() already returns a promise, and an async frame
  // around it made a cheap request cost a third more in some processes
  // (throughput).
  return function logRequest(c, next) {
    const started = performance.now();
    return next().then(() => write(c, started));
  };
}
