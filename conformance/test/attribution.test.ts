// Attribution, levels and the deviations file, without a deployment: every
// check of the registry is classified once (attribution.ts), every decision
// it names is a row of spec/DECISIONS.md, a failure is attributed per rule
// (not per check), --level seed turns only contract decisions into warnings,
// and a bad deviations file is one line.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allChecks } from "../src/registry.ts";
import { CHECK_ASSERTS, attribute, attributeWarning, decisionTable, describeAttribution } from "../src/attribution.ts";
import { DeviationsError, loadDeviations, writeDeviations } from "../src/deviations.ts";
import { settle } from "../src/verdict.ts";
import type { CheckResult, Failure } from "../src/types.ts";

const ids = allChecks.map((c) => c.id);
const dir = mkdtempSync(join(tmpdir(), "slk-dev-"));
const file = (name: string, body: string) => {
  const p = join(dir, name);
  writeFileSync(p, body);
  return p;
};
const result = (id: string, failures: Array<Partial<Failure>>, exercised = failures.length + 1): CheckResult => ({
  id,
  outcome: failures.length ? "fail" : "pass",
  failures: failures.map((f) => ({ check: id, title: `${id}: x`, ...f })),
  warnings: [],
  ms: 0,
  requests: 0,
  exercised,
});

describe("attribution data", () => {
  it("classifies every check of the registry by its declared assertions", () => {
    expect(allChecks.length).toBeGreaterThanOrEqual(97);
    expect(ids.filter((id) => !CHECK_ASSERTS[id] || !Object.keys(CHECK_ASSERTS[id]!).length)).toEqual([]);
  });

  it("names only decisions that are rows of spec/DECISIONS.md", () => {
    const table = decisionTable();
    expect(table.size).toBeGreaterThan(150);
    const named = [...new Set(allChecks.flatMap((c) => c.decisions ?? []))];
    expect(named.filter((d) => !table.has(d))).toEqual([]);
  });

  it("refuses a failure that names no assertion: a defect of the kit, never a guess", () => {
    expect(() => attribute({ check: "date-range-order-422", title: "date-range-order-422: x", status: 202 })).toThrow(
      /names no assertion/,
    );
  });

  it("attributes per failure: a reversed date range that is accepted breaks the seed, one refused with another status breaks D-DATE-RANGE-ORDER", () => {
    const accepted = attribute({
      check: "date-range-order-422",
      title: "date-range-order-422: date_range 2026-03-10..2026-03-01 answered 202",
      operation: "DatasetRuns_create",
      status: 202,
      judges: "refused",
    });
    expect(accepted.kind).toBe("seed");
    expect(accepted.seed).toMatch(/`from` must precede `to`/);
    const refused = attribute({
      check: "date-range-order-422",
      title: "date-range-order-422: date_range 2026-03-10..2026-03-01 was refused with 400",
      operation: "DatasetRuns_create",
      status: 400,
      judges: "validation",
    });
    expect(refused).toMatchObject({ kind: "decision", decision: "D-DATE-RANGE-ORDER" });
    expect(describeAttribution(refused)).toMatch(
      /contract decision D-DATE-RANGE-ORDER: .* — a point the seed leaves open \(the seed says: .*from. must precede/,
    );
  });

  it("attributes a 200 where the contract chose 201 (seed silent) to D-CREATE-201, a 200 where the seed's row says 201 to the seed, and an accepted invalid case to its constraint's mark", () => {
    expect(
      attribute({
        check: "documented-status-only",
        title: "x",
        operation: "TrackingAgents_create",
        status: 200,
        judges: "statuses",
        decision: "D-CREATE-201",
      }).decision,
    ).toBe("D-CREATE-201");
    expect(
      attribute({
        check: "documented-status-only",
        title: "x",
        operation: "Datasets_create",
        status: 200,
        judges: "created",
      }).kind,
    ).toBe("seed");
    expect(
      attribute({
        check: "invalid-request-rejected",
        title: "invalid-request-rejected: CustomParameters_create value_type: unknown enum value → 200",
        operation: "CustomParameters_create",
        status: 200,
        judges: "constraints",
        decision: "D-CP-VALUE-TYPE",
      }).decision,
    ).toBe("D-CP-VALUE-TYPE");
  });

  it("attributes a lenient warning to the row it names", () => {
    expect(
      attributeWarning("status-string-mapping", 'D-STATUS-STRING (lenient): 2xx body with status "info"'),
    ).toMatchObject({ kind: "decision", decision: "D-STATUS-STRING" });
  });
});

describe("levels", () => {
  const results = () => [
    result("date-range-order-422", [
      {
        title: "date-range-order-422: answered 400",
        operation: "DatasetRuns_create",
        status: 400,
        judges: "validation",
      },
      { title: "date-range-order-422: answered 202", operation: "DatasetRuns_create", status: 202, judges: "refused" },
    ]),
    result("body-limit-413", [
      { title: "body-limit-413: answered 400", operation: "Datasets_create", status: 400, judges: "limit" },
    ]),
  ];

  it("contract level: every failure fails, counted apart by kind", () => {
    const r = results();
    const v = settle(r, {});
    expect(r.map((x) => x.outcome)).toEqual(["fail", "fail"]);
    expect(v.counts).toMatchObject({ seedFailures: 1, decisionFailures: 2 });
  });

  it("seed level: decision failures become warnings naming the decision; a seed-rule failure inside the same check still fails", () => {
    const r = results();
    const v = settle(r, { level: "seed" });
    expect(r[0]!.outcome).toBe("fail");
    expect(r[0]!.failures.map((f) => f.attribution?.kind)).toEqual(["seed"]);
    expect(r[1]!.outcome).toBe("pass");
    expect(v.demotedDecisions.map((d) => d.decision)).toEqual(["D-BODY-LIMIT", "D-DATE-RANGE-ORDER"]);
    expect(v.counts).toMatchObject({ seedFailures: 1, decisionFailures: 0, decisionWarnings: 2 });
  });
});

describe("deviations file", () => {
  const future = "2999-12-31";
  it("accepts a listed difference, and fails the run on an entry that matches nothing", () => {
    const p = file(
      "ok.json",
      JSON.stringify({
        deviations: [
          { decision: "D-BODY-LIMIT", reason: "our framework answers 400", expires: future },
          { decision: "D-CURSOR", reason: "422 for cursors", expires: future },
        ],
      }),
    );
    const entries = loadDeviations(p, ids);
    const r = [
      result("body-limit-413", [
        { title: "body-limit-413: answered 400", operation: "Datasets_create", status: 400, judges: "limit" },
      ]),
      result("pagination-garbage-cursor-400", []),
    ];
    const v = settle(r, { deviations: entries });
    expect(r[0]!.outcome).toBe("pass");
    expect(r[0]!.accepted?.[0]?.deviation?.reason).toBe("our framework answers 400");
    expect(v.deviations.map((d) => [d.label, d.matched, d.stale])).toEqual([
      ["D-BODY-LIMIT", 1, false],
      ["D-CURSOR", 0, true],
    ]);
    expect(v.ok).toBe(false);
  });

  it("writes today's contract-decision failures as a starting file that then loads", () => {
    const r = [
      result("body-limit-413", [
        { title: "body-limit-413: answered 400", operation: "Datasets_create", status: 400, judges: "limit" },
      ]),
    ];
    settle(r, {});
    const p = join(dir, "written.json");
    writeDeviations(
      p,
      r.flatMap((x) => x.failures),
    );
    const written = JSON.parse(readFileSync(p, "utf8")) as { deviations: Array<{ reason: string }> };
    expect(written.deviations[0]!.reason).toMatch(/^TODO/);
    // the placeholder reason is refused, one line per entry, until the team writes its own
    expect(() => loadDeviations(p, ids)).toThrow(
      /1 entry still gives the placeholder reason written by --write-deviations.*\n {2}entry 1 \(D-BODY-LIMIT\): TODO: /,
    );
    written.deviations[0]!.reason = "our framework answers 400 before the body is read";
    writeFileSync(p, JSON.stringify(written));
    expect(loadDeviations(p, ids).map((e) => e.decision)).toEqual(["D-BODY-LIMIT"]);
  });

  it("refuses every entry whose reason is still the placeholder, one line each", () => {
    const p = file(
      "placeholders.json",
      JSON.stringify({
        deviations: [
          {
            decision: "D-BODY-LIMIT",
            reason: "TODO: why this deployment decides D-BODY-LIMIT otherwise",
            expires: future,
          },
          { decision: "D-CURSOR", reason: "our gateway answers 422 for every bad query", expires: future },
          { check: "body-limit-413", reason: "todo", expires: future },
        ],
      }),
    );
    let err: unknown;
    try {
      loadDeviations(p, ids);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DeviationsError);
    const lines = (err as Error).message.split("\n");
    expect(lines[0]).toMatch(/2 entries still give the placeholder reason written by --write-deviations/);
    expect(lines.slice(1)).toEqual([
      "  entry 1 (D-BODY-LIMIT): TODO: why this deployment decides D-BODY-LIMIT otherwise",
      "  entry 3 (body-limit-413): todo",
    ]);
  });

  it.each([
    ["not JSON", "{deviations: [", /not valid JSON/],
    [
      "an unknown decision",
      JSON.stringify({ deviations: [{ decision: "D-NO-SUCH-ROW", reason: "r", expires: future }] }),
      /unknown decision D-NO-SUCH-ROW/,
    ],
    [
      "an unknown check",
      JSON.stringify({ deviations: [{ check: "no-such-check", reason: "r", expires: future }] }),
      /unknown check no-such-check/,
    ],
    [
      "a past date",
      JSON.stringify({ deviations: [{ decision: "D-BODY-LIMIT", reason: "r", expires: "2020-01-01" }] }),
      /expired on 2020-01-01/,
    ],
    ["no reason", JSON.stringify({ deviations: [{ decision: "D-BODY-LIMIT", expires: future }] }), /reason/],
    [
      "both a decision and a check",
      JSON.stringify({
        deviations: [{ decision: "D-BODY-LIMIT", check: "body-limit-413", reason: "r", expires: future }],
      }),
      /exactly one of decision or check/,
    ],
  ])("refuses a file with %s in one line", (_what, body, msg) => {
    const p = file(`bad-${Math.random()}.json`, body);
    let err: unknown;
    try {
      loadDeviations(p, ids);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DeviationsError);
    expect((err as Error).message).toMatch(msg);
    expect((err as Error).message).not.toContain("\n");
  });
});

describe("reports group findings by kind", () => {
  it("console, summary.md, report.html, JUnit and results.json each show seed-rule failures, decisions, accepted deviations and stale entries apart", async () => {
    const { Contract } = await import("../src/contract.ts");
    const { Ledger } = await import("../src/ledger.ts");
    const { summary } = await import("../src/reporters/console.ts");
    const { summaryMarkdown } = await import("../src/reporters/summary-md.ts");
    const { htmlReport } = await import("../src/reporters/html.ts");
    const { writeReports } = await import("../src/reporters/files.ts");
    const entries = loadDeviations(
      file(
        "r.json",
        JSON.stringify({
          deviations: [
            { decision: "D-BODY-LIMIT", reason: "our framework answers 400", expires: "2999-01-01" },
            { decision: "D-CURSOR", reason: "gone", expires: "2999-01-01" },
          ],
        }),
      ),
      ids,
    );
    const results = [
      result("date-range-order-422", [
        {
          title: "date-range-order-422: answered 400",
          operation: "DatasetRuns_create",
          status: 400,
          judges: "validation",
        },
        {
          title: "date-range-order-422: answered 202",
          operation: "DatasetRuns_create",
          status: 202,
          judges: "refused",
        },
      ]),
      result("body-limit-413", [
        { title: "body-limit-413: answered 400", operation: "Datasets_create", status: 400, judges: "limit" },
      ]),
      result("pagination-garbage-cursor-400", []),
    ];
    const settings = {
      baseUrl: "http://127.0.0.1:1",
      keys: {},
      profile: "standard" as const,
      seed: 1,
      mock: false,
      numRuns: 1,
      runTimeoutMs: 1,
      quiet: true,
      level: "seed" as const,
      deviations: entries,
    };
    const verdict = settle(results, settings);
    const contract = Contract.load();
    const report = {
      runId: "r1",
      settings,
      results,
      requestCount: 0,
      requestsByKey: {},
      ms: 1,
      ledger: new Ledger(contract),
      exchanges: [],
      spentUsd: "0",
      cleanup: { deleted: 0, failed: [] },
      unplanned429: 0,
      verdict,
    } as any;
    const text = summary(report).replace(/\u001b\[\d+m/g, "");
    expect(text).toMatch(/Failures: seed rules \(1\)/);
    expect(text).toMatch(/Warnings: contract decisions this deployment decides otherwise .*\(1\)/);
    expect(text).toMatch(/! contract decision D-DATE-RANGE-ORDER/);
    expect(text).toMatch(/✓ entry 1 D-BODY-LIMIT: 1 finding\(s\) accepted/);
    expect(text).toMatch(/✗ entry 2 D-CURSOR is stale/);
    expect(text.trim().split("\n").at(-1)).toMatch(
      /level seed: 1 seed-rule failure\(s\), 0 contract-decision failure\(s\).*1 accepted deviation\(s\); 1 stale deviation entry/,
    );
    const md = summaryMarkdown(report);
    for (const h of [
      "## Failures: seed rules (1)",
      "## Warnings: contract decisions decided otherwise (--level seed) (1)",
      "## Accepted deviations (1)",
      "## Stale deviation entries (1)",
    ])
      expect(md).toContain(h);
    const html = htmlReport(report);
    for (const h of [
      "Failures: seed rules (1)",
      "Failures: contract decisions on points the seed leaves open (0)",
      "Accepted deviations (1)",
      "Stale deviation entries (1)",
    ])
      expect(html).toContain(h);
    const dir2 = mkdtempSync(join(tmpdir(), "slk-rep-"));
    writeReports(dir2, report);
    const junit = readFileSync(join(dir2, "junit.xml"), "utf8");
    expect(junit).toContain('type="seed-rule"');
    expect(junit).toContain("stale-deviation");
    const json = JSON.parse(readFileSync(join(dir2, "results.json"), "utf8"));
    expect(json.verdict.counts).toMatchObject({ seedFailures: 1, decisionFailures: 0, accepted: 1 });
    expect(json.findings.map((f: any) => [f.level, f.attribution.kind, f.attribution.decision ?? null])).toEqual(
      expect.arrayContaining([
        ["failure", "seed", null],
        ["warning", "decision", "D-DATE-RANGE-ORDER"],
        ["accepted", "decision", "D-BODY-LIMIT"],
      ]),
    );
  });
});
