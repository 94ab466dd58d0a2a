// The breaking-change gate over real TypeSpec edits. Each edit is made to a
// scratch copy of main.tsp + spec/ (examples updated the way an author would,
// since @opExample values are type-checked), compiled by tsp, and compared
// with release 0.1.0. Compiles are batched to keep the file cheap on a shared
// machine: one compile holds every breaking edit (each must come out as its
// own error), one holds every additive edit plus a breaking edit in a group
// the seed says may change (exit 0), one holds a single rename run through
// the CLI (exit 1, Markdown and JUnit), one does not compile (exit 2); a
// scratch checkout releases an additive edit (one `npm run generate`) and is
// refused a breaking one.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffContracts, type DiffReport, type Finding } from "../../scripts/lib/contract-diff.ts";
import { compileTypeSpec, readDocument, releases, root } from "../../scripts/lib/contract-source.ts";

const scratchRoot = path.join(root, "tmp");
const made: string[] = [];
const base = () => readDocument(path.join(root, "releases", "0.1.0", "openapi.json"));

/** A scratch TypeSpec project (under tmp/ so @typespec/* resolve from the repository's node_modules). */
function scratch(): string {
  mkdirSync(scratchRoot, { recursive: true });
  const dir = mkdtempSync(path.join(scratchRoot, "contract-edit-"));
  made.push(dir);
  cpSync(path.join(root, "main.tsp"), path.join(dir, "main.tsp"));
  cpSync(path.join(root, "tspconfig.yaml"), path.join(dir, "tspconfig.yaml"));
  cpSync(path.join(root, "spec"), path.join(dir, "spec"), { recursive: true });
  return dir;
}

/** Replaces every `from` in a file of the scratch copy, insisting on how many there are (an edit that silently missed would make the test vacuous). */
function edit(dir: string, file: string, from: string, to: string, times = 1): void {
  const p = path.join(dir, file);
  const text = readFileSync(p, "utf8");
  expect(text.split(from).length - 1, `${file}: occurrences of ${JSON.stringify(from.slice(0, 60))}`).toBe(times);
  writeFileSync(p, text.split(from).join(to));
}

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(
    path.join(root, "node_modules", ".bin", "tsx"),
    [path.join(root, "scripts", "contract-diff.ts"), ...args],
    {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH}` },
    },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function find(r: DiffReport, pred: (f: Finding) => boolean): Finding {
  const f = r.findings.find(pred);
  expect(
    f,
    `no such finding among:\n${r.findings.map((x) => `${x.severity} ${x.rule} ${x.subject} ${x.change}`).join("\n")}`,
  ).toBeDefined();
  return f!;
}

afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe("releases", () => {
  // (not compared with generated/: the contract may move on additively after a release)
  it("0.1.0 is frozen in the kit's layout with info version 0.1.0", () => {
    expect(releases()).toContain("0.1.0");
    const frozen = base();
    expect(frozen.info.version).toBe("0.1.0");
    expect(frozen.openapi).toBe("3.1.0");
    expect(Object.keys(frozen.paths)).toContain("/v1/mentions");
    expect(readFileSync(path.join(root, "releases", "0.1.0", "client", "zod.gen.ts"), "utf8")).toContain(
      "export const zMentionsMention = ",
    );
  });

  it("the release command refuses an existing, older or malformed version before writing anything", () => {
    for (const [v, words] of [
      ["0.1.0", "already exists"],
      ["0.0.9", "already exists|not newer"],
      ["v1", "semantic version"],
    ] as const) {
      const r = spawnSync(
        path.join(root, "node_modules", ".bin", "tsx"),
        [path.join(root, "scripts", "contract-release.ts"), v],
        { cwd: root, encoding: "utf8" },
      );
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(new RegExp(words));
    }
  });
});

describe("releasing (in a scratch checkout, which the release script writes into)", () => {
  let repo: string;
  // versions after whatever is released in the repository now (so the test outlives real releases)
  const [major, minor] = (releases().at(-1) ?? "0.0.0").split(".").map(Number);
  const next = `${major}.${minor + 1}.0`;
  const after = `${major}.${minor + 2}.0`;
  const release = (...args: string[]) =>
    spawnSync(
      path.join(root, "node_modules", ".bin", "tsx"),
      [path.join(repo, "scripts", "contract-release.ts"), ...args],
      {
        cwd: repo,
        encoding: "utf8",
        env: { ...process.env, PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH}` },
      },
    );
  beforeAll(() => {
    repo = scratch();
    for (const f of ["openapi-ts.config.ts", "CHANGELOG.md", "package.json"])
      cpSync(path.join(root, f), path.join(repo, f));
    for (const d of ["generated", "releases"]) cpSync(path.join(root, d), path.join(repo, d), { recursive: true });
    mkdirSync(path.join(repo, "scripts", "lib"), { recursive: true });
    for (const f of [
      "generate.mjs",
      "contract-release.ts",
      "contract-diff.ts",
      "lib/contract-diff.ts",
      "lib/contract-policy.ts",
      "lib/contract-report.ts",
      "lib/contract-source.ts",
    ])
      cpSync(path.join(root, "scripts", f), path.join(repo, "scripts", f));
    symlinkSync(path.join(root, "node_modules"), path.join(repo, "node_modules"), "dir");
  });

  it("freezes an additive edit as the next minor version: info version, generated/, releases/<version> and the changelog section", () => {
    edit(
      repo,
      "spec/datasets/runs.models.tsp",
      "  /** What to collect. */\n  search_query: SearchQuery;\n",
      "  /** What to collect. */\n  search_query: SearchQuery;\n\n  /** A note kept with the run. */\n  note?: string;\n",
    );
    const r = release(next, "--date=2026-12-01");
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(readFileSync(path.join(repo, "main.tsp"), "utf8")).toContain(`version: "${next}"`);
    const frozen = readDocument(path.join(repo, "releases", next, "openapi.json"));
    expect(frozen.info.version).toBe(next);
    expect(frozen).toEqual(readDocument(path.join(repo, "generated", "openapi.json")));
    expect(frozen.components.schemas["Datasets.CreateDatasetRunBody"].properties.note).toBeDefined();
    expect(readFileSync(path.join(repo, "releases", next, "client", "zod.gen.ts"), "utf8")).toMatch(
      /note: z\.string\(\)\.optional\(\)/,
    );
    const log = readFileSync(path.join(repo, "CHANGELOG.md"), "utf8");
    expect(log.indexOf(`## ${next} — 2026-12-01`)).toBeGreaterThan(0);
    expect(log.indexOf(`## ${next}`)).toBeLessThan(log.indexOf("## 0.1.0"));
    expect(log).toContain("| field `note` added | `Datasets.CreateDatasetRunBody › note` | datasets |");
  }, 120_000);

  it("refuses a breaking edit and writes nothing", () => {
    const before = ["main.tsp", "CHANGELOG.md", "generated/openapi.json"].map((f) =>
      readFileSync(path.join(repo, f), "utf8"),
    );
    edit(
      repo,
      "spec/datasets/runs.models.tsp",
      "  @minValue(20)\n  @maxValue(1000)\n  count?: int32 = 200;",
      "  @minValue(20)\n  @maxValue(500)\n  count?: int32 = 200;",
    );
    const r = release(after);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/error +breaking +maximum 1000 → 500/);
    expect(r.stderr).toMatch(/not released/);
    expect(releases(path.join(repo, "releases"))).toEqual([...releases(), next]);
    expect(
      ["main.tsp", "CHANGELOG.md", "generated/openapi.json"].map((f) => readFileSync(path.join(repo, f), "utf8")),
    ).toEqual(before);
  }, 120_000);
});

describe("breaking edits to stable groups and error codes are errors", () => {
  let report: DiffReport;
  beforeAll(() => {
    const dir = scratch();
    // rename a Mention field (model and examples, as a search-and-replace would)
    edit(dir, "spec/mentions/models.tsp", "are_views_estimated", "views_estimated", 2);
    edit(dir, "spec/mentions/routes.tsp", "are_views_estimated", "views_estimated");
    // rename an error code of tracking agents (a group that may change: the code rule still applies)
    edit(
      dir,
      "spec/common/errors.tsp",
      'dataset_has_no_queries: "dataset_has_no_queries"',
      'dataset_without_queries: "dataset_without_queries"',
    );
    edit(
      dir,
      "spec/tracking-agents/models.tsp",
      'ClientError<"dataset_has_no_queries">',
      'ClientError<"dataset_without_queries">',
    );
    // tighten `count` of a dataset run
    edit(
      dir,
      "spec/datasets/runs.models.tsp",
      "  /** Mentions to collect, 20-1000; the reservation is sized by it. */\n  @minValue(20)\n  @maxValue(1000)",
      "  /** Mentions to collect, 20-500; the reservation is sized by it. */\n  @minValue(20)\n  @maxValue(500)",
    );
    // a new required request field (and the example that must now carry it)
    edit(
      dir,
      "spec/datasets/models.tsp",
      "model CreateDatasetBody {\n  /** 1-255 characters. */\n  name: ResourceName;",
      "model CreateDatasetBody {\n  /** 1-255 characters. */\n  name: ResourceName;\n\n  /** Where the dataset is filed. */\n  folder: string;",
    );
    edit(
      dir,
      "spec/datasets/routes.tsp",
      'parameters: #{ body: #{ name: "Oat milk launch" } },',
      'parameters: #{ body: #{ name: "Oat milk launch", folder: "launches" } },',
    );
    // remove an enum value (sentiment labels: a search filter and part of every mention)
    edit(dir, "spec/mentions/models.tsp", "  /** Neutral. */\n  neutral,\n", "");
    // a new price category while the contract no longer tells clients to expect new keys
    edit(dir, "spec/account/models.tsp", " * New categories ship as additive keys.\n", "");
    edit(
      dir,
      "spec/account/models.tsp",
      "  /** Per preview source (1 unit). */\n  preview_generation: Dollars;\n}",
      "  /** Per preview source (1 unit). */\n  preview_generation: Dollars;\n\n  /** Per transcribed minute. */\n  transcription?: Dollars;\n}",
    );
    // a new error code on an existing operation
    edit(
      dir,
      "spec/datasets/models.tsp",
      "/** Body of `POST /v1/datasets`. */",
      '/** 409 `dataset_locked`. */\nmodel DatasetLockedError is ClientError<"dataset_locked">;\n\n/** Body of `POST /v1/datasets`. */',
    );
    edit(
      dir,
      "spec/datasets/routes.tsp",
      "read(...DatasetIdParam): Ok<DatasetEnvelope> | InputErrors | DatasetNotFound;",
      "read(...DatasetIdParam): Ok<DatasetEnvelope> | InputErrors | DatasetNotFound | ErrorResponse<409, DatasetLockedError>;",
    );
    report = diffContracts(base(), compileTypeSpec(dir).doc);
  }, 120_000);

  it("renaming a Mention field", () => {
    const f = find(
      report,
      (x) => x.rule === "field-renamed" && x.change.includes("`are_views_estimated` renamed to `views_estimated`"),
    );
    expect(f.severity).toBe("error");
    expect(f.subject).toBe("Mentions.Mention › are_views_estimated");
    expect(f.groups).toContain("mentions");
    expect(f.operations).toContain("POST /v1/mentions");
  });

  it("renaming an error code, even in a group that may change", () => {
    const f = find(
      report,
      (x) => x.rule === "error-code-removed" && x.subject === "error_code `dataset_has_no_queries`",
    );
    expect(f.severity).toBe("error");
    expect(f.change).toContain("dataset_without_queries");
  });

  it("tightening `count`", () => {
    const f = find(report, (x) => x.rule === "bound-changed" && x.subject === "Datasets.CreateDatasetRunBody › count");
    expect(f.change).toBe("maximum 1000 → 500");
    expect([f.severity, f.kind]).toEqual(["error", "breaking"]);
    expect(f.operations).toEqual(["POST /v1/datasets/{dataset_id}/runs"]);
  });

  it("adding a required request field", () => {
    const f = find(report, (x) => x.rule === "required-field-added" && x.change === "required field `folder` added");
    expect([f.severity, f.kind, f.subject, f.groups.join()]).toEqual([
      "error",
      "breaking",
      "Datasets.CreateDatasetBody › folder",
      "datasets",
    ]);
  });

  it("removing an enum value, in requests and in responses", () => {
    const removed = report.findings.filter(
      (x) => x.rule === "enum-value-removed" && x.change === "value `neutral` removed",
    );
    expect(removed.length).toBeGreaterThan(0);
    expect(
      removed.every((x) => x.severity === "error" || !x.groups.some((g) => ["mentions", "datasets"].includes(g))),
    ).toBe(true);
    expect(removed.some((x) => x.severity === "error" && x.groups.includes("mentions"))).toBe(true);
  });

  it("a new error code on an existing operation", () => {
    const f = find(
      report,
      (x) => x.rule === "status-added" && x.subject === "GET /v1/datasets/{dataset_id} › response 409",
    );
    expect([f.severity, f.kind]).toEqual(["error", "breaking"]);
    expect(f.reason).toContain("`dataset_locked`");
  });

  it("a new price category the contract does not tell clients to tolerate", () => {
    const f = find(report, (x) => x.rule === "field-added" && x.subject === "Account.CategoryPrices › transcription");
    expect([f.severity, f.kind]).toEqual(["error", "breaking"]);
    expect(f.reason).toMatch(/does not tell clients/);
  });
});

describe("additive edits pass; a breaking edit in a group that may change warns", () => {
  let run: ReturnType<typeof cli>;
  let report: DiffReport & { labels: unknown };
  beforeAll(() => {
    const dir = scratch();
    // a new operation (with a new error code on the new path)
    writeFileSync(
      path.join(dir, "spec", "datasets", "stats.tsp"),
      `import "@typespec/http";
import "./models.tsp";
using Http;
using SocialListening.Common;
namespace SocialListening.Datasets;
/** How much a dataset holds. */
model DatasetStats {
  /** Mentions in the dataset. */
  mentions: int32;
}
/** 409 \`dataset_busy\`. */
model DatasetBusyError is ClientError<"dataset_busy">;
/** Statistics of a dataset. */
@route("/v1/datasets/{dataset_id}/stats")
@tag("Datasets")
interface DatasetStatistics {
  /** Read a dataset's statistics. */
  @summary("Dataset statistics")
  @get stats(...DatasetIdParam): Ok<DatasetStats> | DatasetNotFound | ErrorResponse<409, DatasetBusyError>;
}
`,
    );
    edit(dir, "spec/datasets/main.tsp", 'import "./routes.tsp";', 'import "./routes.tsp";\nimport "./stats.tsp";');
    // an optional request field and a new response field
    edit(
      dir,
      "spec/datasets/runs.models.tsp",
      "  /** What to collect. */\n  search_query: SearchQuery;\n",
      "  /** What to collect. */\n  search_query: SearchQuery;\n\n  /** A note kept with the run. */\n  note?: string;\n",
    );
    edit(
      dir,
      "spec/datasets/models.tsp",
      "model Dataset {\n  /** Opaque id with the `ds_` prefix. */\n  id: string;\n",
      "model Dataset {\n  /** Opaque id with the `ds_` prefix. */\n  id: string;\n\n  /** Free text about the dataset. */\n  description?: string;\n",
    );
    // a new price category: the contract says new categories ship as additive keys
    edit(
      dir,
      "spec/account/models.tsp",
      "  /** Per preview source (1 unit). */\n  preview_generation: Dollars;\n}",
      "  /** Per preview source (1 unit). */\n  preview_generation: Dollars;\n\n  /** Per transcribed minute. */\n  transcription?: Dollars;\n}",
    );
    // a loosened bound (compatible) and a tightened one in tracking agents (may change: warning)
    edit(
      dir,
      "spec/datasets/runs.models.tsp",
      "  /** Mentions to collect, 20-1000; the reservation is sized by it. */\n  @minValue(20)\n  @maxValue(1000)",
      "  /** Mentions to collect, 20-2000; the reservation is sized by it. */\n  @minValue(20)\n  @maxValue(2000)",
    );
    edit(
      dir,
      "spec/tracking-agents/models.tsp",
      "  /** Posts to collect per dataset per cycle, 20-1000. */\n  @minValue(20)\n  @maxValue(1000)\n  count?: int32 = 200;",
      "  /** Posts to collect per dataset per cycle, 20-500. */\n  @minValue(20)\n  @maxValue(500)\n  count?: int32 = 200;",
    );
    // a code the release already has, documented on one more operation
    edit(
      dir,
      "spec/account/routes.tsp",
      "  read(): Ok<PricesEnvelope> | CommonErrors;",
      "  read(): Ok<PricesEnvelope> | CommonErrors | DatasetNotFound;",
    );
    const json = path.join(dir, "diff.json");
    run = cli(["--base", "0.1.0", "--project", dir, "--json", json]);
    report = JSON.parse(readFileSync(json, "utf8"));
  }, 120_000);

  it("exits 0 with no error", () => {
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(report.counts.error).toBe(0);
  });

  it("lists each additive change as additive", () => {
    expect(
      find(report, (x) => x.rule === "operation-added" && x.subject === "GET /v1/datasets/{dataset_id}/stats").kind,
    ).toBe("additive");
    expect(find(report, (x) => x.subject === "Datasets.CreateDatasetRunBody › note").kind).toBe("additive");
    expect(find(report, (x) => x.subject === "Datasets.Dataset › description").kind).toBe("additive");
    const price = find(report, (x) => x.subject === "Account.CategoryPrices › transcription");
    expect([price.kind, price.severity]).toEqual(["additive", "info"]);
    expect(price.reason).toMatch(/additive keys/);
    expect(find(report, (x) => x.change === "maximum 1000 → 2000").kind).toBe("compatible");
    const known = find(report, (x) => x.subject === "GET /v1/prices › response 404");
    expect([known.kind, known.severity]).toEqual(["compatible", "info"]);
    expect(known.reason).toContain("`dataset_not_found`");
  });

  it("warns, naming the group, for a breaking change in tracking agents", () => {
    const w = find(report, (x) => x.severity === "warning" && x.change === "maximum 1000 → 500");
    expect(w.kind).toBe("breaking");
    expect(w.subject).toBe("TrackingAgents.CreateTrackingAgentBody › count");
    expect(w.groups).toEqual(["tracking agents"]);
    expect(w.reason).toMatch(/tracking agents, which the seed says may change/);
    expect(run.stdout).toMatch(/warning +breaking +maximum 1000 → 500/);
  });
});

describe("the CLI", () => {
  it("fails (exit 1) on a renamed Mention field, with the table, Markdown and JUnit", () => {
    const dir = scratch();
    edit(dir, "spec/mentions/models.tsp", "are_views_estimated", "views_estimated", 2);
    edit(dir, "spec/mentions/routes.tsp", "are_views_estimated", "views_estimated");
    const md = path.join(dir, "diff.md");
    const xml = path.join(dir, "junit.xml");
    const r = cli(["--project", dir, "--markdown", md, "--junit", xml]);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/error +breaking +field `are_views_estimated` renamed to `views_estimated`/);
    expect(r.stdout).toMatch(/1 error, 0 warnings/);
    const text = readFileSync(md, "utf8");
    expect(text).toContain("### Breaking changes");
    expect(text).toContain(
      "| field `are_views_estimated` renamed to `views_estimated` (removed and added) | `Mentions.Mention › are_views_estimated` | mentions, MCP tools |",
    );
    expect(readFileSync(xml, "utf8")).toMatch(/<failure[^>]*message="field `are_views_estimated` renamed/);
  }, 120_000);

  it("passes (exit 0) on today's contract against the latest release, and against itself with no change", () => {
    const r = cli(["--current", "generated/openapi.json"]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^0 errors, /m);
    const same = cli(["--base", "releases/0.1.0/openapi.json", "--current", "releases/0.1.0/openapi.json"]);
    expect(same.status).toBe(0);
    expect(same.stdout).toContain("No change a client or a deployment would notice.");
  });

  it("says in one line, exit 2, when the base or the TypeSpec is unusable", () => {
    const dir = scratch();
    const old = path.join(dir, "old.json");
    writeFileSync(old, JSON.stringify({ openapi: "3.0.3", info: { title: "x", version: "1" }, paths: {} }));
    edit(dir, "spec/datasets/models.tsp", "model CreateDatasetBody {", "model CreateDatasetBody { oops");
    const cases: Array<[string[], RegExp]> = [
      [
        ["--base", "9.9.9", "--current", "generated/openapi.json"],
        /release 9\.9\.9 does not exist \(released: 0\.1\.0/,
      ],
      [
        ["--base", old, "--current", "generated/openapi.json"],
        /is not an OpenAPI 3\.1 document \(openapi: "3\.0\.3"\)/,
      ],
      [
        ["--base", "no-such-ref-h16", "--current", "generated/openapi.json"],
        /neither a release .* a file, nor a git ref/,
      ],
      [["--current", old], /is not an OpenAPI 3\.1 document/],
      [["--project", dir], /TypeSpec does not compile: .*datasets\/models\.tsp/],
    ];
    for (const [args, words] of cases) {
      const r = cli(args);
      expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(r.stderr).toMatch(words);
    }
  }, 120_000);
});
