// The kit, only some checks, against a fresh reference behind a proxy's
// hooks; "instant": every answer waits until no run is in flight, so each
// run the kit starts has ended before its first read (a fast deployment).
import { createApp } from "../../reference-impl/src/app.ts";
import { startProxy, type Fault } from "../mutation/proxy.ts";
import { runKit, type RunReport } from "../src/runner.ts";
import { demoKeys, settings } from "./helpers.ts";

export type Hooks = Pick<Fault, "request" | "response">;

/** The kit (only these checks) against a fresh reference behind `hooks`; `instant`: every answer waits until no run is in flight. */
export async function kitBehind(hooks: Hooks, only: string[], o: { instant?: boolean } = {}): Promise<RunReport> {
  const { app, pipeline } = createApp({
    rateLimitPerSecond: 50,
    stepDelayMs: o.instant ? 0 : 25,
    logger: () => undefined,
  });
  const idle = async () => {
    while (pipeline.running > 0) await new Promise((r) => setTimeout(r, 1));
  };
  const proxy = await startProxy(
    app.fetch,
    {
      request: hooks.request,
      response: async (q, res, s) => {
        if (o.instant) await idle();
        return hooks.response ? hooks.response(q, res, s) : res;
      },
    },
    demoKeys(),
  );
  try {
    return await runKit(
      settings(proxy.baseUrl, { operations: undefined, numRuns: 1, runTimeoutMs: 15_000, seed: 7, only }),
    );
  } finally {
    await proxy.close();
  }
}
