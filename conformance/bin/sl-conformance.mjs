#!/usr/bin/env node
// Package bin: runs the TypeScript CLI under plain node by registering tsx's ESM loader.
import { register } from "tsx/esm/api";

register();
process.env.SLK_CLI_ENTRY = "1";
await import("../src/cli.ts");
