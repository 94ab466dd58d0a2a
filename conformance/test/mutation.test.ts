// Mutation harness: the kit must fail behind every single-rule fault (the
// check named by the fault fails) and pass behind the proxy with no fault.
import { describe, expect, it } from "vitest";
import { runKit } from "../src/runner.ts";
import { faults } from "../mutation/faults.ts";
import { startProxy } from "../mutation/proxy.ts";
import type { Fault } from "../mutation/proxy.ts";
import { demoKeys, settings, startReference, unexpectedFailures } from "./helpers.ts";

async function behind(fault: Fault | undefined, only?: string[]) {
  const ref = await startReference({ rateLimitPerSecond: 20 });
  const proxy = await startProxy(ref.baseUrl, fault, demoKeys());
  try {
    return await runKit(settings(proxy.baseUrl, { only, numRuns: 3 }));
  } finally {
    await proxy.close();
    await ref.close();
  }
}

describe("mutation harness", () => {
  it("has at least 20 distinct single-rule faults", () => {
    const real = faults.filter((f) => !f.control);
    expect(new Set(real.map((f) => f.id)).size).toBe(real.length);
    expect(real.length).toBeGreaterThanOrEqual(20);
  });

  it("passes behind the proxy with no fault", async () => {
    const r = await behind(undefined);
    expect(unexpectedFailures(r)).toEqual([]);
    expect(r.results.filter((x) => x.outcome === "pass").length).toBeGreaterThanOrEqual(38);
  }, 120_000);

  describe.concurrent("catches each fault", () => {
    for (const fault of faults) {
      it(`${fault.id} → ${fault.control ? "passes (control)" : `${fault.expect} fails`}`, async () => {
        const r = await behind(fault, fault.only ?? [fault.expect]);
        const res = r.results.find((x) => x.id === fault.expect);
        expect(res, `no result for ${fault.expect}`).toBeDefined();
        if (fault.control) {
          expect(res!.outcome).toBe("pass");
          expect(res!.warnings.length).toBeGreaterThan(0);
        } else {
          expect(res!.outcome, `${fault.id}: ${JSON.stringify(r.results.map((x) => [x.id, x.outcome, x.skipReason, x.error?.split("\n")[0]]))}`).toBe("fail");
        }
      }, 120_000);
    }
  });
});
