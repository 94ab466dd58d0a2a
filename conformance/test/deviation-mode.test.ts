// Deviation mode of the mutation harness: the whole kit against the seed-only
// variant of the reference (mutation/seed-only-variant.ts), a deployment that
// follows the seed and decides every open point it can show through a proxy
// its own way, with pipelines at 0 ms and slow, an early-closing 413 before
// authentication, money as decimal strings where the seed leaves the form
// open, extra fields and unstated bounds lifted. At --level seed both runs end
// with 0 failures, every difference a warning naming its decision; at --level
// contract each judged deviation fails and names its decision; a
// --write-deviations file makes the contract-level run pass, and the same file
// is stale (the run fails) once one deviation is gone from the deployment.
// Every row of spec/DECISIONS.md is varied or listed in `notVaried` with a
// reason, and so is every open point open-points.ts derives (codes whose
// status the seed does not show, fields it does not require, its sentences
// closing a response's fields). Seed-rule faults of the single-rule harness still fail at --level
// seed, and a group the deployment does not serve is one warning with its
// checks skipped. Two whole-kit runs (in parallel) and a few scoped ones.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../reference-impl/src/app.ts";
import { decisionTable } from "../src/attribution.ts";
import { allChecks } from "../src/registry.ts";
import { runKit, type RunReport } from "../src/runner.ts";
import { settle } from "../src/verdict.ts";
import { loadDeviations, writeDeviations, type DeviationEntry } from "../src/deviations.ts";
import type { CheckResult, Failure, Settings } from "../src/types.ts";
import { groupNotServed, type Deviation } from "../mutation/deviations.ts";
import {
  CLOSED_BY,
  judgedDecisions,
  PIPELINE_MS,
  reasonNotVaried,
  seedOnlyVariant,
  startSeedOnlyVariant,
} from "../mutation/seed-only-variant.ts";
import {
  closingSentences,
  codesWithoutSeedStatus,
  FILL_RULES,
  openapi,
  optionalFields,
  requiredByDecision,
  seedPlacedCodes,
  STATUS_NOT_VARIED,
  statusVariations,
  STILL_REQUIRED,
} from "../mutation/open-points.ts";
import { errorCodeFindings } from "../src/provenance.ts";
import { faults } from "../mutation/faults.ts";
import { startProxy, type Fault } from "../mutation/proxy.ts";
import { demoKeys, settings, startReference } from "./helpers.ts";

/** The kit against a fresh reference behind the proxy (50 requests/second, 25 ms pipeline steps, as the mutation harness). */
async function behind(fault: Fault | undefined, over: Partial<Settings> = {}): Promise<RunReport> {
  const ref = await startReference({ rateLimitPerSecond: 50, stepDelayMs: 25 });
  const proxy = await startProxy(ref.baseUrl, fault, demoKeys());
  try {
    return await runKit(
      settings(proxy.baseUrl, { operations: undefined, numRuns: 1, runTimeoutMs: 15_000, seed: 7, ...over }),
    );
  } finally {
    await proxy.close();
    await ref.close();
  }
}

/** The whole kit against the seed-only variant in front of an in-process reference with the given pipeline step delay. */
async function behindVariant(list: Deviation[], stepDelayMs: number): Promise<RunReport> {
  const { app } = createApp({ rateLimitPerSecond: 50, stepDelayMs, logger: () => undefined });
  const variant = await startSeedOnlyVariant(app.fetch, demoKeys(), list);
  try {
    return await runKit(
      settings(variant.baseUrl, { operations: undefined, numRuns: 1, runTimeoutMs: 15_000, seed: 7 }),
    );
  } finally {
    await variant.close();
  }
}

/** The same results judged again at another level or with deviations (settle re-attributes from scratch). */
const rejudge = (r: RunReport, s: Partial<Settings>) => {
  const results: CheckResult[] = structuredClone(r.results);
  return { results, verdict: settle(results, s) };
};
const failing = (results: CheckResult[]) =>
  results
    .filter((x) => x.outcome === "fail" || x.outcome === "error")
    .map((x) => `${x.id}: ${x.failures[0]?.title ?? x.error?.split("\n")[0]}`);

/**
 * KNOWN KIT GAPS, kept only while the per-constraint provenance work lands
 * (conformance/src/provenance*, invalid-request-rejected, attribution.ts):
 * findings on a varied point that the kit attributes to another decision
 * than the row that decides it. Each is still a decision warning at --level
 * seed (never a failure); the test counts the finding under `shouldName`.
 * An entry that no longer matches is reported (console.warn) for removal.
 */
const KNOWN_KIT_GAPS: Array<{ check: string; title: RegExp; kitNames: string; shouldName: string }> = [
  {
    check: "invalid-request-rejected",
    title: /Ask_ask message: maxLength/,
    kitNames: "D-ASK-MESSAGE",
    shouldName: "D-BOUND-STRINGS",
  },
];
const gapOf = (f: Failure) =>
  KNOWN_KIT_GAPS.find(
    (g) =>
      g.check === f.check &&
      g.title.test(f.title) &&
      new RegExp(`^(${g.kitNames})$`).test(f.attribution?.decision ?? ""),
  );
/** The decisions a run's findings name, with the known gaps counted under the row that decides them. */
const namedDecisions = (failures: Failure[]) =>
  [
    ...new Set(
      failures.flatMap((f) => {
        const g = gapOf(f);
        return [g?.shouldName ?? f.attribution?.decision ?? "(seed rule)"];
      }),
    ),
  ].sort();

const DROPPED = "status:cursor";
let full: RunReport;
let dropped: RunReport;
let entries: DeviationEntry[];
const decided = judgedDecisions();
/** Judged deviations, each with the rows a check may name for it (its decision, then the rows it also re-decides). */
const judged = (list: Deviation[] = seedOnlyVariant) =>
  list.filter((d) => !d.lenient && !d.unjudged).map((d) => ({ id: d.id, rows: [d.decision, ...(d.names ?? [])] }));
/**
 * Which judged deviations no finding names (none of their rows), and which
 * named rows no judged deviation re-decides: both must be empty.
 */
function naming(named: string[], list: Deviation[]) {
  const j = judged(list);
  return {
    missing: j.filter((d) => !d.rows.some((r) => named.includes(r))).map((d) => `${d.id} (${d.rows.join("|")})`),
    extra: named.filter((n) => !j.some((d) => d.rows.includes(n))),
  };
}

describe("the seed-only variant (a deployment built from the seed alone)", () => {
  beforeAll(async () => {
    const t0 = Date.now();
    [full, dropped] = await Promise.all([
      behindVariant(seedOnlyVariant, PIPELINE_MS.slow),
      behindVariant(
        seedOnlyVariant.filter((d) => d.id !== DROPPED),
        PIPELINE_MS.fast,
      ),
    ]);
    console.info(
      `seed-only variant: two whole-kit runs in ${((Date.now() - t0) / 1000).toFixed(1)} s (${full.requestCount} requests at ${PIPELINE_MS.slow} ms steps, ${dropped.requestCount} at ${PIPELINE_MS.fast} ms)`,
    );
    for (const g of KNOWN_KIT_GAPS)
      if (!full.results.some((r) => r.failures.some((f) => f.check === g.check && gapOf(f) === g)))
        console.warn(`KNOWN_KIT_GAPS: ${g.check} ${g.title} no longer matches; remove the entry`);
    const file = join(mkdtempSync(join(tmpdir(), "slk-deviations-")), "deviations.json");
    writeDeviations(
      file,
      full.results.flatMap((r) => r.failures),
    );
    // a team writes its own reasons in place of the placeholders (loadDeviations refuses those)
    writeFileSync(file, readFileSync(file, "utf8").replace(/"TODO: /g, '"accepted: '));
    entries = loadDeviations(
      file,
      allChecks.map((c) => c.id),
    );
  }, 240_000);

  it("goes through every row of the decision table: varied, or not varied with a reason", () => {
    const varied = new Set(seedOnlyVariant.flatMap((d) => [d.decision, ...(d.names ?? [])]));
    const unclassified = [...decisionTable().values()]
      .filter((row) => !varied.has(row.id) && !reasonNotVaried(row.id, row.kit))
      .map((row) => `${row.id} (${row.seed.slice(0, 60)})`);
    expect(unclassified).toEqual([]);
    for (const d of seedOnlyVariant)
      expect(d.decision.startsWith("D-") ? decisionTable().has(d.decision) : Boolean(d.unjudged), d.id).toBe(true);
    expect(decided.length).toBeGreaterThanOrEqual(35);
  });

  it("derives its open points: every one is varied, or listed with the reason it is not", () => {
    const ids = new Set(seedOnlyVariant.map((d) => d.id));
    // 1. error codes whose status the seed does not show
    const placed = seedPlacedCodes();
    // the parse finds every code the contract grounds at a seed status (it misses none the seed places)
    const grounded = errorCodeFindings(openapi).filter((f) => f.grounds?.kind === "seed" && Number(f.status) >= 400);
    expect(
      grounded
        .filter((f) => !placed.get(f.code)?.has(/^5/.test(f.status) ? 500 : Number(f.status)))
        .map((f) => `${f.key} ${f.status} ${f.code}`),
    ).toEqual([]);
    const open = codesWithoutSeedStatus();
    expect(open).toEqual(
      expect.arrayContaining(["tracking_agent_limit_reached", "invalid_cursor", "nothing_to_analyze"]),
    );
    const { varied, unclassified } = statusVariations();
    expect(unclassified, "codes neither varied nor in STATUS_NOT_VARIED").toEqual([]);
    expect(
      Object.keys(STATUS_NOT_VARIED).filter((c) => !open.includes(c)),
      "stale STATUS_NOT_VARIED",
    ).toEqual([]);
    for (const v of varied)
      for (const d of new Set(Object.values(v.decisions)))
        expect(ids.has(`status:${d.slice(2).toLowerCase()}`), `${v.code}: ${d}`).toBe(true);
    // 2. request fields required by a decision
    const fields = optionalFields();
    expect(fields.length).toBeGreaterThan(50);
    expect(
      fields.filter((f) => !f.varied && !f.reason).map((f) => `${f.element} (${f.decision})`),
      "fields neither filled nor in STILL_REQUIRED",
    ).toEqual([]);
    const elements = new Set(requiredByDecision().map((r) => r.element));
    expect(
      [...Object.keys(STILL_REQUIRED), ...Object.keys(FILL_RULES)].filter((e) => !elements.has(e)),
      "stale entries",
    ).toEqual([]);
    for (const d of new Set(fields.filter((f) => f.varied).map((f) => f.decision)))
      expect(ids.has(`optional:${d.slice(2).toLowerCase()}`), d).toBe(true);
    // 3. the seed's sentences closing a response's fields
    const closing = closingSentences();
    expect(closing.length).toBeGreaterThan(0);
    expect(
      closing.filter((c) => !CLOSED_BY[c]),
      "closing sentences the variant does not map",
    ).toEqual([]);
    expect(
      Object.keys(CLOSED_BY).filter((c) => !closing.includes(c)),
      "stale CLOSED_BY",
    ).toEqual([]);
  });

  it("--level contract: each judged deviation fails and names its decision; no failure is put on a seed rule or on another decision", () => {
    const v = full.verdict;
    expect(v.level).toBe("contract");
    const failures = full.results.flatMap((r) => r.failures);
    const named = namedDecisions(failures);
    const seen = (d: string) =>
      failures.filter((f) => (f.attribution?.decision ?? "(seed rule)") === d).map((f) => f.title.slice(0, 140));
    const { missing, extra } = naming(named, seedOnlyVariant);
    expect(
      { missing, extra: extra.map((d) => [d, seen(d)]) },
      JSON.stringify({
        skipped: full.results.filter((r) => r.outcome === "skip").map((r) => `${r.id}: ${r.skipReason}`),
      }),
    ).toEqual({ missing: [], extra: [] });
    expect(v.counts.seedFailures).toBe(0);
    expect(v.counts.decisionFailures).toBe(failures.length);
    for (const f of failures) expect(f.attribution?.decided, f.title).toBeTruthy();
  });

  for (const [name, run] of [
    [`slow pipeline (${PIPELINE_MS.slow} ms)`, () => full],
    [`0 ms pipeline, ${DROPPED} dropped`, () => dropped],
  ] as const)
    it(`--level seed, ${name}: 0 failures; every difference is a warning naming its decision`, () => {
      const { results, verdict } = rejudge(run(), { level: "seed" });
      expect(failing(results)).toEqual([]);
      expect(results.some((r) => r.outcome === "pass")).toBe(true);
      expect(verdict.counts).toMatchObject({ seedFailures: 0, decisionFailures: 0 });
      const demoted = results.flatMap((r) => r.demoted ?? []);
      const list = run() === full ? seedOnlyVariant : seedOnlyVariant.filter((d) => d.id !== DROPPED);
      expect(naming(namedDecisions(demoted), list)).toEqual({ missing: [], extra: [] });
      for (const f of demoted) expect(f.attribution?.decision, f.title).toMatch(/^D-/);
    });

  it("the lenient row it decides otherwise (2xx status info) is a warning at both levels, never a failure", () => {
    for (const level of ["contract", "seed"] as const) {
      const { results } = rejudge(full, { level });
      const status = results.find((r) => r.id === "status-string-mapping")!;
      expect(status.outcome, level).toBe("pass");
      expect(status.warnings.some((w) => w.startsWith("D-STATUS-STRING"))).toBe(true);
    }
  });

  it("--write-deviations: one entry per failed decision; with that file the contract-level run passes, every entry in use", () => {
    const failedDecisions = [
      ...new Set(full.results.flatMap((r) => r.failures.map((f) => f.attribution?.decision ?? ""))),
    ].sort();
    expect(entries.map((e) => e.decision).sort()).toEqual(failedDecisions);
    const { results, verdict } = rejudge(full, { deviations: entries });
    expect(failing(results)).toEqual([]);
    expect(verdict.ok).toBe(true);
    expect(verdict.deviations.filter((d) => d.matched === 0)).toEqual([]);
    expect(verdict.counts.accepted).toBe(full.verdict.counts.decisionFailures);
  });

  it(`an entry whose deviation the deployment dropped (${DROPPED}) is stale and fails the run; the others still accept theirs`, () => {
    const { results, verdict } = rejudge(dropped, { deviations: entries });
    expect(failing(results)).toEqual([]);
    expect(verdict.deviations.filter((d) => d.stale).map((d) => d.label)).toEqual(["D-CURSOR"]);
    expect(verdict.ok).toBe(false);
  });
});

describe("seed-rule faults still fail at --level seed", () => {
  it("most faults break seed rules; the rest name the decision they re-decide", () => {
    expect(faults.filter((f) => !f.control && !f.decision).length).toBeGreaterThanOrEqual(120);
  });

  // a sample of the single-rule harness (one per area), each run scoped to its check: cheap
  // (all of them: `npx tsx conformance/mutation/deviations-levels.ts`, about 80 s)
  const sample = [
    "page-overlaps-previous",
    "foreign-dataset-leaks",
    "settlement-off-by-a-cent",
    "missing-ratelimit-remaining",
    "completed-run-moves-back",
    "chat-visible-to-other-seat",
    "aud-no-completed-run-insufficient",
    "mcp-list-end-cursor-set",
  ];
  for (const id of sample) {
    it(
      id,
      async () => {
        const fault = faults.find((f) => f.id === id)!;
        const r = await behind(fault, { only: [...new Set([fault.expect, ...(fault.only ?? [])])], level: "seed" });
        const res = r.results.find((x) => x.id === fault.expect)!;
        expect(res.outcome, JSON.stringify(res.failures.map((f) => f.title))).toBe("fail");
        expect(res.failures.every((f) => f.attribution?.kind === "seed")).toBe(true);
      },
      120_000,
    );
  }
});

describe("a group the deployment does not serve", () => {
  it("is one served-groups warning (a seed-scope finding) at both levels, and its checks are skipped, not failed", async () => {
    const only = ["tracking-agent-pause-resume", "tracking-agent-patch", "pagination-limit-respected"];
    const r = await behind(groupNotServed("/v1/tracking_agents"), { only, level: "seed" });
    const sg = r.results.find((x) => x.id === "served-groups")!;
    expect(sg.warnings.filter((w) => /tracking/i.test(w))).toHaveLength(1);
    expect(r.results.filter((x) => x.id.startsWith("tracking-agent-")).map((x) => x.outcome)).toEqual(["skip", "skip"]);
    for (const level of ["contract", "seed"] as const)
      expect(failing(rejudge(r, { level }).results), level).toEqual([]);
  }, 120_000);
});
