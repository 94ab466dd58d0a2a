// What a person reads on the console, and the CLI options around a run:
// one line per check (once), -q with only the failures and the verdict line,
// passes with parts not exercised counted (and named with -v), what to do
// next after failures, --exclude, -H, --request-timeout and --hooks.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProgram } from "../src/cli/program.ts";
import { selectedIds } from "../src/cli/selection.ts";
import { headersOf, settingsFrom } from "../src/cli/settings.ts";
import { loadUserHooks, runHooksOf } from "../src/cli/user-hooks.ts";
import { Contract } from "../src/contract.ts";
import { curlOf, HttpClient, TransportError, USER_HEADER_RECORDED } from "../src/http.ts";
import { Ledger } from "../src/ledger.ts";
import { UsageError } from "../src/preflight.ts";
import { allChecks } from "../src/registry.ts";
import { progressLine, summary } from "../src/reporters/console.ts";
import { runKit, type RunReport } from "../src/runner.ts";
import type { CheckResult, Failure } from "../src/types.ts";
import { settle } from "../src/verdict.ts";
import { demoKeys, settings, startReference, type Target } from "./helpers.ts";

const bin = fileURLToPath(new URL("../bin/sl-conformance.mjs", import.meta.url));
const plain = (s: string) => s.replace(/\u001b\[\d+m/g, "");
const check = allChecks.find((c) => c.id === "pagination-full-walk")!;

/** The CLI as a user runs it, asynchronously (the reference answers from this process). */
function cli(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { encoding: "utf8", timeout: 110_000, env: { ...process.env, CI: "1", NO_COLOR: "1" } },
      (err, stdout, stderr) =>
        resolve({ status: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function result(id: string, over: Partial<CheckResult> = {}): CheckResult {
  return { id, outcome: "pass", failures: [], warnings: [], ms: 5, requests: 2, exercised: 1, ...over };
}

function failure(id: string, n: number): Failure {
  return {
    check: id,
    title: `${id}: finding ${n}`,
    operation: "listDatasets",
    status: 500,
    received: { a: n },
    expected: { b: n },
    curl: "curl -sS http://x",
    // a finding made up for the console: it judges a decision, as every real failure names what it judges
    decision: "D-AI-5XX",
  };
}

/** A report as runKit gives it, from results alone. */
function reportOf(results: CheckResult[]): RunReport {
  const s = settings("http://127.0.0.1:1", {});
  return {
    runId: "r1",
    settings: s,
    results,
    requestCount: 10,
    requestsByKey: { main: 10 },
    ms: 1000,
    ledger: new Ledger(Contract.load()),
    exchanges: [],
    spentUsd: "0",
    spend: { committedUsd: "1.5", settledUsd: "0.4", budgetUsd: 3, byCheck: [], commitments: [], uses: {} },
    cleanup: { deleted: 0, failed: [] },
    unplanned429: 0,
    transportErrors: [],
    verdict: settle(results, s),
  };
}

describe("console lines", () => {
  it("a pass with parts it could not exercise says how many; -v names them", () => {
    const r = result(check.id, { unexercised: ["the second page (only one page)", "a foreign key (none given)"] });
    const line = plain(progressLine(check, r));
    expect(line).toMatch(/^PASS pagination-full-walk\s.*2 part\(s\) not exercised \(-v names them\)$/);
    expect(line.split("\n")).toHaveLength(1);
    const verbose = plain(progressLine(check, r, { verbose: true })).split("\n");
    expect(verbose).toHaveLength(3);
    expect(verbose[1]).toMatch(/not exercised: the second page/);
  });

  it("a failing run: one line per failure, what to do next, the verdict line last, no per-check table", () => {
    const results = [
      ...Array.from({ length: 100 }, (_, i) => result(`check-${i}`)),
      result("bad-a", { outcome: "fail", failures: [failure("bad-a", 1), failure("bad-a", 2)] }),
      result("bad-b", { outcome: "fail", failures: [failure("bad-b", 1)] }),
    ];
    const report = reportOf(results);
    const text = plain(
      summary(report, { next: { replay: "sl-conformance --seed 42 --only bad-a,bad-b", reports: ["r/summary.md"] } }),
    );
    const lines = text.split("\n");
    // fits a screen, plus one line per failure
    expect(lines.length).toBeLessThanOrEqual(20 + 3);
    expect(lines.filter((l) => /^✗ bad-[ab]: finding \d \(listDatasets → 500\)$/.test(l))).toHaveLength(3);
    expect(text).not.toMatch(/\| check-1 \|/);
    expect(text).not.toMatch(/received:/);
    expect(text).toMatch(
      /Next \(2 check\(s\) failed\):\n {2}run them again: sl-conformance --seed 42 --only bad-a,bad-b/,
    );
    expect(text).toMatch(/each failure in full .*r\/summary\.md/);
    expect(lines.at(-1)).toMatch(
      /^run r1: 100 passed, 2 failed, 0 skipped; level contract: .*committed spend \$1\.5, settled \$0\.4 \(budget \$3\)/,
    );
    // -v: each failure in full
    expect(plain(summary(report, { verbose: true }))).toMatch(/- received: {3}\{"a":1\}/);
  });

  it("-q: only the failures and the verdict line", () => {
    const report = reportOf([
      result("good"),
      result("bad", { outcome: "fail", failures: [failure("bad", 1)] }),
      result("skipped", { outcome: "skip", skipReason: "no key" }),
    ]);
    const lines = plain(summary(report, { quiet: true })).split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe("✗ bad: finding 1 (listDatasets → 500)");
    expect(lines[1]).toMatch(/^run r1: 1 passed, 1 failed, 1 skipped;/);
    const passing = plain(summary(reportOf([result("good")]), { quiet: true })).split("\n");
    expect(passing).toHaveLength(1);
  });
});

describe("--only and --exclude", () => {
  it("take ids and groups; excluding wins; an unknown name is a usage error naming the groups", () => {
    const all = allChecks.map((c) => c.id);
    const mcp = allChecks.filter((c) => c.kind === "active" && c.phase === "mcp").map((c) => c.id);
    expect(mcp.length).toBeGreaterThan(3);
    expect(selectedIds(undefined, ["mcp"])).toEqual(all.filter((id) => !mcp.includes(id)));
    expect(selectedIds(["mcp"], [mcp[0]!])).toEqual(mcp.slice(1));
    const response = selectedIds(["response"], undefined)!;
    expect(response.every((id) => allChecks.find((c) => c.id === id)!.kind === "response")).toBe(true);
    const datasets = selectedIds(["datasets"], undefined)!;
    expect(datasets).toContain("billing-settlement-exact");
    expect(() => selectedIds(undefined, ["no-such-thing"])).toThrow(
      /--exclude: unknown .*no-such-thing.*groups: requests, resources/,
    );
    expect(() => selectedIds(["mcp"], ["mcp"])).toThrow(UsageError);
  });

  it("reads --exclude and repeated -H from flags, SLK_HEADERS one per line", () => {
    const o = buildProgram()
      .parse(["node", "x", "--exclude", "mcp", "-H", "X-Gateway: abc", "-H", "X-Trace:1", "--request-timeout", "2"])
      .opts();
    expect(o.exclude).toEqual(["mcp"]);
    const s = settingsFrom(o);
    expect(s.headers).toEqual({ "X-Gateway": "abc", "X-Trace": "1" });
    expect(s.requestTimeoutMs).toBe(2000);
    expect(headersOf("A: 1\nB: two words")).toEqual({ A: "1", B: "two words" });
    expect(() => headersOf("x-api-key: k")).toThrow(/--api-key/);
    expect(() => headersOf("Content-Type: text/plain")).toThrow(/sets this header itself/);
    expect(() => headersOf("no colon")).toThrow(/expected 'Name: value'/);
  });
});

describe("requests on the wire", () => {
  let server: Server;
  let base = "";
  const seen: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      if (req.url === "/v1/slow") return; // never answers
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"data":{}}');
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("-H goes on every request under the kit's own headers, and no report or curl line carries its value", async () => {
    const client = new HttpClient({
      baseUrl: base,
      keys: { main: "k-main" },
      contract: Contract.load(),
      headers: { "X-Gateway": "secret-token", Authorization: "Bearer gateway" },
    });
    const plainEx = await client.request({ method: "GET", path: "/v1/me" });
    const bearerEx = await client.request({
      method: "GET",
      path: "/v1/me",
      key: "none",
      headers: { authorization: "Bearer check-own" },
    });
    expect(seen.at(-2)).toMatchObject({
      "x-gateway": "secret-token",
      authorization: "Bearer gateway",
      "x-api-key": "k-main",
    });
    // the check's own Authorization wins over the -H one
    expect(seen.at(-1)).toMatchObject({ "x-gateway": "secret-token", authorization: "Bearer check-own" });
    expect(seen.at(-1)!["x-api-key"]).toBeUndefined();
    expect(plainEx.requestHeaders["X-Gateway"]).toBe(USER_HEADER_RECORDED);
    expect(JSON.stringify([plainEx, bearerEx])).not.toContain("secret-token");
    expect(curlOf(plainEx)).not.toContain("secret-token");
  });

  it("--request-timeout: a request without an answer in time is a timeout, not a wait", async () => {
    const client = new HttpClient({ baseUrl: base, keys: { main: "k" }, contract: Contract.load(), timeoutMs: 400 });
    const t0 = Date.now();
    const err = await client.request({ method: "GET", path: "/v1/slow" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).kind).toBe("timeout");
    expect((err as TransportError).detail).toMatch(/no answer within 0\.4 s/);
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});

describe("against the reference", () => {
  let ref: Target;
  let dir: string;
  beforeAll(async () => {
    ref = await startReference({ rateLimitPerSecond: 50, stepDelayMs: 0 });
    dir = mkdtempSync(join(tmpdir(), "slk-cli-"));
  });
  afterAll(async () => ref?.close());

  it("--hooks: beforeCheck and afterCheck around each active check; a skip or a throw of beforeCheck skips it", async () => {
    const log = join(dir, "hooks.log");
    const module = join(dir, "hooks.mjs");
    writeFileSync(
      module,
      `import { appendFileSync } from "node:fs";
export async function beforeCheck(check, run) {
  appendFileSync(${JSON.stringify(log)}, "before " + check.id + " " + run.profile + "\\n");
  if (check.id === "pagination-garbage-cursor-400") return { skip: "not today" };
  if (check.id === "pagination-padding-optional") throw new Error("tenant reset failed");
}
export function afterCheck(check, result) {
  appendFileSync(${JSON.stringify(log)}, "after " + check.id + " " + result.outcome + "\\n");
  if (check.id === "credit-prices-removed-404") throw new Error("log mark lost");
}
`,
    );
    const s = settings(ref.baseUrl, {
      only: ["credit-prices-removed-404", "pagination-garbage-cursor-400", "pagination-padding-optional"],
    });
    const r = await runKit(s, runHooksOf(await loadUserHooks(module), s));
    const by = new Map(r.results.map((x) => [x.id, x]));
    expect(by.get("credit-prices-removed-404")!.outcome).toBe("pass");
    expect(by.get("credit-prices-removed-404")!.warnings).toContain("afterCheck hook failed: log mark lost");
    expect(by.get("pagination-garbage-cursor-400")).toMatchObject({
      outcome: "skip",
      skipReason: "skipped by --hooks beforeCheck: not today",
      requests: 0,
    });
    expect(by.get("pagination-padding-optional")).toMatchObject({
      outcome: "skip",
      skipReason: "beforeCheck hook failed: tenant reset failed",
    });
    const lines = readFileSync(log, "utf8").trim().split("\n");
    expect(lines).toContain("before credit-prices-removed-404 standard");
    expect(lines).toContain("after credit-prices-removed-404 pass");
    expect(lines).toContain("after pagination-garbage-cursor-400 skip");
    expect(lines.indexOf("before credit-prices-removed-404 standard")).toBeLessThan(
      lines.indexOf("after credit-prices-removed-404 pass"),
    );
    await expect(loadUserHooks(join(dir, "nothing.mjs"))).rejects.toThrow(/no such file/);
    writeFileSync(join(dir, "empty.mjs"), "export const x = 1;\n");
    await expect(loadUserHooks(join(dir, "empty.mjs"))).rejects.toThrow(/neither beforeCheck nor afterCheck/);
  }, 60_000);

  it("the CLI prints each check once; -q prints only the verdict line of a passing run", async () => {
    const k = demoKeys();
    const args = [
      "--base-url",
      ref.baseUrl,
      "--api-key",
      k.main!,
      "--seed",
      "3",
      "--only",
      "pagination,credit-prices-removed-404",
    ];
    // `pagination` is no group: a usage error that lists the groups
    const bad = await cli(args);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--only: unknown check id\(s\) or group\(s\): pagination \(check ids: --list; groups: /);
    const only = ["--only", "lists,credit-prices-removed-404", "--exclude", "pagination-full-walk"];
    const normal = await cli([...args.slice(0, 6), ...only, "--profile", "readonly"]);
    expect(normal.status, normal.stdout + normal.stderr).toBe(0);
    const ids = [...normal.stdout.matchAll(/^(PASS|FAIL|SKIP|ERR) +(\S+)/gm)].map((m) => m[2]);
    expect(ids.length).toBeGreaterThan(3);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain("pagination-full-walk");
    expect(normal.stdout.split("\n").filter((l) => l.includes("credit-prices-removed-404"))).toHaveLength(1);
    expect(normal.stdout.trim().split("\n").at(-1)).toMatch(/^run \S+: \d+ passed/);
    const quiet = await cli([...args.slice(0, 6), ...only, "--profile", "readonly", "-q"]);
    expect(quiet.status).toBe(0);
    expect(quiet.stdout.trim().split("\n")).toHaveLength(1);
    expect(quiet.stdout).toMatch(/^run \S+: \d+ passed/);
    // --request-timeout must be a positive number of seconds
    const timeout = await cli([...args.slice(0, 6), "--request-timeout", "0"]);
    expect(timeout.status).toBe(2);
    expect(timeout.stderr).toMatch(/--request-timeout must be a positive number/);
  }, 120_000);
});
