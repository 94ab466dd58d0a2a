// Unit tests of the kit's parts: contract loader, negative data, limiter, curl, CLI settings, registry discipline.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Contract, zodNameOf } from "../src/contract.ts";
import { KeyLimiter, curlOf } from "../src/http.ts";
import { allChecks } from "../src/registry.ts";
import { bodyCases, queryCases } from "../src/checks/support/negative.ts";
import { buildProgram, settingsFrom } from "../src/cli.ts";
import { catalogueMarkdown } from "../src/catalogue.ts";
import { selectChecks } from "../src/runner.ts";
import { settings } from "./helpers.ts";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const contract = Contract.load();

describe("contract loader", () => {
  it("names zod schemas the way the generator does", () => {
    expect(zodNameOf("Datasets.DatasetPage")).toBe("zDatasetsDatasetPage");
    expect(zodNameOf("Common.ValidationError")).toBe("zCommonValidationError");
  });
  it("maps every documented JSON response of the datasets vertical to a generated zod schema", () => {
    for (const op of contract.operations.filter((o) => o.path.startsWith("/v1/datasets"))) {
      for (const r of op.responses.values())
        if (r.hasJson) expect(r.zod, `${op.operationId} ${r.status}`).toBeDefined();
    }
  });
  it("matches concrete paths to operations, static segments first", () => {
    expect(contract.match("GET", "/v1/datasets/ds_1/runs")?.operationId).toBe("DatasetRuns_list");
    expect(contract.match("GET", "/v1/datasets/ds_1")?.operationId).toBe("Datasets_read");
    expect(contract.match("GET", "/v1/nowhere")).toBeUndefined();
  });
  it("restricts to a scope", () => {
    const c = Contract.load(undefined, ["/v1/datasets"]);
    expect(c.operations.every((o) => o.path.startsWith("/v1/datasets"))).toBe(true);
    expect(c.op("GET /v1/me")).toBeUndefined();
  });
});

describe("negative data from the contract", () => {
  it("crosses every bound of POST /v1/datasets and each case is rejected by the generated zod", () => {
    const op = contract.op("POST /v1/datasets")!;
    const labels = bodyCases(contract, op).map((c) => c.label);
    expect(labels).toEqual(
      expect.arrayContaining([
        "name: missing required field",
        "name: maxLength 255 + 1",
        "name: minLength 1 - 1",
        expect.stringMatching(/^name: wrong type/),
      ]),
    );
    const z = contract.zodOf("Datasets.CreateDatasetBody")!;
    for (const c of bodyCases(contract, op)) expect(z.safeParse(c.body).success).toBe(false);
  });
  it("covers the dataset run bounds of the seed (count 20-1000, comments 0-100)", () => {
    const op = contract.op("POST /v1/datasets/{dataset_id}/runs");
    if (!op) return;
    const labels = bodyCases(contract, op).map((c) => c.label);
    expect(labels).toEqual(
      expect.arrayContaining([
        "count: minimum 20 - 1",
        "count: maximum 1000 + 1",
        "num_comments_per_post: maximum 100 + 1",
      ]),
    );
  });
  it("crosses the limit bounds of list queries", () => {
    const labels = queryCases(contract.op("GET /v1/datasets")!).map((c) => c.label);
    expect(labels).toEqual(
      expect.arrayContaining([
        "query limit: minimum 1 - 1",
        "query limit: maximum 100 + 1",
        "query order: unknown enum value",
      ]),
    );
  });
});

describe("limiter", () => {
  it("never lets more than `limit` requests into any ~1 s window", async () => {
    const l = new KeyLimiter(4);
    const stamps: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        await l.take();
        stamps.push(Date.now());
      }),
    );
    stamps.sort((a, b) => a - b);
    for (let i = 4; i < stamps.length; i++) expect(stamps[i] - stamps[i - 4]).toBeGreaterThanOrEqual(1000);
  });
  it("learns RateLimit-Limit and honours Retry-After", async () => {
    const l = new KeyLimiter(5);
    l.observe({ "ratelimit-limit": "2", "retry-after": "1" });
    expect(l.limit).toBe(2);
    const t0 = Date.now();
    await l.take();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
  });
});

describe("reproduction", () => {
  it("redacts the key to its environment variable", () => {
    const c = curlOf({
      method: "POST",
      url: "http://x/v1/datasets",
      requestHeaders: { "x-api-key": "sl_live_secret", "content-type": "application/json" },
      requestBody: '{"name":"it\'s"}',
      keyRole: "foreign",
    });
    expect(c).not.toContain("sl_live_secret");
    expect(c).toContain("$SLK_FOREIGN_KEY");
    expect(c).toContain(`'{"name":"it'\\''s"}'`);
  });
});

describe("CLI settings", () => {
  it("reads the same settings from flags and from SLK_* variables", () => {
    const viaFlags = buildProgram()
      .parse([
        "node",
        "x",
        "--base-url",
        "http://h",
        "--api-key",
        "k",
        "--profile",
        "readonly",
        "--budget",
        "2.5",
        "--only",
        "a,b",
        "c",
        "--seed",
        "7",
      ])
      .opts();
    const s = settingsFrom(viaFlags);
    expect(s).toMatchObject({
      baseUrl: "http://h",
      keys: { main: "k" },
      profile: "readonly",
      budgetUsd: 2.5,
      only: ["a", "b", "c"],
      seed: 7,
    });
    const env = { ...process.env };
    Object.assign(process.env, {
      SLK_BASE_URL: "http://e",
      SLK_API_KEY: "ek",
      SLK_FOREIGN_KEY: "fk",
      SLK_PROFILE: "full",
      SLK_SEED: "9",
      SLK_ONLY: "x y",
    });
    try {
      const e = settingsFrom(buildProgram().parse(["node", "x"]).opts());
      expect(e).toMatchObject({
        baseUrl: "http://e",
        keys: { main: "ek", foreign: "fk" },
        profile: "full",
        seed: 9,
        only: ["x", "y"],
      });
    } finally {
      process.env = env;
    }
  });
  it("runs as a package bin under plain node", () => {
    const out = execFileSync(process.execPath, [here("../bin/sl-conformance.mjs"), "--list"], { encoding: "utf8" });
    for (const c of allChecks) expect(out).toContain(c.id);
  });
  it("exits 2 without a base URL", () => {
    let code = 0;
    try {
      execFileSync(process.execPath, [here("../bin/sl-conformance.mjs")], {
        encoding: "utf8",
        stdio: "pipe",
        env: { ...process.env, SLK_BASE_URL: "", SLK_API_KEY: "" },
      });
    } catch (e) {
      code = (e as { status: number }).status;
    }
    expect(code).toBe(2);
  });
});

describe("registry discipline", () => {
  it("one rule per file: each check lives in checks/<id>.ts", () => {
    for (const c of allChecks) expect(existsSync(here(`../src/checks/${c.id}.ts`)), c.id).toBe(true);
    expect(new Set(allChecks.map((c) => c.id)).size).toBe(allChecks.length);
  });
  it("the checks folder lists only rules: every other module lives in checks/support/", () => {
    const ids = new Set(allChecks.map((c) => `${c.id}.ts`));
    const files = readdirSync(here("../src/checks/")).filter((f) => f.endsWith(".ts") && f !== "index.ts");
    expect(files.filter((f) => !ids.has(f))).toEqual([]);
  });
  it("the README catalogue is the registry's catalogue", () => {
    const readme = readFileSync(here("../README.md"), "utf8");
    expect(readme).toContain(catalogueMarkdown().trim());
  });
  it("selects by profile, mock and --only, with a reason for every skip", () => {
    const sel = selectChecks(settings("http://x", { profile: "readonly", mock: true }), contract);
    for (const s of sel) if (s.skip) expect(s.skip.length).toBeGreaterThan(5);
    expect(sel.find((s) => s.check.id === "valid-request-accepted")?.skip).toMatch(/profile readonly/);
    expect(selectChecks(settings("http://x", { only: ["success-envelope"] }), contract).map((s) => s.check.id)).toEqual(
      ["success-envelope"],
    );
  });
});
