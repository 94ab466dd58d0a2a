// Behavioural backward compatibility: the kit built for the latest frozen
// release (its OpenAPI document and its own generated zod, under
// releases/<version>/) runs against today's reference server and passes. A
// deployment that moved forward must still serve the clients of the release.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Contract } from "../src/contract.ts";
import { runKit } from "../src/runner.ts";
import { releases } from "../../scripts/lib/contract-source.ts";
import { settings, startReference, unexpectedFailures } from "./helpers.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const latest = releases().at(-1);

describe("the kit of the latest release against today's reference", () => {
  it("finds a frozen release with its own generated zod", () => {
    expect(latest).toBeDefined();
    const released = Contract.load(path.join(root, "releases", latest!, "openapi.json"));
    const today = Contract.load();
    // the release's validators are its own module, not today's (Contract.load picks client/zod.gen.ts beside the document)
    expect(released.zodOf("Datasets.Dataset")).toBeDefined();
    expect(released.zodOf("Datasets.Dataset")).not.toBe(today.zodOf("Datasets.Dataset"));
    expect(released.doc.info?.version).toBe(latest);
  });

  it("passes every applicable check on the whole release contract", async () => {
    const ref = await startReference({ rateLimitPerSecond: 100, stepDelayMs: 0 });
    try {
      const contractPath = path.join(root, "releases", latest!, "openapi.json");
      const r = await runKit(settings(ref.baseUrl, { contractPath, operations: undefined }));
      const outcomes = r.results.reduce<Record<string, number>>(
        (n, x) => ({ ...n, [x.outcome]: (n[x.outcome] ?? 0) + 1 }),
        {},
      );
      console.info(
        `kit of release ${latest} vs today's reference: ${(r.ms / 1000).toFixed(1)} s, ${r.requestCount} requests, ${JSON.stringify(outcomes)}`,
      );
      expect(unexpectedFailures(r)).toEqual([]);
      expect(outcomes.pass ?? 0).toBeGreaterThanOrEqual(50);
      expect(r.cleanup.failed).toEqual([]);
    } finally {
      await ref.close();
    }
  }, 300_000);
});
