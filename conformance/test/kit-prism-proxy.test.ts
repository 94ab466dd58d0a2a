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

  // the MCP endpoint is not part of the OpenAPI document, so Prism answers it with its own 404: not a finding
  it("passes; Prism flagged no response (no problem+json, no 5xx)", () => {
    expect(unexpectedFailures(report)).toEqual([]);
    expect(
      report.exchanges
        .filter(
          (e) => !e.meta.mcp && !e.path.startsWith("/mcp") && /problem\+json/.test(e.headers["content-type"] ?? ""),
        )
        .map((e) => `${e.method} ${e.path} ${e.status} ${e.text.slice(0, 200)}`),
    ).toEqual([]);
  });

  it("skips only the checks that send contract-invalid requests", () => {
    // (checks of groups outside the scope, or of an MCP endpoint the reference does not serve, skip for their own reasons)
    expect(
      report.results
        .filter((r) => r.outcome === "skip" && /validating proxy/.test(r.skipReason ?? ""))
        .map((r) => r.id)
        .sort(),
    ).toEqual([
      "auth-missing-key-401",
      "body-limit-413",
      "chat-messages-query-rejected",
      "content-type-415",
      "credit-prices-removed-404",
      "impossible-date-422",
      "invalid-request-rejected",
      "malformed-json-rejected",
      "openapi-document-published",
      "transport-inputs-documented",
      "validation-loc-accurate",
    ]);
    for (const r of report.results.filter((x) => x.outcome === "skip"))
      expect(r.skipReason, r.id).toMatch(/validating proxy|contract lacks|MCP|mcp/);
  });
});
