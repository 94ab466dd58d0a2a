// --differential runs the same sequence (same seed, same
// checks) against the deployment and against the reference the kit starts
// in-process, and lists per step where they differ. The reference against
// itself differs nowhere; behind a proxy with one fault, exactly that fault.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { differentialText, runDifferential, writeDifferential } from "../src/differential/run.ts";
import { faults } from "../mutation/faults.ts";
import { json, startProxy, type Fault, type RunningProxy } from "../mutation/proxy.ts";
import { demoKeys, settings, startReference, type Target } from "./helpers.ts";

const only = [
  "valid-request-accepted",
  "created-readable-at-once",
  "deleted-gone-everywhere",
  "patch-semantics",
  "foreign-id-404-indistinguishable",
  "billing-settlement-exact",
  "run-state-machine",
  "pagination-full-walk",
  "documented-status-only",
  "response-schema-conformance",
];
// both references alike: the in-process one reads these as `npm start` would
const referenceEnv = { RATE_LIMIT_RPS: "100", STEP_DELAY_MS: "25" };

describe("differential mode", () => {
  // a fresh deployment per test: one that already holds the other test's datasets and charges differs in its data
  let deployment: Target;
  let faulty: RunningProxy | undefined;
  beforeEach(async () => {
    deployment = await startReference({ rateLimitPerSecond: 100, stepDelayMs: 25 });
  });
  afterEach(async () => {
    await faulty?.close();
    faulty = undefined;
    await deployment?.close();
  });

  it("finds no difference between the reference and itself", async () => {
    const run = await runDifferential(settings(deployment.baseUrl, { only, seed: 11 }), { referenceEnv });
    expect(run.inProcess).toBe(true);
    expect(run.result.compared).toBeGreaterThan(30);
    expect(run.result.diffs.map((d) => `${d.check} ${d.step}: ${d.differences.join("; ")}`)).toEqual([]);
    expect(differentialText(run)).toMatch(/no difference/);
  }, 120_000);

  it("shows exactly the one fault a proxy adds, step by step, in the console and in the report folder", async () => {
    faulty = await startProxy(
      deployment.baseUrl,
      faults.find((f) => f.id === "delete-answers-200-with-body"),
      demoKeys(),
    );
    const run = await runDifferential(settings(faulty.baseUrl, { only, seed: 11 }), { referenceEnv });
    expect(run.result.diffs.length).toBeGreaterThan(0);
    for (const d of run.result.diffs) {
      expect(d.on, d.step).toBe("both");
      expect(d.step, `${d.check}: ${d.differences.join("; ")}`).toMatch(/^DELETE \/v1\/datasets\/<id\d+> \[main\]$/);
      // the body differs too, but a shape is compared only between answers of the same status
      expect(d.differences).toEqual(["status: deployment 200, reference 204"]);
    }
    const text = differentialText(run);
    expect(text).toMatch(/≠ deleted-gone-everywhere · DELETE \/v1\/datasets\/<id\d+> \[main\]/);
    expect(text).toMatch(/reproduce: curl -sS -i -X DELETE/);
    const dir = mkdtempSync(join(tmpdir(), "slk-diff-"));
    const [md, json] = writeDifferential(dir, run);
    expect(readFileSync(md, "utf8")).toMatch(/- status: deployment 200, reference 204/);
    expect(JSON.parse(readFileSync(json, "utf8")).diffs).toHaveLength(run.result.diffs.length);
  }, 120_000);

  it("shows a charge that differs as the balance change between two account reads", async () => {
    faulty = await startProxy(
      deployment.baseUrl,
      faults.find((f) => f.id === "settlement-off-by-a-cent"),
      demoKeys(),
    );
    const run = await runDifferential(settings(faulty.baseUrl, { only: ["billing-settlement-exact"], seed: 11 }), {
      referenceEnv,
    });
    expect(run.result.diffs.map((d) => [d.check, d.step, d.differences])).toEqual([
      [
        "billing-settlement-exact",
        "GET /v1/me [main]",
        ["charge since the previous GET /v1/me: deployment 0.0256, reference 0.0356"],
      ],
    ]);
  }, 120_000);

  it("names a run state the deployment calls otherwise once, as a pair of vocabularies", async () => {
    const slow = await startReference({ rateLimitPerSecond: 100, stepDelayMs: 200 });
    const rename: Fault = {
      id: "working-as-processing",
      breaks: "dataset runs are working while they run",
      expect: "run-state-machine",
      response: (_q, res) =>
        res.json?.data?.status?.type === "working"
          ? json(res, {
              ...res.json,
              data: { ...res.json.data, status: { ...res.json.data.status, type: "processing" } },
            })
          : res,
    };
    const renamed = await startProxy(slow.baseUrl, rename, demoKeys());
    try {
      const run = await runDifferential(
        settings(renamed.baseUrl, { only: ["run-state-machine", "billing-settlement-exact"], seed: 3 }),
        { referenceEnv: { RATE_LIMIT_RPS: "100", STEP_DELAY_MS: "200" } },
      );
      expect(run.result.diffs.filter((d) => d.check === "(all checks)").map((d) => d.differences)).toEqual([
        ["states: only the deployment uses processing; only the reference uses working"],
      ]);
    } finally {
      await renamed.close();
      await slow.close();
    }
  }, 120_000);
});
