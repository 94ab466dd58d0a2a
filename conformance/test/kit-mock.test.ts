// The stateless subset of the kit against the Prism mock of the generated contract.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runKit, type RunReport } from "../src/runner.ts";
import { settings, startPrism, type Target } from "./helpers.ts";

let prism: Target;
let report: RunReport;

describe("conformance kit vs the Prism mock (mock-applicable checks only)", () => {
  beforeAll(async () => {
    prism = await startPrism();
    report = await runKit(settings(prism.baseUrl, { mock: true, operations: undefined, keys: { main: "demo-key" } }));
  }, 120_000);
  afterAll(async () => prism?.close());

  it("passes the stateless subset", () => {
    const bad = report.results.filter((r) => r.outcome === "fail" || r.outcome === "error");
    expect(bad.map((r) => ({ id: r.id, failures: r.failures.slice(0, 2), error: r.error }))).toEqual([]);
    expect(report.results.filter((r) => r.outcome === "pass").length).toBeGreaterThanOrEqual(8);
  });

  it("skips every check that needs state, saying why", () => {
    for (const r of report.results.filter((x) => x.outcome === "skip")) expect(r.skipReason).toBeTruthy();
  });
});
