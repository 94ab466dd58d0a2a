// The faults that change only a default (an omitted `limit`, `order` or run
// body field answered as another value) are caught by the equivalence checks
// at --level seed on a deployment whose runs end at once: behind a proxy that
// answers only when the reference's pipeline is idle (steps at 0 ms), so
// every run the kit starts to fill a list has ended before its first read.
// Each fault runs scoped to its check, as --only would (the mutation harness
// runs them at the usual speed).
import { describe, expect, it } from "vitest";
import { createApp } from "../../reference-impl/src/app.ts";
import { runKit } from "../src/runner.ts";
import { faults } from "../mutation/faults.ts";
import { seedLevelCheck } from "../mutation/deviations-levels.ts";
import { startProxy, type Fault } from "../mutation/proxy.ts";
import { demoKeys, settings } from "./helpers.ts";

/** The checks that judge a default as "omitted ≡ the explicit default". */
const EQUIVALENCE_CHECKS = new Set([
  "pagination-default-limit-equivalent",
  "mentions-default-limit-equivalent",
  "profiles-default-limit-equivalent",
  "usage-history-default-limit-equivalent",
  "pagination-order-default-equivalent",
  "pagination-runs-default-page",
  "dataset-run-defaults-equivalent",
]);
const DEFAULT_FAULTS = faults.filter((f) => !f.control && EQUIVALENCE_CHECKS.has(f.expect));

/** The checks alone against a fresh reference whose runs end before any read, behind the fault's hooks. */
async function instantKit(fault: Pick<Fault, "request" | "response">, only: string[]) {
  const { app, pipeline } = createApp({ rateLimitPerSecond: 50, stepDelayMs: 0, logger: () => undefined });
  const idle = async () => {
    while (pipeline.running > 0) await new Promise((r) => setTimeout(r, 1));
  };
  const proxy = await startProxy(
    app.fetch,
    {
      request: fault.request,
      response: async (q, res, s) => {
        await idle();
        return fault.response ? fault.response(q, res, s) : res;
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

describe("default faults on a deployment whose runs end at once", () => {
  it("holds a fault for every equivalence check", () => {
    expect([...new Set(DEFAULT_FAULTS.map((f) => f.expect))].sort()).toEqual([...EQUIVALENCE_CHECKS].sort());
  });

  it("passes every equivalence check with no fault, each exercised", async () => {
    const r = await instantKit({}, [...EQUIVALENCE_CHECKS]);
    const results = r.results.filter((x) => EQUIVALENCE_CHECKS.has(x.id));
    expect(results.map((x) => [x.id, x.outcome, x.failures[0]?.title ?? x.skipReason ?? x.error])).toEqual(
      [...EQUIVALENCE_CHECKS].map((id) => [id, "pass", undefined]).sort(),
    );
  }, 300_000);

  // three at a time: each run waits mostly on the reference's rate limit
  it("fails each fault's check at --level seed, naming a row the fault breaks", async () => {
    const queue = [...DEFAULT_FAULTS];
    const wrong: string[] = [];
    await Promise.all(
      [1, 2, 3].map(async () => {
        for (let f = queue.shift(); f; f = queue.shift()) {
          const v = seedLevelCheck(await instantKit(f, [f.expect]), f);
          if (process.env.SLK_DEBUG) console.info(f.id, JSON.stringify(v));
          if (!v.ok) wrong.push(`${f.id} → ${f.expect}: ${v.outcome} (rows named: ${v.rows.join(", ") || "none"})`);
        }
      }),
    );
    expect(wrong).toEqual([]);
  }, 900_000);
});
