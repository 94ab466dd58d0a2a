// The MCP surface checks against the reference's MCP endpoint (same host,
// /mcp/), with the demo OAuth access token of the main key's seat: each check
// must pass or say why it was skipped, never fail.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { allChecks } from "../src/registry.ts";
import { runKit } from "../src/runner.ts";
import { settings, startReference, unexpectedFailures } from "./helpers.ts";

const mcpChecks = allChecks.filter((c) => c.id.startsWith("mcp-")).map((c) => c.id);
const demo = JSON.parse(readFileSync(fileURLToPath(new URL("../../fixtures/demo-keys.json", import.meta.url)), "utf8"));
const bearer = demo.bearer_tokens?.find(
  (t: any) => t.account_id === "acc_demoA" && t.user_id === "usr_a_owner",
)?.access_token;

describe("MCP surface checks against the reference", () => {
  it("pass with x-api-key and bearer auth", async () => {
    const ref = await startReference({ rateLimitPerSecond: 20, stepDelayMs: 25 });
    try {
      const r = await runKit(
        settings(ref.baseUrl, { operations: undefined, only: mcpChecks, bearerToken: bearer, skipPreflight: true }),
      );
      for (const x of r.results)
        console.log(
          `${x.id}: ${x.outcome} (${x.requests} requests, ${x.ms} ms)${x.skipReason ? ` — ${x.skipReason}` : ""}${x.unexercised?.length ? ` — not exercised: ${x.unexercised.join("; ")}` : ""}${x.warnings.length ? ` — warnings: ${x.warnings.join("; ")}` : ""}`,
        );
      expect(unexpectedFailures(r)).toEqual([]);
      expect(r.results.filter((x) => x.outcome === "pass").length).toBe(mcpChecks.length);
    } finally {
      await ref.close();
    }
  }, 300_000);
});
