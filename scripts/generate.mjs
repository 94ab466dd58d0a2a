#!/usr/bin/env node
// Regenerates everything under generated/ from the TypeSpec sources:
//   1. tsp compile  -> openapi.json (OpenAPI 3.1: the REST operations plus the
//                      MCP tool models as components)
//   2. openapi-ts   -> client/ (TypeScript types, zod v4 validators, fetch client)
// Both steps write into a scratch folder first and only then replace
// generated/, so a failing compile never leaves a half-written tree behind.
// With --check it fails when generated/ differs from what git has committed:
// that is how CI catches a hand edit or a forgotten regeneration.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, renameSync, copyFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: "inherit" });

mkdirSync(path.join(root, "tmp"), { recursive: true });
const scratch = mkdtempSync(path.join(root, "tmp", "generate-"));
try {
  run(bin("tsp"), [
    "compile", ".", "--warn-as-error",
    "--option", `@typespec/openapi3.emitter-output-dir=${scratch}`,
  ]);
  const doc = path.join(scratch, "openapi.json");
  run(bin("openapi-ts"), [
    "--file", "openapi-ts.config.ts", "--silent", "--no-log-file",
    "--input", `./${path.relative(root, doc)}`, "--output", `./${path.relative(root, path.join(scratch, "client"))}`,
  ]);
  const out = path.join(root, "generated");
  mkdirSync(out, { recursive: true });
  copyFileSync(doc, path.join(out, "openapi.json"));
  rmSync(path.join(out, "client"), { recursive: true, force: true });
  renameSync(path.join(scratch, "client"), path.join(out, "client"));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (process.argv.includes("--check")) {
  const status = execFileSync("git", ["status", "--porcelain", "--", "generated"], { cwd: root }).toString();
  if (status.trim()) {
    console.error("generated/ is stale; run `npm run generate` and commit:\n" + status);
    process.exit(1);
  }
  console.log("generated/ is up to date");
}
