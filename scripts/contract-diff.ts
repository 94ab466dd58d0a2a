#!/usr/bin/env node
// `npm run contract:diff -- [--base VERSION|FILE|GIT-REF]`: what a TypeSpec
// edit changes for clients and deployments, classified, with the seed's
// versioning policy applied. Exit 0: nothing the policy calls an error;
// 1: an error (a breaking change in a stable group, an error code removed);
// 2: bad input (a base that does not exist, a document that is not OpenAPI
// 3.1, a TypeSpec that does not compile), one line on stderr.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { diffContracts, gateStatus } from "./lib/contract-diff.ts";
import { consoleTable, junitXml, markdown } from "./lib/contract-report.ts";
import { BadInput, compileTypeSpec, readDocument, resolveBase, root } from "./lib/contract-source.ts";

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, text);
}

function main(argv: string[]): number {
  const program = new Command()
    .name("contract:diff")
    .description("Compare the contract with a release and classify every change by the seed's versioning rules.")
    .option("--base <version|file|git-ref>", "what to compare with (default: the latest release under releases/)")
    .option("--current <file>", "an OpenAPI document to use as the current contract (default: compile the TypeSpec)")
    .option("--project <dir>", "TypeSpec project to compile when --current is not given", root)
    .option(
      "--markdown [file]",
      "write Markdown (pull-request comment, changelog section) to the file, or to stdout instead of the table",
    )
    .option("--junit <file>", "also write JUnit XML (one test case per finding; errors fail)")
    .option("--json <file>", "also write the findings as JSON")
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  try {
    program.parse(argv, { from: "user" });
  } catch (e) {
    return (e as { exitCode?: number }).exitCode === 0 ? 0 : 2;
  }
  const o = program.opts<{
    base?: string;
    current?: string;
    project: string;
    markdown?: string | true;
    junit?: string;
    json?: string;
  }>();
  try {
    const base = resolveBase(o.base);
    const current = o.current
      ? { doc: readDocument(o.current), label: o.current }
      : compileTypeSpec(path.resolve(o.project));
    const report = diffContracts(base.doc, current.doc);
    const labels = { base: base.label, current: current.label };
    if (o.markdown === true) process.stdout.write(markdown(report, labels));
    else {
      console.log(consoleTable(report, labels));
      if (o.markdown) write(o.markdown, markdown(report, labels));
    }
    if (o.junit) write(o.junit, junitXml(report, labels));
    if (o.json) write(o.json, JSON.stringify({ labels, ...report }, null, 2) + "\n");
    return gateStatus(report);
  } catch (e) {
    if (e instanceof BadInput) {
      console.error(`contract:diff: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

process.exitCode = main(process.argv.slice(2));
