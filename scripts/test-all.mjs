#!/usr/bin/env node
// `npm test`: the whole suite, in the order a reviewer would check it.
// Each gate (freshness of generated/, the two linters, the typecheck) counts
// as one test; vitest's tests are counted from its JSON report. The last line
// is always `N passed, N failed`, which is what CI reads.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const binDir = path.join(root, "node_modules", ".bin");
const env = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH}` };
const only = process.argv.slice(2);

const gates = [
  { name: "contract: generated/ matches the TypeSpec", cmd: "node", args: ["scripts/generate.mjs", "--check"] },
  { name: "contract: TypeSpec compiles with its linter clean", cmd: "tsp", args: ["compile", ".", "--no-emit", "--warn-as-error"] },
  { name: "contract: redocly lint of generated/openapi.json", cmd: "redocly", args: ["lint", "generated/openapi.json", "--config", "redocly.yaml"] },
  // generated/ was just checked against the TypeSpec, so the diff reads it instead of compiling again
  { name: "contract: no breaking change against the latest release (seed's versioning rules)", cmd: "tsx", args: ["scripts/contract-diff.ts", "--current", "generated/openapi.json", "--junit", "reports/contract-diff.xml"] },
  { name: "typecheck: tsc --noEmit", cmd: "tsc", args: ["-p", "tsconfig.json", "--noEmit"] },
];

let passed = 0;
let failed = 0;
const failures = [];

function step(name, cmd, args) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const result = spawnSync(cmd, args, { cwd: root, env, stdio: "inherit" });
  const ok = result.status === 0;
  console.log(`${ok ? "✔" : "✘"} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return ok;
}

for (const gate of gates) {
  if (only.length && !only.includes("gates")) break;
  if (step(gate.name, gate.cmd, gate.args)) passed++;
  else {
    failed++;
    failures.push(gate.name);
  }
}

if (!only.length || only.includes("vitest")) {
  const report = path.join(root, "reports", "vitest.json");
  rmSync(report, { force: true });
  const ok = step("vitest: contract, reference server and conformance kit", "vitest", ["run"]);
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, "utf8"));
    passed += json.numPassedTests ?? 0;
    failed += json.numFailedTests ?? 0;
    // A suite that crashed before running its tests still has to count.
    const broken = (json.testResults ?? []).filter((f) => f.status === "failed" && (f.assertionResults ?? []).length === 0);
    failed += broken.length;
    for (const f of broken) failures.push(`vitest file failed to run: ${path.relative(root, f.name)}`);
    for (const f of json.testResults ?? []) {
      for (const a of f.assertionResults ?? []) if (a.status === "failed") failures.push(a.fullName);
    }
  } else {
    failed++;
    failures.push("vitest produced no report");
  }
  if (!ok && failed === 0) {
    failed++;
    failures.push("vitest exited non-zero");
  }
}

if (failures.length) {
  console.log("\nFailed:");
  for (const f of failures.slice(0, 50)) console.log(`  - ${f}`);
  if (failures.length > 50) console.log(`  … and ${failures.length - 50} more`);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
