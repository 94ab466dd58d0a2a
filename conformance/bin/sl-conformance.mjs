#!/usr/bin/env node
// Package bin. The published package runs dist/ (JavaScript, transpiled at
// pack time: no TypeScript loader at run time); in the repository, where
// dist/ does not exist, the TypeScript sources run through tsx's ESM loader.
import { existsSync } from "node:fs";

process.env.SLK_CLI_ENTRY = "1";
const dist = new URL("../dist/cli.js", import.meta.url);
if (existsSync(dist)) await import(dist.href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli.ts");
}
