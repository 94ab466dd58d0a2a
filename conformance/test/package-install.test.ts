// The kit as a user gets it: `npm pack` of conformance/, the tarball installed
// into an empty project, then `npx sl-conformance` there: --help, a usage
// error, and a run against the reference. It is installed twice, by npm on
// the Node that runs this test (24, the repository's) and by the machine's
// own npm and Node (node_modules/.bin left out of PATH), and neither install
// may print a warning line (no EBADENGINE, ERESOLVE or install-script notice).
// Dependencies come from the local npm cache when they are there (--prefer-offline).
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoKeys, startReference, type Target } from "./helpers.ts";

const kitDir = fileURLToPath(new URL("../", import.meta.url));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
let project: string;

function run(
  file: string,
  args: string[],
  o: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { ...o, encoding: "utf8", timeout: 55_000 }, (err, stdout, stderr) =>
      resolve({ status: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
let bin: string;
let ref: Target;

/** PATH for npm on this test's own Node, and PATH as the machine has it (no node_modules/.bin). */
const paths = {
  repository: [dirname(process.execPath), process.env.PATH ?? ""].join(delimiter),
  machine: (process.env.PATH ?? "")
    .split(delimiter)
    .filter((p) => !p.includes(`${sep}node_modules${sep}.bin`))
    .join(delimiter),
};
type Runtime = keyof typeof paths;
const installs = {} as Record<Runtime, { project: string; log: string; node: string }>;

/** Install the tarball into a fresh empty project with npm on `runtime`; everything npm printed is kept. */
function install(tarball: string, runtime: Runtime) {
  const dir = mkdtempSync(join(tmpdir(), `slk-install-${runtime}-`));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "slk-install-check", private: true }));
  const env = { ...process.env, PATH: paths[runtime] };
  const r = spawnSync(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], {
    cwd: dir,
    env,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`npm install (${runtime}) failed:\n${r.stdout}${r.stderr}`);
  const node = spawnSync("node", ["--version"], { env, encoding: "utf8" }).stdout.trim();
  installs[runtime] = { project: dir, log: `${r.stdout}${r.stderr}`, node };
}

describe("installable package", () => {
  beforeAll(async () => {
    const out = mkdtempSync(join(tmpdir(), "slk-pack-"));
    execFileSync(npm, ["pack", "--pack-destination", out, "--silent"], { cwd: kitDir, stdio: "pipe" });
    const tarball = join(
      out,
      readdirSync(out).find((f) => f.endsWith(".tgz"))!,
    );
    install(tarball, "repository");
    install(tarball, "machine");
    project = installs.repository.project;
    bin = join(project, "node_modules", ".bin", "sl-conformance");
    ref = await startReference({ rateLimitPerSecond: 50 });
  }, 240_000);

  for (const runtime of ["repository", "machine"] as const)
    it(`installs without a warning line (npm on the ${runtime}'s Node)`, () => {
      const { log, node } = installs[runtime];
      const warnings = log.split("\n").filter((l) => /\bwarn\b|EBADENGINE|ERESOLVE|deprecated/i.test(l));
      expect(warnings, `npm on Node ${node} printed:\n${log}`).toEqual([]);
      expect(log).toMatch(/added \d+ packages?/);
    });

  it("runs on the machine's own Node too (no TypeScript loader in the package)", () => {
    const { project: dir } = installs.machine;
    expect(existsSync(join(dir, "node_modules", "tsx")), "tsx is not installed with the kit").toBe(false);
    const r = spawnSync("node", [join(dir, "node_modules", ".bin", "sl-conformance"), "--list"], {
      cwd: dir,
      env: { ...process.env, PATH: paths.machine },
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^credit-prices-removed-404 /m);
  });
  afterAll(async () => ref?.close());

  it("ships the contract it reads and leaves the repository clean", () => {
    expect(existsSync(join(project, "node_modules", "sl-conformance", "contract", "openapi.json"))).toBe(true);
    expect(existsSync(join(project, "node_modules", "sl-conformance", "contract", "client", "zod.gen.js"))).toBe(true);
    expect(existsSync(join(kitDir, "contract"))).toBe(false);
    expect(existsSync(join(kitDir, "dist"))).toBe(false);
  });

  it("npx sl-conformance --help works in the empty project", () => {
    const r = spawnSync("npx", ["--no-install", "sl-conformance", "--help"], { cwd: project, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("--base-url");
    expect(r.stdout).toContain("--min-coverage");
  });

  it("a usage error exits 2 with one line and no stack", () => {
    const r = spawnSync(bin, ["--base-url", "http://127.0.0.1:3000/v1", "--api-key", "x"], {
      cwd: project,
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^sl-conformance: --base-url ends with \/v1/);
  });

  it("runs checks against a deployment and exits 0", async () => {
    const k = demoKeys();
    // asynchronously: the reference answers from this process's event loop
    const r = await run(
      bin,
      [
        "--base-url",
        ref.baseUrl,
        "--api-key",
        k.main!,
        "--foreign-key",
        k.foreign!,
        "--only",
        "credit-prices-removed-404,pagination-garbage-cursor-400",
        "--seed",
        "1",
      ],
      { cwd: project, env: { ...process.env, CI: "1" } },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    // the two checks and the served-groups preflight row
    expect(r.stdout).toMatch(/3 passed, 0 failed/);
  }, 60_000);

  it("--differential: an installed kit says how to point at a running reference, and compares against one", async () => {
    const k = demoKeys();
    const alone = spawnSync(
      bin,
      ["--base-url", ref.baseUrl, "--api-key", k.main!, "--differential", "--only", "credit-prices-removed-404"],
      { cwd: project, encoding: "utf8" },
    );
    expect(alone.status).toBe(2);
    expect(alone.stderr).toMatch(
      /does not carry the reference server .* --reference-url http:\/\/127\.0\.0\.1:3000 --reference-keys fixtures\/demo-keys\.json/,
    );
    const keysFile = fileURLToPath(new URL("../../fixtures/demo-keys.json", import.meta.url));
    const r = await run(
      bin,
      [
        "--base-url",
        ref.baseUrl,
        "--api-key",
        k.main!,
        "--only",
        "credit-prices-removed-404",
        "--seed",
        "1",
        "--differential",
        "--reference-url",
        ref.baseUrl,
        "--reference-keys",
        keysFile,
      ],
      { cwd: project, env: { ...process.env, CI: "1" } },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Differential: deployment .* vs reference /);
    expect(r.stdout).toMatch(/no difference/);
  }, 60_000);

  it("replay is a subcommand of the installed bin (a file that is not a cassette is one line, exit 2)", () => {
    const notHar = join(project, "package.json");
    const r = spawnSync(bin, ["replay", notHar, "--base-url", ref.baseUrl, "--api-key", demoKeys().main!], {
      cwd: project,
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(/^sl-conformance replay: .*package\.json is not a HAR 1\.2 file/);
  });
});
