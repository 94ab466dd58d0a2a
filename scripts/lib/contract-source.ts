// Where the documents of a contract diff come from: the frozen releases under
// releases/<version>/, a file, a git ref, or the TypeSpec compiled afresh.
// Every way a source can be wrong ends in one BadInput line (exit 2).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const releasesDir = path.join(root, "releases");
const binDir = path.join(root, "node_modules", ".bin");
/** Children find the pinned Node 24 first, however this script was started. */
export const childEnv = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH}` };

/** A source that cannot be used: printed as one line, exit status 2. */
export class BadInput extends Error {}

/**
 * A parsed document, checked to be OpenAPI 3.1 and read by path by its
 * callers (the release summary, the tests): a document of any release, which
 * need not match today's generated types.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- read by path; contract-document.ts has the typed readers
export type Doc = Record<string, any>;

const VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;

export function isVersion(s: string): boolean {
  return VERSION.test(s);
}

/** Semantic-version order (a pre-release sorts before its release). */
export function compareVersions(a: string, b: string): number {
  const [, ...pa] = a.match(VERSION)!;
  const [, ...pb] = b.match(VERSION)!;
  for (let i = 0; i < 3; i++) if (Number(pa[i]) !== Number(pb[i])) return Number(pa[i]) - Number(pb[i]);
  if (pa[3] === pb[3]) return 0;
  if (pa[3] === undefined) return 1;
  if (pb[3] === undefined) return -1;
  return pa[3] < pb[3] ? -1 : 1;
}

/** Released versions, oldest first. */
export function releases(dir = releasesDir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((v) => isVersion(v) && existsSync(path.join(dir, v, "openapi.json")))
    .sort(compareVersions);
}

/** Parses a document and insists on OpenAPI 3.1. */
export function parseDocument(text: string, label: string): Doc {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new BadInput(`${label} is not JSON: ${(e as Error).message.split("\n")[0]}`);
  }
  const version = (doc as Doc)?.openapi;
  if (!doc || typeof doc !== "object" || typeof version !== "string" || !/^3\.1\.\d+$/.test(version)) {
    throw new BadInput(
      `${label} is not an OpenAPI 3.1 document (openapi: ${version === undefined ? "missing" : JSON.stringify(version)})`,
    );
  }
  if (!(doc as Doc).paths || typeof (doc as Doc).paths !== "object") throw new BadInput(`${label} has no paths object`);
  return doc as Doc;
}

export function readDocument(file: string): Doc {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BadInput(`${file} does not exist`);
  return parseDocument(readFileSync(file, "utf8"), file);
}

export interface Source {
  doc: Doc;
  label: string;
}

/**
 * The base of a diff: a released version (default: the latest), a file, or a
 * git ref whose generated/openapi.json is read.
 */
export function resolveBase(spec: string | undefined, dir = releasesDir): Source {
  const known = releases(dir);
  if (spec === undefined) {
    const latest = known[known.length - 1];
    if (!latest)
      throw new BadInput(
        `no release under ${path.relative(root, dir) || dir} yet; make one with npm run contract:release -- <version>`,
      );
    return { doc: readDocument(path.join(dir, latest, "openapi.json")), label: `release ${latest}` };
  }
  if (isVersion(spec)) {
    if (!known.includes(spec))
      throw new BadInput(`release ${spec} does not exist (released: ${known.join(", ") || "none"})`);
    return { doc: readDocument(path.join(dir, spec, "openapi.json")), label: `release ${spec}` };
  }
  if (existsSync(spec)) return { doc: readDocument(spec), label: spec };
  const git = spawnSync("git", ["-C", root, "show", `${spec}:generated/openapi.json`], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (git.status !== 0)
    throw new BadInput(
      `base ${spec} is neither a release (${known.join(", ") || "none"}), a file, nor a git ref with generated/openapi.json`,
    );
  return { doc: parseDocument(git.stdout, `${spec}:generated/openapi.json`), label: `git ${spec}` };
}

/**
 * Compiles the TypeSpec project in `project` to a scratch folder and reads the
 * OpenAPI document it emits (what the author's edit says now, whether or not
 * generated/ was refreshed).
 */
export function compileTypeSpec(project: string): Source {
  if (!existsSync(path.join(project, "main.tsp"))) throw new BadInput(`${project} has no main.tsp`);
  const out = mkdtempSync(path.join(tmpdir(), "contract-diff-"));
  try {
    const r = spawnSync(
      path.join(binDir, "tsp"),
      ["compile", ".", "--option", `@typespec/openapi3.emitter-output-dir=${out}`],
      { cwd: project, env: childEnv, encoding: "utf8" },
    );
    if (r.status !== 0) {
      // tsp colours its diagnostics when it thinks it runs in CI (CI=true), so strip the escapes before looking for the error line
      const text = stripVTControlCharacters(`${r.stdout ?? ""}\n${r.stderr ?? ""}`);
      const first =
        text.split("\n").find((l) => /\berror\b/i.test(l)) ??
        text.trim().split("\n")[0] ??
        `tsp exited with ${r.status}`;
      throw new BadInput(`TypeSpec does not compile: ${first.trim()}`);
    }
    return {
      doc: readDocument(path.join(out, "openapi.json")),
      label: `TypeSpec in ${path.relative(process.cwd(), project) || "."}`,
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
