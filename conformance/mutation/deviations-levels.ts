// The single-rule faults of the mutation harness at --level seed. Most break
// a rule the seed states and must still fail there; the ones listed in
// DECISION_FAULTS break a contract decision on an open point instead (their
// check then passes or skips at --level seed, with the decision as a warning).
// The list was made by running every fault, scoped to its check, at both
// levels (`npx tsx conformance/mutation/deviations-levels.ts`, about 80 s),
// and reviewing each entry against its D- row; `seedLevelCheck` lets a whole-
// kit harness run judge the same at no extra request.
import type { RunReport } from "../src/runner.ts";
import { settle } from "../src/verdict.ts";
import type { Fault } from "./proxy.ts";

/** Faults that break a contract decision (the D- row their check's finding names), not a seed rule. */
export const DECISION_FAULTS: Record<string, string> = {
  "validation-loc-wrong": "D-422 (loc names the broken field)",
  "impossible-date-accepted": "D-BOUND-DATE",
  "body-limit-400": "D-BODY-LIMIT",
  "content-type-ignored": "D-CONTENT-TYPE",
  "me-usage-total-off": "D-ME-USAGE",
  "ratelimit-headers-on-401": "D-AUTH-ORDER",
  "aud-unknown-source-400": "D-AUD-RUN-SOURCE-404",
  "filter-value-length-unchecked": "D-BOUND-ARRAYS / D-BOUND-STRINGS",
  "aud-deleted-source-accepted-code": "D-AUD-RUN-SOURCE-404",
  "preview-url-listed-twice": "D-PREVIEW-URL-LISTS",
  "preview-future-since-accepted": "D-PREVIEW-FUTURE",
  "cp-empty-name-409": "D-400",
  "cp-errors-charged": "D-CPR-ERROR-CHARGE",
  "cp-in-flight-400": "D-409",
  "cp-values-unasked": "D-MENTION-PARAMETERS",
  "cp-run-unknown-dataset-400": "D-CPR-SCOPE-404",
  "cp-run-empty-dataset-402": "D-400",
  "ta-paused-keeps-next-run": "D-TA-NEXT-RUN",
  "ta-pause-200-with-body": "D-EMPTY-204 (the status; the body itself fails empty-body-204 as a seed rule)",
  "ta-trigger-in-progress-400": "D-409",
  "ta-no-queries-409": "D-400",
  "ta-cycle-reserves-short": "D-TA-NO-QUERIES (reservation per dataset run)",
  "ask-unknown-chat-accepted": "D-ASK-UNKNOWN-CHAT",
  "usage-history-oldest-first": "D-USAGE-ORDER",
  "mcp-metadata-no-authorization-servers": "D-MCP-OAUTH-METADATA",
  "mcp-tool-error-structured": "D-MCP-TOOL-ERROR",
  "audience-run-count-as-string": "D-AUD-RUN-COUNTS (the seed lists the audience run's counts without a type)",
  "mcp-readonly-hint-missing": "D-MCP-ANNOTATIONS (the seed never mentions tool annotations)",
  "mcp-401-unquoted-metadata": "D-OAUTH (the quoting of resource_metadata)",
  "mcp-tool-error-generic-code": "D-MCP-TOOL-ERROR (the seed mirrors the status, not the code)",
  "mcp-list-datasets-reordered": "D-MCP-PAGING (same items, another order)",
  "mcp-invalid-cursor-ignored": "D-MCP-PAGING",
};

/** The fault's check judged again at --level seed: "fail" expected for a seed-rule fault. */
export function seedLevelCheck(
  report: Pick<RunReport, "results">,
  fault: Pick<Fault, "id" | "expect">,
): { outcome: string; expected: "fail" | "pass-or-skip" } {
  const results = structuredClone(report.results);
  settle(results, { level: "seed" });
  return {
    outcome: results.find((r) => r.id === fault.expect)?.outcome ?? "missing",
    expected: fault.id in DECISION_FAULTS ? "pass-or-skip" : "fail",
  };
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
          const ok =
            contract !== "fail" || (seed.expected === "fail" ? seed.outcome === "fail" : seed.outcome !== "fail");
          if (!ok) wrong++;
          rows.push(
            `${ok ? "ok  " : "BAD "} ${f.id.padEnd(38)} contract ${String(contract).padEnd(5)} seed ${seed.outcome.padEnd(5)} (expected ${seed.expected})`,
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
    `${rows.length} faults; ${wrong} judged otherwise than DECISION_FAULTS says (a fault whose check does not fail at contract level when scoped is not judged)`,
  );
  process.exit(wrong ? 1 : 0);
}
