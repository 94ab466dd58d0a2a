// The single-rule faults of the mutation harness at --level seed. A fault
// names what it breaks: ledger rows (`rows`, a rule the seed states), or a D-
// row (`decision`, a point the seed leaves open). A seed-rule fault must still
// fail its check at --level seed, and when the check declares its assertions
// the failure must be attributed to one of the fault's rows: a fault caught
// only by a finding about something else is not caught. A decision fault's
// check passes or skips at --level seed, with the decision as a warning, and
// fails at --level contract. `npx tsx conformance/mutation/deviations-levels.ts`
// runs every fault scoped to its check at both levels (about 80 s).
import type { RunReport } from "../src/runner.ts";
import { settle } from "../src/verdict.ts";
import type { Fault } from "./proxy.ts";

export interface SeedLevelVerdict {
  outcome: string;
  expected: "fail" | "pass-or-skip";
  /** a seed-rule fault: the rows the seed-level failures of its check were attributed to (empty when none named a row) */
  rows: string[];
  /** whether the seed-level verdict is the expected one */
  ok: boolean;
}

/** The fault's check judged again at --level seed. */
export function seedLevelCheck(
  report: Pick<RunReport, "results">,
  fault: Pick<Fault, "id" | "expect" | "rows" | "decision">,
): SeedLevelVerdict {
  const results = structuredClone(report.results);
  settle(results, { level: "seed" });
  const r = results.find((x) => x.id === fault.expect);
  const outcome = r?.outcome ?? "missing";
  const expected = fault.decision ? "pass-or-skip" : "fail";
  const rows = [...new Set((r?.failures ?? []).flatMap((f) => f.attribution?.rows ?? []))];
  if (expected === "pass-or-skip") return { outcome, expected, rows, ok: outcome !== "fail" };
  // a check that names rows on its findings must name one the fault breaks
  const named = rows.length > 0;
  const hit = !named || !fault.rows?.length || fault.rows.some((row) => rows.includes(row));
  return { outcome, expected, rows, ok: outcome === "fail" && hit };
}

// npx tsx conformance/mutation/deviations-levels.ts: every fault, scoped to its check, at both levels
if (process.argv[1] && /deviations-levels\.ts$/.test(process.argv[1])) {
  const { runKit } = await import("../src/runner.ts");
  const { faults } = await import("./faults.ts");
  const { startProxy } = await import("./proxy.ts");
  const { demoKeys, settings, startReference } = await import("../test/helpers.ts");
  const rows: string[] = [];
  const queue = faults.filter((f) => !f.control);
  let wrong = 0;
  await Promise.all(
    [1, 2, 3].map(async () => {
      for (let f = queue.shift(); f; f = queue.shift()) {
        const ref = await startReference({ rateLimitPerSecond: 50, stepDelayMs: 25 });
        const proxy = await startProxy(ref.baseUrl, f, demoKeys());
        try {
          const r = await runKit(
            settings(proxy.baseUrl, {
              operations: undefined,
              numRuns: 1,
              runTimeoutMs: 15_000,
              seed: 7,
              bearerToken: "slat_demoA_owner_cdf685bf3d1aca9e",
              only: [...new Set([f.expect, ...(f.only ?? [])])],
            }),
          );
          const contract = r.results.find((x) => x.id === f.expect)?.outcome;
          const seed = seedLevelCheck(r, f);
          const ok = contract !== "fail" || seed.ok;
          if (!ok) wrong++;
          rows.push(
            `${ok ? "ok  " : "BAD "} ${f.id.padEnd(38)} contract ${String(contract).padEnd(5)} seed ${seed.outcome.padEnd(5)} (expected ${seed.expected}${seed.rows.length ? `; rows ${seed.rows.join(", ")}` : ""})`,
          );
        } finally {
          await proxy.close();
          await ref.close();
        }
      }
    }),
  );
  console.log(rows.sort().join("\n"));
  console.log(
    `${rows.length} faults; ${wrong} judged otherwise than their rows or decision say (a fault whose check does not fail at contract level when scoped is not judged)`,
  );
  process.exit(wrong ? 1 : 0);
}
