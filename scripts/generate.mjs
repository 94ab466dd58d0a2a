#!/usr/bin/env node
// Regenerates everything under generated/ from the TypeSpec sources:
//   1. tsp compile  -> openapi.json (OpenAPI 3.1: the REST operations plus the
//                      MCP tool models as components)
//   2. openapi-ts   -> client/ (TypeScript types, zod v4 validators, fetch client)
// Both steps write into a scratch folder first and only then replace
// generated/, so a failing compile never leaves a half-written tree behind.
// With --check nothing is replaced: the fresh output is compared byte for byte
// with generated/ and any difference fails. On a clean clone (CI) that catches
// a hand edit of generated/ or a spec change committed without regenerating.
import { execFileSync } from "node:child_process";
import {
  mkdtempSync,
  rmSync,
  renameSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  existsSync,
  statSync,
} from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
// Children find the pinned Node 24 first, however this script was started.
const env = { ...process.env, PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH}` };
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: "inherit", env });

const check = process.argv.includes("--check");
const out = path.join(root, "generated");

/** Relative paths of every file below dir. */
function listFiles(dir, prefix = "") {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    const rel = path.join(prefix, name);
    return statSync(full).isDirectory() ? listFiles(full, rel) : [rel];
  });
}

/** Files that differ between two trees (added, removed or changed). */
function diffTrees(a, b) {
  const names = new Set([...listFiles(a), ...listFiles(b)]);
  return [...names]
    .filter((name) => {
      const pa = path.join(a, name);
      const pb = path.join(b, name);
      return !existsSync(pa) || !existsSync(pb) || !readFileSync(pa).equals(readFileSync(pb));
    })
    .sort();
}

mkdirSync(path.join(root, "tmp"), { recursive: true });
const scratch = mkdtempSync(path.join(root, "tmp", "generate-"));
let stale = [];
try {
  const fresh = path.join(scratch, "generated");
  mkdirSync(fresh);
  run(bin("tsp"), ["compile", ".", "--warn-as-error", "--option", `@typespec/openapi3.emitter-output-dir=${fresh}`]);
  run(bin("openapi-ts"), [
    "--file",
    "openapi-ts.config.ts",
    "--silent",
    "--no-log-file",
    "--input",
    `./${path.relative(root, path.join(fresh, "openapi.json"))}`,
    "--output",
    `./${path.relative(root, path.join(fresh, "client"))}`,
  ]);
  if (check) {
    stale = diffTrees(fresh, out);
  } else {
    mkdirSync(out, { recursive: true });
    copyFileSync(path.join(fresh, "openapi.json"), path.join(out, "openapi.json"));
    rmSync(path.join(out, "client"), { recursive: true, force: true });
    renameSync(path.join(fresh, "client"), path.join(out, "client"));
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (check) {
  if (stale.length) {
    console.error("generated/ is stale; run `npm run generate` and commit. Differences:\n  " + stale.join("\n  "));
    process.exit(1);
  }
  console.log("generated/ is up to date");
}
