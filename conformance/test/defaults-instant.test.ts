// The faults that change only a default (an omitted `limit`, `order` or run
// body field answered as another value) are caught by the equivalence checks
// at --level seed on a deployment whose runs end at once: behind a proxy that
// answers only when the reference's pipeline is idle (steps at 0 ms), so
// every run the kit starts to fill a list has ended before its first read.
// Each fault runs scoped to its check, as --only would (the mutation harness
// runs them at the usual speed).
import { describe, expect, it } from "vitest";
import { faults } from "../mutation/faults.ts";
import { seedLevelCheck } from "../mutation/deviations-levels.ts";
import { kitBehind } from "./kit-behind.ts";

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

describe("default faults on a deployment whose runs end at once", () => {
  it("holds a fault for every equivalence check", () => {
    expect([...new Set(DEFAULT_FAULTS.map((f) => f.expect))].sort()).toEqual([...EQUIVALENCE_CHECKS].sort());
  });

  it("passes every equivalence check with no fault, each exercised", async () => {
    const r = await kitBehind({}, [...EQUIVALENCE_CHECKS], { instant: true });
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
          const v = seedLevelCheck(await kitBehind(f, [f.expect], { instant: true }), f);
          if (process.env.SLK_DEBUG) console.info(f.id, JSON.stringify(v));
          if (!v.ok) wrong.push(`${f.id} → ${f.expect}: ${v.outcome} (rows named: ${v.rows.join(", ") || "none"})`);
        }
      }),
    );
    expect(wrong).toEqual([]);
  }, 900_000);
});
