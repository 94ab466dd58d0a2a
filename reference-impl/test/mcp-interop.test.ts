// Interoperability with the official MCP tools, against a real server on
// 127.0.0.1 (free port) started here and stopped at the end:
//  - the @modelcontextprotocol/conformance server suite, through a small
//    proxy that adds the demo x-api-key (the runner cannot send headers); the
//    scenarios that apply must pass and the rest are the baseline file's
//    expected failures (the runner exits non-zero on a new failure or on a
//    baseline entry that starts passing);
//  - the @modelcontextprotocol/inspector CLI listing the tools and calling
//    svc__get_me with an x-api-key header.
// Both tools need Node >= 22: they run on the project's pinned node binary.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zMcpToolCatalogue } from "../../generated/client/zod.gen.ts";
import { readConfig } from "../src/config.ts";
import { startServer, type RunningServer } from "../src/server.ts";
import { KEYS } from "./helpers.ts";
import { startHeaderProxy, type HeaderProxy } from "./interop/header-proxy.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const NODE = path.join(root, "node_modules", "node", "bin", "node");
const CONFORMANCE = path.join(root, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const INSPECTOR = path.join(
  root,
  "node_modules",
  "@modelcontextprotocol",
  "inspector",
  "clients",
  "launcher",
  "build",
  "index.js",
);
const BASELINE = path.join(root, "reference-impl", "test", "interop", "conformance-baseline.yml");
const APPLICABLE = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];

/** Run a child on the project's node; resolves with its exit code and output (bounded by a kill timer). */
function run(args: string[], limitMs = 120_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const killer = setTimeout(() => child.pid && process.kill(child.pid, "SIGKILL"), limitMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("official MCP tools against a real server", () => {
  let server: RunningServer;
  let proxy: HeaderProxy;
  let outDir: string;

  beforeAll(async () => {
    const read = readConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_REQUESTS: "false",
      LOG_LEVEL: "silent",
      STEP_DELAY_MS: "0",
      RATE_LIMIT_RPS: "1000",
    });
    if (!read.ok) throw new Error(read.errors.join("; "));
    server = await startServer(read.config);
    proxy = await startHeaderProxy(server.url, { "x-api-key": KEYS.aOwner });
    outDir = mkdtempSync(path.join(tmpdir(), "mcp-conformance-"));
  });

  afterAll(async () => {
    await proxy?.close();
    await server?.close();
    if (outDir && !process.env.KEEP_MCP_CONFORMANCE) rmSync(outDir, { recursive: true, force: true });
  });

  it("passes the conformance server suite with only the baseline's expected failures", async () => {
    const res = await run([
      CONFORMANCE,
      "server",
      "--url",
      `${proxy.url}/mcp/`,
      "--expected-failures",
      BASELINE,
      "-o",
      outDir,
    ]);
    expect(res.code, res.stdout.slice(-3000) + res.stderr.slice(-2000)).toBe(0);
    // The scenarios that apply passed on their own checks (not merely "not in the baseline").
    for (const scenario of APPLICABLE) {
      const dir = readdirSync(outDir).find((d) => d.startsWith(`server-${scenario}-`));
      expect(dir, `results of ${scenario}`).toBeDefined();
      const checks = JSON.parse(readFileSync(path.join(outDir, dir!, "checks.json"), "utf8")) as {
        id: string;
        status: string;
      }[];
      expect(checks.length, scenario).toBeGreaterThan(0);
      for (const check of checks)
        expect(`${scenario}/${check.id}: ${check.status}`).toBe(`${scenario}/${check.id}: SUCCESS`);
    }
  });

  it("the Inspector CLI lists the fifteen tools and calls svc__get_me with an x-api-key header", async () => {
    const base = [
      "--cli",
      "--server-url",
      `${server.url}/mcp/`,
      "--transport",
      "http",
      "--header",
      `x-api-key: ${KEYS.aOwner}`,
    ];
    const list = await run([INSPECTOR, ...base, "--method", "tools/list"]);
    expect(list.code, list.stderr).toBe(0);
    const names = (JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name).sort();
    expect(names).toEqual(Object.keys(zMcpToolCatalogue.shape).sort());

    const me = await run([INSPECTOR, ...base, "--method", "tools/call", "--tool-name", "svc__get_me"]);
    expect(me.code, me.stderr).toBe(0);
    const result = JSON.parse(me.stdout) as { structuredContent: { account_id: string; id: string } };
    expect(result.structuredContent).toMatchObject({ account_id: "acc_demoA", id: "usr_a_owner" });

    // Exit code 3 is the Inspector's "authentication required": the server's 401.
    const anonymous = await run([
      INSPECTOR,
      "--cli",
      "--server-url",
      `${server.url}/mcp/`,
      "--transport",
      "http",
      "--method",
      "tools/list",
    ]);
    expect(anonymous.code).toBe(3);
  });
});
