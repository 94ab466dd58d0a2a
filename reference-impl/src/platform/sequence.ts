// Several middleware run as one. Hono wraps every matched middleware in its
// own async dispatch (a promise and a microtask each); the platform's chain
// (log, CORS, key, rate limit, body guards) runs on every request, so its
// steps call each other directly and Hono sees one or two middleware instead
// of five (throughput). Order, early answers and thrown errors
// behave exactly as with separate `app.use` calls.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";

export function sequence(...steps: MiddlewareHandler<AppEnv>[]): MiddlewareHandler<AppEnv> {
  return function runSequence(c, next) {
    const run = (i: number): Promise<Response | void> =>
      i === steps.length ? next() : steps[i]!(c, () => run(i + 1) as Promise<void>);
    return run(0);
  };
}
