// Short versions of the three robustness scripts (fuzz, soak, concurrency),
// run as part of `npm test`: each script starts its own reference server on a
// free 127.0.0.1 port, stops it by PID, and exits 0 only when its goal is met.
// The full runs and their figures are `npm run fuzz`, `npm run soak`,
// `npm run concurrency`.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

function run(script: string, args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts", script), ...args], {
    cwd: root,
    encoding: "utf8",
    timeout: 110_000,
  });
  // Printed so a failure shows the script's own report (counts, seed, problems).
  console.log(result.stdout, result.stderr);
  return result;
}

describe("robustness scripts (short versions)", () => {
  it("fuzz: 600 seeded malformed requests, none >= 500, every 4xx documented", () => {
    const seed = String(Date.now() % 1_000_000);
    const result = run("fuzz.ts", ["--requests", "600", "--seed", seed]);
    expect(result.stdout).toMatch(/0 answers >= 500; 0 problems/);
    expect(result.status, `fuzz seed ${seed}`).toBe(0);
  }, 120_000);

  it("concurrency: 200 concurrent runs on a balance for 37, exactly 37 accepted, ledger exact", () => {
    const result = run("concurrency.ts", ["--requests", "200", "--funded", "37"]);
    expect(result.stdout).toMatch(/accepted 37, refused 402 163, other 0/);
    expect(result.stdout).toMatch(/opening - closing - charged - held = \$0\.000000/);
    expect(result.status).toBe(0);
  }, 120_000);

  it("soak: 12 s of mixed traffic, no errors", () => {
    const result = run("soak.ts", ["--seconds", "12", "--window", "4", "--concurrency", "4"]);
    expect(result.stdout).toMatch(/, 0 errors/);
    // RSS growth over a few seconds is warm-up noise, so the short run checks
    // errors only; the full run (npm run soak) also holds growth under 10%.
  }, 120_000);
});
