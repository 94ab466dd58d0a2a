#!/usr/bin/env node
// `npm run contract:release -- <version>`: freezes the contract as released.
//   1. the TypeSpec, compiled afresh, is compared with the previous release:
//      an error (a breaking change in a stable group needs /v2 first, an
//      error code removed) refuses the release before anything is written;
//   2. main.tsp's @info version becomes <version> and generated/ is rebuilt
//      from the TypeSpec (so the frozen document is what the TypeSpec says);
//   3. releases/<version>/ gets openapi.json and client/zod.gen.ts (the layout
//      of the kit's bundled contract: `sl-conformance --contract
//      releases/<version>/openapi.json` checks against that release);
//   4. CHANGELOG.md gets a section: the diff's Markdown, or a summary for the
//      first release.
// Exit 1 when the diff has errors, 2 for bad input; nothing is written then.
// Paths are those of the checkout this script lives in (a scratch copy of the
// repository releases into itself, which is how the tests exercise it).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { diffContracts, gateStatus } from "./lib/contract-diff.ts";
import { asNode, at, children } from "./lib/contract-document.ts";
import { consoleTable, markdown } from "./lib/contract-report.ts";
import {
  BadInput,
  childEnv,
  compareVersions,
  compileTypeSpec,
  isVersion,
  readDocument,
  releases,
  releasesDir,
  root,
} from "./lib/contract-source.ts";

const mainTsp = path.join(root, "main.tsp");
const changelog = path.join(root, "CHANGELOG.md");
const generated = path.join(root, "generated");
const INFO_VERSION = /(@info\(#\{\s*version:\s*")([^"]+)(")/;

const CHANGELOG_HEAD = `# Changelog of the contract

Each section is written by \`npm run contract:release -- <version>\`: the
Markdown of \`npm run contract:diff -- --markdown\` against the previous release,
classified by the seed's versioning rules (see
[docs/changing-the-contract.md](docs/changing-the-contract.md)). The released documents are frozen under \`releases/<version>/\`.

`;

function firstRelease(doc: object): string {
  const ops = children(at(doc, "paths")).reduce(
    (n, item) => n + Object.keys(item).filter((m) => ["get", "post", "put", "patch", "delete"].includes(m)).length,
    0,
  );
  const catalogue = at(doc, "components", "schemas", "Common.ErrorCode", "enum");
  const codes = Array.isArray(catalogue) ? catalogue.length : undefined;
  const schemas = Object.keys(asNode(at(doc, "components", "schemas")));
  const tools = schemas.filter((k) => /^Mcp\..+Tool$/.test(k)).length;
  const paths = Object.keys(asNode(at(doc, "paths"))).length;
  return `First release of the contract: ${ops} operations on ${paths} paths under \`/v1\`${codes ? `, ${codes} error codes` : ""}${tools ? `, ${tools} MCP tool models` : ""}. Stable groups (seed, Versioning 2): datasets, mentions, audience datasets, audience profiles; groups that may change: tracking agents, pattern detections, custom parameters, ask, chats, me.\n`;
}

function regenerate(): boolean {
  return (
    spawnSync(process.execPath, [path.join(root, "scripts", "generate.mjs")], {
      cwd: root,
      env: childEnv,
      stdio: "inherit",
    }).status === 0
  );
}

function setInfoVersion(version: string): boolean {
  const text = readFileSync(mainTsp, "utf8");
  const m = text.match(INFO_VERSION);
  if (!m) throw new BadInput('main.tsp has no @info(#{ version: "…" }) to update');
  if (m[2] === version) return false;
  writeFileSync(mainTsp, text.replace(INFO_VERSION, `$1${version}$3`));
  return true;
}

function main(argv: string[]): number {
  const version = argv.find((a) => !a.startsWith("-"));
  const date =
    argv.find((a) => a.startsWith("--date="))?.slice("--date=".length) ?? new Date().toISOString().slice(0, 10);
  try {
    if (!version || !isVersion(version))
      throw new BadInput(
        `usage: npm run contract:release -- <version> (semantic version, e.g. 0.2.0)${version ? `; got ${version}` : ""}`,
      );
    const known = releases();
    if (known.includes(version)) throw new BadInput(`release ${version} already exists under releases/${version}`);
    const latest = known[known.length - 1];
    if (latest && compareVersions(version, latest) <= 0)
      throw new BadInput(`release ${version} is not newer than the latest release ${latest}`);

    // the gate first, on the TypeSpec as it stands: a refused release writes nothing
    let section: string | undefined;
    if (latest) {
      const base = readDocument(path.join(releasesDir, latest, "openapi.json"));
      const report = diffContracts(base, compileTypeSpec(root).doc);
      const labels = { base: `release ${latest}`, current: `release ${version}` };
      console.log(consoleTable(report, labels));
      if (gateStatus(report) !== 0) {
        console.error(
          "contract:release: not released: the changes above break /v1 for a stable group or remove an error code",
        );
        return 1;
      }
      section = markdown(report, labels, "###");
    }

    const original = readFileSync(mainTsp, "utf8");
    const bumped = setInfoVersion(version);
    if (!regenerate()) {
      if (bumped) writeFileSync(mainTsp, original); // generate.mjs replaces generated/ only when it succeeded
      throw new BadInput("npm run generate failed (see above); nothing was released");
    }
    const current = readDocument(path.join(generated, "openapi.json"));
    section ??= firstRelease(current);

    const dir = path.join(releasesDir, version);
    mkdirSync(path.join(dir, "client"), { recursive: true });
    copyFileSync(path.join(generated, "openapi.json"), path.join(dir, "openapi.json"));
    copyFileSync(path.join(generated, "client", "zod.gen.ts"), path.join(dir, "client", "zod.gen.ts"));

    const old = existsSync(changelog) ? readFileSync(changelog, "utf8") : CHANGELOG_HEAD;
    const at = old.search(/^## /m);
    const entry = `## ${version} — ${date}\n\n${section.trimEnd()}\n\n`;
    writeFileSync(changelog, at < 0 ? `${old.trimEnd()}\n\n${entry}` : old.slice(0, at) + entry + old.slice(at));

    console.log(
      `released ${version}: releases/${version}/openapi.json, releases/${version}/client/zod.gen.ts, CHANGELOG.md${bumped ? ", main.tsp and generated/ (info version)" : ""}`,
    );
    console.log(`commit them together: git add releases/${version} CHANGELOG.md${bumped ? " main.tsp generated" : ""}`);
    return 0;
  } catch (e) {
    if (e instanceof BadInput) {
      console.error(`contract:release: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

process.exitCode = main(process.argv.slice(2));
