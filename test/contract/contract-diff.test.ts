// The breaking-change gate over real TypeSpec edits. Each edit is made to a
// scratch copy of main.tsp + spec/ (examples updated the way an author would,
// since @opExample values are type-checked), compiled by tsp, and compared
// with release 0.1.0. Compiles are batched to keep the file cheap on a shared
// machine: one compile holds every breaking edit (each must come out as its
// own error), one holds every additive edit plus a breaking edit in a group
// the seed says may change (exit 0), one holds a single rename run through
// the CLI (exit 1, Markdown and JUnit), one does not compile (exit 2); a
// scratch checkout releases an additive edit (one `npm run generate`) and is
// refused a breaking one. The scripts' runs do not depend on one another
// (but for the two releases, one scratch checkout after the other), so they
// all start when the file does, a few at a time, and each test awaits the
// runs it judges: the file's wall time is no longer the sum of its children's.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Children at once: enough to keep this file's share of a shared machine, few enough not to crowd it. */
const AT_ONCE = 3;
let running = 0;
const waiting: Array<() => void> = [];

/**
 * One of the repository's TypeScript scripts, as `npm run` runs it (tsx, here
 * as node's loader rather than its CLI, which would start a second node), with
 * the pinned Node first on PATH; at most AT_ONCE at a time.
 */
async function script(file: string, args: string[], cwd = root): Promise<Run> {
  if (running >= AT_ONCE) await new Promise<void>((go) => waiting.push(go));
  running++;
  try {
    return await new Promise<Run>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", file, ...args], {
        cwd,
        env: { ...process.env, PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH}` },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      child.once("error", reject);
      child.once("close", (status) => resolve({ status, stdout, stderr }));
    });
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const cli = (args: string[]) => script(path.join(root, "scripts", "contract-diff.ts"), args);

/** Started now, judged later: a failure is reported by the test that awaits it (and is no unhandled rejection before then). */
function started<T>(job: () => Promise<T>): Promise<T> {
  const p = job();
  p.catch(() => undefined);
  return p;
}

/** Generous: a test may wait for runs queued behind the others of this file on a crowded machine. */
const AWAIT_MS = 300_000;

function find(r: DiffReport, pred: (f: Finding) => boolean): Finding {
  const f = r.findings.find(pred);
  expect(
    f,
    `no such finding among:\n${r.findings.map((x) => `${x.severity} ${x.rule} ${x.subject} ${x.change}`).join("\n")}`,
  ).toBeDefined();
  return f!;
}

/** A scratch project with every additive edit, and a breaking one in a group that may change. */
function additiveProject(): string {
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
    '  /** What to collect. */\n  @seed("| search_query | union (see Resources) | required |")\n  search_query: SearchQuery;\n',
    '  /** What to collect. */\n  @seed("| search_query | union (see Resources) | required |")\n  search_query: SearchQuery;\n\n  /** A note kept with the run. */\n  note?: string;\n',
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
    '  /** Mentions to collect, 20-1000; the reservation is sized by it. */\n  @seed("| count | integer | 20-1000, default 200 |")\n  @minValue(20)\n  @maxValue(1000)',
    '  /** Mentions to collect, 20-2000; the reservation is sized by it. */\n  @seed("| count | integer | 20-1000, default 200 |")\n  @minValue(20)\n  @maxValue(2000)',
  );
  edit(
    dir,
    "spec/tracking-agents/models.tsp",
    '  /** Posts to collect per dataset per cycle, 20-1000 (Decision D-TA-CREATE). */\n  @decided("D-TA-CREATE", "bounds")\n  @minValue(20)\n  @maxValue(1000)\n  count?: int32 = 200;',
    '  /** Posts to collect per dataset per cycle, 20-500 (Decision D-TA-CREATE). */\n  @decided("D-TA-CREATE", "bounds")\n  @minValue(20)\n  @maxValue(500)\n  count?: int32 = 200;',
  );
  // a code the release already has, documented on one more operation
  edit(
    dir,
    "spec/account/routes.tsp",
    "  read(): Ok<PricesEnvelope> | CommonErrors;",
    "  read(): Ok<PricesEnvelope> | CommonErrors | DatasetNotFound;",
  );
  return dir;
}

afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

// versions after whatever is released in the repository now (so the test outlives real releases)
const [major, minor] = (releases().at(-1) ?? "0.0.0").split(".").map(Number);
const next = `${major}.${minor + 1}.0`;
const after = `${major}.${minor + 2}.0`;

/** A scratch checkout the release script writes into: the TypeSpec, generated/, releases/ and the scripts it runs. */
function scratchCheckout(): string {
  const repo = scratch();
  for (const f of ["openapi-ts.config.ts", "CHANGELOG.md", "package.json"])
    cpSync(path.join(root, f), path.join(repo, f));
  for (const d of ["generated", "releases"]) cpSync(path.join(root, d), path.join(repo, d), { recursive: true });
  mkdirSync(path.join(repo, "scripts", "lib"), { recursive: true });
  for (const f of ["generate.mjs", "contract-release.ts", "contract-diff.ts"])
    cpSync(path.join(root, "scripts", f), path.join(repo, "scripts", f));
  // the whole library, so a module the diff is split into comes along
  for (const f of readdirSync(path.join(root, "scripts", "lib")).filter((f) => f.endsWith(".ts")))
    cpSync(path.join(root, "scripts", "lib", f), path.join(repo, "scripts", "lib", f));
  symlinkSync(path.join(root, "node_modules"), path.join(repo, "node_modules"), "dir");
  return repo;
}

const releaseIn = (repo: string, ...args: string[]) =>
  script(path.join(repo, "scripts", "contract-release.ts"), args, repo);

/** What the tests below judge: every run of a script, started when the file starts. */
let jobs: {
  refusals: Promise<Array<[string, string, Run]>>;
  releasing: Promise<{
    repo: string;
    additive: Run;
    /** what the additive release left, read before the breaking edit */
    left: { mainTsp: string; frozen: any; generated: any; zod: string; changelog: string };
    refused: Run;
    before: string[];
    afterRefusal: string[];
    releasesAfter: string[];
  }>;
  additive: Promise<{ run: Run; report: DiffReport & { labels: unknown } }>;
  rename: Promise<{ r: Run; md: string; xml: string }>;
  today: Promise<Run>;
  same: Promise<Run>;
  unusable: Promise<Array<[string[], RegExp, Run]>>;
};

beforeAll(() => {
  jobs = {
    // the longest chain first: two releases, one after the other, in one scratch checkout
    releasing: started(async () => {
      const repo = scratchCheckout();
      edit(
        repo,
        "spec/datasets/runs.models.tsp",
        '  /** What to collect. */\n  @seed("| search_query | union (see Resources) | required |")\n  search_query: SearchQuery;\n',
        '  /** What to collect. */\n  @seed("| search_query | union (see Resources) | required |")\n  search_query: SearchQuery;\n\n  /** A note kept with the run. */\n  note?: string;\n',
      );
      const additive = await releaseIn(repo, next, "--date=2026-12-01");
      const read = (f: string) => readFileSync(path.join(repo, f), "utf8");
      const left = {
        mainTsp: read("main.tsp"),
        frozen: additive.status === 0 ? readDocument(path.join(repo, "releases", next, "openapi.json")) : undefined,
        generated: readDocument(path.join(repo, "generated", "openapi.json")),
        zod: additive.status === 0 ? read(`releases/${next}/client/zod.gen.ts`) : "",
        changelog: read("CHANGELOG.md"),
      };
      const watched = ["main.tsp", "CHANGELOG.md", "generated/openapi.json"];
      const before = watched.map(read);
      edit(
        repo,
        "spec/datasets/runs.models.tsp",
        "  @minValue(20)\n  @maxValue(1000)\n  count?: int32 = 200;",
        "  @minValue(20)\n  @maxValue(500)\n  count?: int32 = 200;",
      );
      const refused = await releaseIn(repo, after);
      return {
        repo,
        additive,
        left,
        refused,
        before,
        afterRefusal: watched.map(read),
        releasesAfter: releases(path.join(repo, "releases")),
      };
    }),
    additive: started(async () => {
      const dir = additiveProject();
      const json = path.join(dir, "diff.json");
      const run = await cli(["--base", "0.1.0", "--project", dir, "--json", json]);
      return { run, report: JSON.parse(readFileSync(json, "utf8")) as DiffReport & { labels: unknown } };
    }),
    rename: started(async () => {
      const dir = scratch();
      edit(dir, "spec/mentions/models.tsp", "are_views_estimated", "views_estimated", 3); // the property, a doc and the Mention table quote
      edit(dir, "spec/mentions/routes.tsp", "are_views_estimated", "views_estimated");
      const md = path.join(dir, "diff.md");
      const xml = path.join(dir, "junit.xml");
      const r = await cli(["--project", dir, "--markdown", md, "--junit", xml]);
      return {
        r,
        md: r.status === 1 ? readFileSync(md, "utf8") : "",
        xml: r.status === 1 ? readFileSync(xml, "utf8") : "",
      };
    }),
    unusable: started(async () => {
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
      return Promise.all(cases.map(async ([args, words]) => [args, words, await cli(args)] as [string[], RegExp, Run]));
    }),
    today: started(() => cli(["--current", "generated/openapi.json"])),
    same: started(() => cli(["--base", "releases/0.1.0/openapi.json", "--current", "releases/0.1.0/openapi.json"])),
    refusals: started(() =>
      Promise.all(
        (
          [
            ["0.1.0", "already exists"],
            ["0.0.9", "already exists|not newer"],
            ["v1", "semantic version"],
          ] as const
        ).map(
          async ([v, words]) =>
            [v, words, await script(path.join(root, "scripts", "contract-release.ts"), [v])] as [string, string, Run],
        ),
      ),
    ),
  };
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

  it(
    "the release command refuses an existing, older or malformed version before writing anything",
    { timeout: AWAIT_MS },
    async () => {
      for (const [, words, r] of await jobs.refusals) {
        expect(r.status, r.stderr).toBe(2);
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
        expect(r.stderr).toMatch(new RegExp(words));
      }
    },
  );
});

describe("releasing (in a scratch checkout, which the release script writes into)", () => {
  it(
    "freezes an additive edit as the next minor version: info version, generated/, releases/<version> and the changelog section",
    { timeout: AWAIT_MS },
    async () => {
      const { additive: r, left } = await jobs.releasing;
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(left.mainTsp).toContain(`version: "${next}"`);
      const frozen = left.frozen;
      expect(frozen.info.version).toBe(next);
      expect(frozen).toEqual(left.generated);
      expect(frozen.components.schemas["Datasets.CreateDatasetRunBody"].properties.note).toBeDefined();
      expect(left.zod).toMatch(/note: z\.string\(\)\.optional\(\)/);
      const log = left.changelog;
      expect(log.indexOf(`## ${next} — 2026-12-01`)).toBeGreaterThan(0);
      expect(log.indexOf(`## ${next}`)).toBeLessThan(log.indexOf("## 0.1.0"));
      expect(log).toContain("| field `note` added | `Datasets.CreateDatasetRunBody › note` | datasets |");
    },
  );

  it("refuses a breaking edit and writes nothing", { timeout: AWAIT_MS }, async () => {
    const { refused: r, before, afterRefusal, releasesAfter } = await jobs.releasing;
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/error +breaking +maximum 1000 → 500/);
    expect(r.stderr).toMatch(/not released/);
    expect(releasesAfter).toEqual([...releases(), next]);
    expect(afterRefusal).toEqual(before);
  });
});

describe("breaking edits to stable groups and error codes are errors", () => {
  let report: DiffReport;
  beforeAll(() => {
    const dir = scratch();
    // rename a Mention field (model and examples, as a search-and-replace would; the seed's quote above it stays)
    edit(dir, "spec/mentions/models.tsp", "are_views_estimated: boolean", "views_estimated: boolean");
    edit(dir, "spec/mentions/models.tsp", "see `are_views_estimated`", "see `views_estimated`");
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
    // and its example body
    edit(
      dir,
      "spec/tracking-agents/models.tsp",
      'error_code: "dataset_has_no_queries"',
      'error_code: "dataset_without_queries"',
    );
    // tighten `count` of a dataset run
    edit(
      dir,
      "spec/datasets/runs.models.tsp",
      '  /** Mentions to collect, 20-1000; the reservation is sized by it. */\n  @seed("| count | integer | 20-1000, default 200 |")\n  @minValue(20)\n  @maxValue(1000)',
      '  /** Mentions to collect, 20-500; the reservation is sized by it. */\n  @seed("| count | integer | 20-1000, default 200 |")\n  @minValue(20)\n  @maxValue(500)',
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
  let run: Run;
  let report: DiffReport & { labels: unknown };
  beforeAll(async () => {
    ({ run, report } = await jobs.additive);
  }, AWAIT_MS);

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
  it(
    "fails (exit 1) on a renamed Mention field, with the table, Markdown and JUnit",
    { timeout: AWAIT_MS },
    async () => {
      const { r, md: text, xml } = await jobs.rename;
      expect(r.status, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toMatch(/error +breaking +field `are_views_estimated` renamed to `views_estimated`/);
      expect(r.stdout).toMatch(/1 error, 0 warnings/);
      expect(text).toContain("### Breaking changes");
      expect(text).toContain(
        "| field `are_views_estimated` renamed to `views_estimated` (removed and added) | `Mentions.Mention › are_views_estimated` | mentions, MCP tools |",
      );
      expect(xml).toMatch(/<failure[^>]*message="field `are_views_estimated` renamed/);
    },
  );

  it(
    "passes (exit 0) on today's contract against the latest release, and against itself with no change",
    { timeout: AWAIT_MS },
    async () => {
      const r = await jobs.today;
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^0 errors, /m);
      const same = await jobs.same;
      expect(same.status).toBe(0);
      expect(same.stdout).toContain("No change a client or a deployment would notice.");
    },
  );

  it("says in one line, exit 2, when the base or the TypeSpec is unusable", { timeout: AWAIT_MS }, async () => {
    for (const [args, words, r] of await jobs.unusable) {
      expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(r.stderr).toMatch(words);
    }
  });
});
