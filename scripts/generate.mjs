#!/usr/bin/env node
// Regenerates everything under generated/ from the TypeSpec sources:
//   1. tsp compile  -> generated/openapi.json (OpenAPI 3.1, REST + MCP components)
//   2. openapi-ts   -> generated/client/ (types, zod validators, fetch client)
// With --check it then fails when generated/ differs from what git has
// committed, which is how CI catches a hand edit or a forgotten regeneration.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: "inherit" });

rmSync(path.join(root, "generated", "client"), { recursive: true, force: true });
run(bin("tsp"), ["compile", ".", "--warn-as-error"]);
run(bin("openapi-ts"), ["--file", "openapi-ts.config.ts", "--silent", "--no-log-file"]);

if (process.argv.includes("--check")) {
  const status = execFileSync("git", ["status", "--porcelain", "--", "generated"], { cwd: root }).toString();
  if (status.trim()) {
    console.error("generated/ is stale; run `npm run generate` and commit:\n" + status);
    process.exit(1);
  }
  console.log("generated/ is up to date");
}
