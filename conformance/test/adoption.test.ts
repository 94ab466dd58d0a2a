// What a first user of the kit meets before any check runs: the base URL
// refused in one line when it is wrong, a config file under the flags,
// --min-coverage, and a progress line only where a person watches.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildProgram, applyConfig, coverageVerdict, settingsFrom } from "../src/cli.ts";
import { UsageError, checkBaseUrl } from "../src/preflight.ts";
import { progressEnabled, progressText } from "../src/reporters/progress.ts";
import type { RunReport } from "../src/runner.ts";

describe("adoption", () => {
  it("preflight refuses a base URL already suffixed with /v1, in one line", () => {
    expect(() => checkBaseUrl("http://127.0.0.1:3000/v1")).toThrow(UsageError);
    expect(() => checkBaseUrl("http://127.0.0.1:3000/v1/")).toThrow(/give the deployment root/);
    expect(() => checkBaseUrl("127.0.0.1:3000")).toThrow(UsageError);
    expect(() => checkBaseUrl("http://127.0.0.1:3000")).not.toThrow();
  });
  it("config file values apply under flags and variables", () => {
    const dir = mkdtempSync(join(tmpdir(), "slk-config-"));
    writeFileSync(
      join(dir, "sl-conformance.config.json"),
      JSON.stringify({ "base-url": "http://cfg", profile: "readonly", budget: 3, only: ["a", "b"] }),
    );
    const p = buildProgram().parse(["node", "x", "--profile", "full"]);
    expect(applyConfig(p, undefined, dir)).toContain("sl-conformance.config.json");
    expect(settingsFrom(p.opts())).toMatchObject({
      baseUrl: "http://cfg",
      profile: "full",
      budgetUsd: 3,
      only: ["a", "b"],
    });
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ "api-kee": "x" }));
    expect(() => applyConfig(buildProgram().parse(["node", "x"]), "bad.json", dir)).toThrow(
      /unknown setting "api-kee"/,
    );
  });
  it("--min-coverage fails below the share of operation × status pairs exercised", () => {
    const ledger = { summary: () => ({ pairs: 200, exercised: 90 }) } as unknown as RunReport["ledger"];
    expect(coverageVerdict({ ledger }, 50)?.ok).toBe(false);
    expect(coverageVerdict({ ledger }, 45)?.ok).toBe(true);
    expect(coverageVerdict({ ledger }, undefined)).toBeUndefined();
  });
  it("progress is quiet in CI and off a TTY, and says n/N, requests, elapsed and an estimate", () => {
    expect(progressEnabled(false, { CI: "true" }, true)).toBe(false);
    expect(progressEnabled(false, {}, false)).toBe(false);
    expect(progressEnabled(true, {}, true)).toBe(false);
    expect(progressEnabled(false, {}, true)).toBe(true);
    const line = progressText({
      done: 3,
      total: 10,
      current: "pagination-full-walk",
      requests: 42,
      elapsedMs: 9000,
      rate: 5,
      remaining: ["invalid-request-rejected"],
    });
    expect(line).toMatch(/^\[3\/10\] pagination-full-walk · 42 requests · 9s elapsed · ~(\d+m)?\d+s left at 5 req\/s$/);
  });
});
