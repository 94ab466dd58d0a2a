// Deviation mode of the mutation harness: the whole kit against a deployment
// that follows the seed and decides 25 open points its own way
// (mutation/deviations.ts). At --level contract each re-decided point fails
// and names its decision; at --level seed the run passes with one warning per
// decision; a --write-deviations file makes the contract-level run pass, and
// the same file is stale (the run fails) once one deviation is gone from the
// deployment. Seed-rule faults of the single-rule harness still fail at
// --level seed, and a group the deployment does not serve is one warning with
// its checks skipped. Two whole-kit runs (in parallel) and a few scoped ones.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { allChecks } from "../src/registry.ts";
import { runKit, type RunReport } from "../src/runner.ts";
import { settle } from "../src/verdict.ts";
import { loadDeviations, writeDeviations, type DeviationEntry } from "../src/deviations.ts";
import type { CheckResult, Settings } from "../src/types.ts";
import { deviatingDeployment, deviations, groupNotServed, strictDecisions } from "../mutation/deviations.ts";
import { faults } from "../mutation/faults.ts";
import { DECISION_FAULTS } from "../mutation/deviations-levels.ts";
import { startProxy, type Fault } from "../mutation/proxy.ts";
import { demoKeys, settings, startReference } from "./helpers.ts";

/** The kit against a fresh reference behind the proxy (50 requests/second, 25 ms pipeline steps, as the mutation harness). */
async function behind(fault: Fault | undefined, over: Partial<Settings> = {}): Promise<RunReport> {
  const ref = await startReference({ rateLimitPerSecond: 50, stepDelayMs: 25 });
  const proxy = await startProxy(ref.baseUrl, fault, demoKeys());
  try {
    return await runKit(
      settings(proxy.baseUrl, { operations: undefined, numRuns: 1, runTimeoutMs: 15_000, seed: 7, ...over }),
    );
  } finally {
    await proxy.close();
    await ref.close();
  }
}

/** The same results judged again at another level or with deviations (settle re-attributes from scratch). */
const rejudge = (r: RunReport, s: Partial<Settings>) => {
  const results: CheckResult[] = structuredClone(r.results);
  return { results, verdict: settle(results, s) };
};
const failing = (results: CheckResult[]) =>
  results
    .filter((x) => x.outcome === "fail" || x.outcome === "error")
    .map((x) => `${x.id}: ${x.failures[0]?.title ?? x.error?.split("\n")[0]}`);

const DROPPED = "cursor-422";
let full: RunReport;
let dropped: RunReport;
let entries: DeviationEntry[];
const decided = strictDecisions();

describe("deviation mode (a deployment that decides open points its own way)", () => {
  beforeAll(async () => {
    const t0 = Date.now();
    [full, dropped] = await Promise.all([
      behind(deviatingDeployment()),
      behind(deviatingDeployment(deviations.filter((d) => d.id !== DROPPED))),
    ]);
    console.info(
      `deviating deployment: two whole-kit runs in ${((Date.now() - t0) / 1000).toFixed(1)} s (${full.requestCount} and ${dropped.requestCount} requests)`,
    );
    const file = join(mkdtempSync(join(tmpdir(), "slk-deviations-")), "deviations.json");
    writeDeviations(
      file,
      full.results.flatMap((r) => r.failures),
    );
    entries = loadDeviations(
      file,
      allChecks.map((c) => c.id),
    );
  }, 240_000);

  it("re-decides at least 25 open points, each a row of the decision table", () => {
    expect(decided.length).toBeGreaterThanOrEqual(25);
  });

  it("--level contract: each re-decided point fails and names its decision; no failure is put on a seed rule or on another decision", () => {
    const v = full.verdict;
    expect(v.level).toBe("contract");
    const failures = full.results.flatMap((r) => r.failures);
    const named = [...new Set(failures.map((f) => f.attribution?.decision ?? "(seed rule)"))].sort();
    const seen = (d: string) =>
      failures.filter((f) => (f.attribution?.decision ?? "(seed rule)") === d).map((f) => f.title.slice(0, 140));
    expect(
      named,
      JSON.stringify({
        missing: decided.filter((d) => !named.includes(d)),
        extra: named.filter((d) => !decided.includes(d)).map((d) => [d, seen(d)]),
        skipped: full.results.filter((r) => r.outcome === "skip").map((r) => `${r.id}: ${r.skipReason}`),
      }),
    ).toEqual([...decided].sort());
    expect(v.counts.seedFailures).toBe(0);
    expect(v.counts.decisionFailures).toBe(failures.length);
    for (const f of failures) expect(f.attribution?.decided, f.title).toBeTruthy();
  });

  it("--level seed: the run passes with one warning per decided point", () => {
    const { results, verdict } = rejudge(full, { level: "seed" });
    expect(failing(results)).toEqual([]);
    expect(results.some((r) => r.outcome === "pass")).toBe(true);
    expect(verdict.demotedDecisions.map((d) => d.decision).sort()).toEqual([...decided].sort());
    expect(verdict.counts).toMatchObject({ seedFailures: 0, decisionFailures: 0 });
  });

  it("the lenient row it decides otherwise (2xx status info) is a warning at both levels, never a failure", () => {
    for (const level of ["contract", "seed"] as const) {
      const { results } = rejudge(full, { level });
      const status = results.find((r) => r.id === "status-string-mapping")!;
      expect(status.outcome, level).toBe("pass");
      expect(status.warnings.some((w) => w.startsWith("D-STATUS-STRING"))).toBe(true);
    }
  });

  it("--write-deviations: one entry per failed decision; with that file the contract-level run passes, every entry in use", () => {
    expect(entries.map((e) => e.decision).sort()).toEqual([...decided].sort());
    const { results, verdict } = rejudge(full, { deviations: entries });
    expect(failing(results)).toEqual([]);
    expect(verdict.ok).toBe(true);
    expect(verdict.deviations.filter((d) => d.matched === 0)).toEqual([]);
    expect(verdict.counts.accepted).toBe(full.verdict.counts.decisionFailures);
  });

  it(`an entry whose deviation the deployment dropped (${DROPPED}) is stale and fails the run; the others still accept theirs`, () => {
    const { results, verdict } = rejudge(dropped, { deviations: entries });
    expect(failing(results)).toEqual([]);
    expect(verdict.deviations.filter((d) => d.stale).map((d) => d.label)).toEqual(["D-CURSOR"]);
    expect(verdict.ok).toBe(false);
  });
});

describe("seed-rule faults still fail at --level seed", () => {
  it("names only faults of the harness as decision faults (the rest break seed rules)", () => {
    expect(Object.keys(DECISION_FAULTS).filter((id) => !faults.some((f) => f.id === id))).toEqual([]);
    expect(faults.filter((f) => !f.control && !(f.id in DECISION_FAULTS)).length).toBeGreaterThanOrEqual(120);
  });

  // a sample of the single-rule harness (one per area), each run scoped to its check: cheap
  // (all of them: `npx tsx conformance/mutation/deviations-levels.ts`, about 80 s)
  const sample = [
    "page-overlaps-previous",
    "foreign-dataset-leaks",
    "settlement-off-by-a-cent",
    "missing-ratelimit-remaining",
    "completed-run-moves-back",
    "chat-visible-to-other-seat",
    "aud-no-completed-run-insufficient",
    "mcp-list-end-cursor-set",
  ];
  for (const id of sample) {
    it(
      id,
      async () => {
        const fault = faults.find((f) => f.id === id)!;
        const r = await behind(fault, { only: [...new Set([fault.expect, ...(fault.only ?? [])])], level: "seed" });
        const res = r.results.find((x) => x.id === fault.expect)!;
        expect(res.outcome, JSON.stringify(res.failures.map((f) => f.title))).toBe("fail");
        expect(res.failures.every((f) => f.attribution?.kind === "seed")).toBe(true);
      },
      120_000,
    );
  }
});

describe("a group the deployment does not serve", () => {
  it("is one served-groups warning (a seed-scope finding) at both levels, and its checks are skipped, not failed", async () => {
    const only = ["tracking-agent-pause-resume", "tracking-agent-patch", "pagination-limit-respected"];
    const r = await behind(groupNotServed("/v1/tracking_agents"), { only, level: "seed" });
    const sg = r.results.find((x) => x.id === "served-groups")!;
    expect(sg.warnings.filter((w) => /tracking/i.test(w))).toHaveLength(1);
    expect(r.results.filter((x) => x.id.startsWith("tracking-agent-")).map((x) => x.outcome)).toEqual(["skip", "skip"]);
    for (const level of ["contract", "seed"] as const)
      expect(failing(rejudge(r, { level }).results), level).toEqual([]);
  }, 120_000);
});
