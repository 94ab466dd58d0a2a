// One run through `prism proxy --errors` in front of the reference: a second,
// independent validator checks every response the kit provokes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runKit, type RunReport } from "../src/runner.ts";
import { settings, startPrism, startReference, unexpectedFailures, type Target } from "./helpers.ts";

let ref: Target;
let prism: Target;
let report: RunReport;

describe("conformance kit through prism proxy --errors in front of the reference", () => {
  beforeAll(async () => {
    ref = await startReference({ rateLimitPerSecond: 20 });
    prism = await startPrism(ref.baseUrl);
    report = await runKit(settings(prism.baseUrl, { validatingProxy: true }));
  }, 180_000);
  afterAll(async () => {
    await prism?.close();
    await ref?.close();
  });

  it("passes; Prism flagged no response (no problem+json, no 5xx)", () => {
    expect(unexpectedFailures(report)).toEqual([]);
    expect(report.exchanges.filter((e) => /problem\+json/.test(e.headers["content-type"] ?? "")).map((e) => `${e.method} ${e.path} ${e.status} ${e.text.slice(0, 200)}`)).toEqual([]);
  });

  it("skips only the checks that send contract-invalid requests", () => {
    expect(report.results.filter((r) => r.outcome === "skip").map((r) => r.id).sort()).toEqual(["auth-missing-key-401", "credit-prices-removed-404", "invalid-request-rejected", "malformed-json-rejected", "validation-loc-accurate"]);
  });
});
