// The group-rule checks against the reference: each must pass (or be skipped
// with a reason), never fail, and the run prints what each one exercised.
import { describe, expect, it } from "vitest";
import { allChecks } from "../src/registry.ts";
import { runKit } from "../src/runner.ts";
import { settings, startReference, unexpectedFailures } from "./helpers.ts";

export const GROUP_CHECK_PREFIXES = [
  "audience-",
  "preview-",
  "pattern-",
  "custom-parameter-",
  "tracking-agent-",
  "ask-",
  "chats-",
  "run-kinds-",
];
const groupChecks = allChecks.filter((c) => GROUP_CHECK_PREFIXES.some((p) => c.id.startsWith(p))).map((c) => c.id);

describe("group rule checks against the reference", () => {
  it("pass on the whole contract", async () => {
    const ref = await startReference({ rateLimitPerSecond: 100, stepDelayMs: 50 });
    try {
      const r = await runKit(settings(ref.baseUrl, { operations: undefined, only: groupChecks, skipPreflight: true }));
      for (const x of r.results)
        console.log(
          `${x.id}: ${x.outcome} (${x.requests} requests, ${x.ms} ms)${x.skipReason ? ` — ${x.skipReason}` : ""}${x.unexercised?.length ? ` — not exercised: ${x.unexercised.join("; ")}` : ""}${x.warnings.length ? ` — warnings: ${x.warnings.join("; ")}` : ""}`,
        );
      expect(unexpectedFailures(r)).toEqual([]);
      expect(r.results.filter((x) => x.outcome === "pass").map((x) => x.id).length).toBeGreaterThan(0);
    } finally {
      await ref.close();
    }
  }, 300_000);
});
