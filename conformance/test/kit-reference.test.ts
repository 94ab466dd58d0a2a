// The kit against the reference server, in-process. The reference runs with a
// high rate limit and no pipeline delay so the suite takes seconds; the
// figures at the default 5 requests per second are measured for the README by
// conformance/scripts/measure-requests.ts, not asserted here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runKit, type RunReport } from "../src/runner.ts";
import { writeReports } from "../src/reporters/files.ts";
import { settings, startReference, unexpectedFailures, type Target } from "./helpers.ts";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let target: Target;
let report: RunReport;

describe("conformance kit vs the reference server (standard profile)", () => {
  beforeAll(async () => {
    target = await startReference({ rateLimitPerSecond: 50, stepDelayMs: 0 });
    report = await runKit(settings(target.baseUrl));
    console.info(
      `core suite vs reference: ${(report.ms / 1000).toFixed(1)} s, ${report.requestCount} requests ${JSON.stringify(report.requestsByKey)}, ${report.unplanned429} unplanned 429`,
    );
  }, 120_000);
  afterAll(async () => target?.close());

  it("passes every applicable check (apart from known findings against the reference)", () => {
    expect(unexpectedFailures(report)).toEqual([]);
    expect(report.results.filter((r) => r.outcome === "pass").length).toBeGreaterThanOrEqual(35);
  });

  // Its duration is printed above and reported in the README, not asserted:
  // wall time on a shared CI machine is no test verdict.
  it("stays within the request budget, with no unplanned 429", () => {
    expect(report.requestCount).toBeLessThan(1500);
    expect(report.unplanned429).toBe(0);
  });

  it("cleans up everything it created", () => {
    expect(report.cleanup.failed).toEqual([]);
    expect(report.cleanup.deleted).toBeGreaterThan(0);
  });

  it("writes JUnit XML and the coverage ledger", () => {
    const dir = mkdtempSync(join(tmpdir(), "slk-report-"));
    writeReports(dir, report);
    const xml = readFileSync(join(dir, "junit.xml"), "utf8");
    expect(xml).toContain("<testsuite");
    expect(xml).toContain('name="response-schema-conformance"');
    const ledger = JSON.parse(readFileSync(join(dir, "coverage.json"), "utf8"));
    expect(
      ledger.rows.some((r: any) => r.operation === "POST /v1/datasets" && r.status === "201" && r.verdict === "pass"),
    ).toBe(true);
    expect(readFileSync(join(dir, "coverage.md"), "utf8")).toContain("| Operation |");
  });
});

describe("readonly profile", () => {
  it("never creates or charges anything", async () => {
    const t = await startReference({ rateLimitPerSecond: 50 });
    try {
      const r = await runKit(settings(t.baseUrl, { profile: "readonly" }));
      // searches are POSTs that read (the contract documents 200, not 201/202, for them): allowed in readonly
      const search = (e: (typeof r.exchanges)[number]) =>
        e.method === "POST" && !!e.op?.responses.has("200") && !e.op.responses.has("201") && !e.op.responses.has("202");
      // MCP exchanges are JSON-RPC POSTs: reads, except a call of the one writing tool (svc__ask)
      expect(
        r.exchanges
          .filter(
            (e) => e.meta.mcp && /"svc__ask"/.test(e.requestBody ?? "") && /tools\/call/.test(e.requestBody ?? ""),
          )
          .map((e) => e.requestBody),
      ).toEqual([]);
      r.exchanges.splice(0, r.exchanges.length, ...r.exchanges.filter((e) => !e.meta.mcp));
      const writes = r.exchanges.filter((e) => e.method !== "GET" && e.status < 300 && !search(e));
      expect(writes.map((e) => `${e.method} ${e.path} → ${e.status}`)).toEqual([]);
      expect(
        r.exchanges
          .filter((e) => e.method === "POST" && e.keyRole !== "none" && e.keyRole !== "invalid" && !search(e))
          .map((e) => `${e.method} ${e.path}`),
      ).toEqual([]);
      expect(unexpectedFailures(r)).toEqual([]);
      expect(r.spentUsd).toBe("0");
    } finally {
      await t.close();
    }
  }, 120_000);
});

describe("budget guard", () => {
  it("skips chargeable checks that would exceed --budget", async () => {
    const t = await startReference({ rateLimitPerSecond: 50 });
    try {
      const r = await runKit(
        settings(t.baseUrl, { budgetUsd: 0.1, only: ["billing-settlement-exact", "run-state-machine"] }),
      );
      // every check (the served-groups preflight row is not a check and charges nothing)
      for (const x of r.results.filter((y) => y.id !== "served-groups")) {
        expect(x.outcome).toBe("skip");
        expect(x.skipReason).toMatch(/budget/);
      }
      expect(r.exchanges.filter((e) => e.method === "POST" && e.path.endsWith("/runs"))).toEqual([]);
    } finally {
      await t.close();
    }
  }, 60_000);
});
