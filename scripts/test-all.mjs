#!/usr/bin/env node
// `npm test`: the whole suite. Each gate (freshness of generated/, the two
// linters, the breaking-change diff, the typecheck) counts as one test;
// vitest's tests are counted from its JSON report. The gates run one after
// the other, in the order a reviewer would check them, alongside vitest (they
// only read the tree) at a lower CPU priority (nice GATE_NICE): vitest's
// groups come first, and the gates take what they leave, most of a core
// while the kit group runs two files that mostly wait on the rate limit,
// instead of slowing the mutation harness that fills the cores before it.
// Nothing the gates do is timed. Each gate's output is held and printed, in
// order, once vitest is done.
// Then each vitest project's span (its groups run one after the other) and
// the ten slowest test files. The last line is always
// `N passed, N failed`, which is what CI reads.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { setPriority } from "node:os";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const binDir = path.join(root, "node_modules", ".bin");
const env = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH}` };
const only = process.argv.slice(2);
/** The gates' niceness beside vitest: a tenth of a core's share against a busy vitest file, all of an idle core. */
const GATE_NICE = 10;

const gates = [
  { name: "contract: generated/ matches the TypeSpec", cmd: "node", args: ["scripts/generate.mjs", "--check"] },
  {
    name: "contract: TypeSpec compiles with its linter clean",
    cmd: "tsp",
    args: ["compile", ".", "--no-emit", "--warn-as-error"],
  },
  {
    name: "contract: redocly lint of generated/openapi.json",
    cmd: "redocly",
    args: ["lint", "generated/openapi.json", "--config", "redocly.yaml"],
  },
  // generated/ was just checked against the TypeSpec, so the diff reads it instead of compiling again
  {
    name: "contract: no breaking change against the latest release (seed's versioning rules)",
    cmd: "tsx",
    args: ["scripts/contract-diff.ts", "--current", "generated/openapi.json", "--junit", "reports/contract-diff.xml"],
  },
  {
    name: "contract: every constraint has a provenance (a seed quote found in spec/seed.txt, or a D- row)",
    cmd: "tsx",
    args: ["scripts/provenance-gate.ts"],
  },
  { name: "typecheck: tsc --noEmit", cmd: "tsc", args: ["-p", "tsconfig.json", "--noEmit"] },
  // formatting and lint are gates too: `npm run fix` repairs what a machine can repair
  { name: "format: prettier --check", cmd: "prettier", args: ["--check", "."] },
  { name: "lint: eslint (type-aware typescript-eslint rules, eslint.config.js)", cmd: "eslint", args: ["."] },
  // .dependency-cruiser.json: the reference server's layers (nothing imports a layer above it) and no
  // module reaches itself through its imports, type-only imports included
  {
    name: "imports: layers kept, no import circle (dependency-cruiser)",
    cmd: "depcruise",
    args: ["--config", ".dependency-cruiser.json", "reference-impl", "conformance", "scripts", "test"],
  },
];

let passed = 0;
let failed = 0;
const failures = [];
const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Run a command; its output goes to the terminal (inherit) or is held and returned; `nice` lowers its priority (and its children's). */
function run(cmd, args, hold, nice = 0) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(cmd, args, { cwd: root, env, stdio: hold ? ["ignore", "pipe", "pipe"] : "inherit" });
    if (nice && child.pid !== undefined) {
      try {
        setPriority(child.pid, nice);
      } catch {
        // a system that refuses it runs the gate at normal priority
      }
    }
    let output = "";
    if (hold) {
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
    }
    child.on("error", (e) => (output += `${cmd}: ${e.message}\n`));
    child.on("close", (code) => resolve({ ok: code === 0, output, ms: Date.now() - t0 }));
  });
}

const runGates = !only.length || only.includes("gates");
const runVitest = !only.length || only.includes("vitest");

const gatesDone = (async () => {
  const results = [];
  if (!runGates) return results;
  for (const gate of gates) {
    if (!runVitest) console.log(`\n▶ ${gate.name}`);
    results.push({ gate, ...(await run(gate.cmd, gate.args, runVitest, runVitest ? GATE_NICE : 0)) });
  }
  return results;
})();

if (runVitest) {
  // its own report files, so a vitest run started beside it cannot overwrite them
  const report = path.join(root, "reports", "npm-test", "vitest.json");
  const fileTimes = path.join(root, "reports", "npm-test", "vitest-files.json");
  rmSync(report, { force: true });
  rmSync(fileTimes, { force: true });
  env.SLK_FILE_TIMES = fileTimes;
  console.log(`\n▶ vitest: contract, reference server and conformance kit (the ${gates.length} gates run alongside)`);
  const { ok, ms } = await run("vitest", ["run", `--outputFile.json=${report}`], false);
  console.log(`${ok ? "✔" : "✘"} vitest (${seconds(ms)})`);
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, "utf8"));
    passed += json.numPassedTests ?? 0;
    failed += json.numFailedTests ?? 0;
    // A suite that crashed before running its tests still has to count.
    const broken = (json.testResults ?? []).filter(
      (f) => f.status === "failed" && (f.assertionResults ?? []).length === 0,
    );
    failed += broken.length;
    for (const f of broken) failures.push(`vitest file failed to run: ${path.relative(root, f.name)}`);
    for (const f of json.testResults ?? []) {
      for (const a of f.assertionResults ?? []) if (a.status === "failed") failures.push(a.fullName);
    }
    printSlowest(json, fileTimes);
  } else {
    failed++;
    failures.push("vitest produced no report");
  }
  if (!ok && failed === 0) {
    failed++;
    failures.push("vitest exited non-zero");
  }
}

for (const { gate, ok, output, ms } of await gatesDone) {
  if (runVitest) console.log(`\n▶ ${gate.name}`);
  if (output) process.stdout.write(output.endsWith("\n") ? output : output + "\n");
  console.log(`${ok ? "✔" : "✘"} ${gate.name} (${seconds(ms)})`);
  if (ok) passed++;
  else {
    failed++;
    failures.push(gate.name);
  }
}

/**
 * Each project's span, from its first file queued to its last file done (the
 * groups run one after the other; "mutation" and "beside-mutation" are one
 * group, side by side), and the ten slowest test files: wall time from import
 * to the last hook. scripts/vitest-file-times.ts records both; vitest's JSON
 * report (first test to last) stands in for the files when that is missing.
 */
function printSlowest(json, fileTimes) {
  let rows;
  if (existsSync(fileTimes)) {
    const files = JSON.parse(readFileSync(fileTimes, "utf8"));
    rows = files.map((f) => ({ file: f.file, ms: f.ms, tests: f.tests }));
    const spans = new Map();
    for (const f of files) {
      if (f.queuedAtMs === undefined || f.endedAtMs === undefined) continue;
      const s = spans.get(f.project) ?? { from: Infinity, to: 0, files: 0 };
      spans.set(f.project, {
        from: Math.min(s.from, f.queuedAtMs),
        to: Math.max(s.to, f.endedAtMs),
        files: s.files + 1,
      });
    }
    if (spans.size) {
      console.log("\nvitest projects, group after group (seconds from vitest's start):");
      for (const [project, s] of [...spans].sort((a, b) => a[1].from - b[1].from))
        console.log(
          `  ${(s.from / 1000).toFixed(0).padStart(4)} – ${(s.to / 1000).toFixed(0).padStart(4)}  ${project} (${s.files} files)`,
        );
    }
  } else
    rows = (json.testResults ?? []).map((f) => ({
      file: path.relative(root, f.name),
      ms: f.endTime - f.startTime,
      tests: (f.assertionResults ?? []).length,
    }));
  rows.sort((a, b) => b.ms - a.ms);
  console.log("\nSlowest test files (wall time in their worker, import and hooks included):");
  for (const r of rows.slice(0, 10)) console.log(`  ${seconds(r.ms).padStart(8)}  ${r.file} (${r.tests} tests)`);
}

if (failures.length) {
  console.log("\nFailed:");
  for (const f of failures.slice(0, 50)) console.log(`  - ${f}`);
  if (failures.length > 50) console.log(`  … and ${failures.length - 50} more`);
}
console.log(`\nnpm test took ${seconds(Date.now() - started)}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
