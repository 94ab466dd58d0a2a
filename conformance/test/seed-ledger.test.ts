// The seed-rule ledger (src/seed-ledger/) against the seed itself, the check
// registry and the mutation faults: every quote is the seed's own words in the
// seed's order, every sentence of the seed with a rule marker is quoted by a
// row or an ignore entry, every named check exists, every named fault exists
// and expects that check, and the committed document and README figure are
// the fresh render. No server is started.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { allChecks } from "../src/registry.ts";
import { faults } from "../mutation/faults.ts";
import { main } from "../src/cli.ts";
import { errorCodesOf, flat, locate, markersOf, missedMarkers, spansOf, unitsOf } from "../src/seed-ledger/extract.ts";
import { IGNORED } from "../src/seed-ledger/ignored.ts";
import { seedCoverage, seedCoverageLine, seedLedgerMarkdown, seedLedgerReadme } from "../src/seed-ledger/report.ts";
import { LEDGER } from "../src/seed-ledger/rules.ts";
import { isJudged, isUncovered, isUnobservable, isUnsettled } from "../src/seed-ledger/types.ts";
import { readDecisions } from "../src/decisions.ts";

const decisionIds = new Set(readDecisions().map((r) => r.id));

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const seed = readFileSync(here("../../spec/seed.txt"), "utf8");
const whole = flat(seed);

describe("seed-rule ledger", () => {
  it("quotes the seed verbatim, row by row in the seed's order", () => {
    const { problems } = locate(
      seed,
      LEDGER.map((r) => r.quote),
    );
    expect(problems).toEqual([]);
    const missing = [
      ...LEDGER.flatMap((r) => (r.also ?? []).filter((a) => !whole.includes(flat(a))).map((a) => `${r.id}: ${a}`)),
      ...IGNORED.filter((g) => !whole.includes(flat(g.quote))).map((g) => `ignored: ${g.quote}`),
    ];
    expect(missing).toEqual([]);
  });

  it("has unique ids and, on every row, exactly one verdict with its reason", () => {
    const ids = LEDGER.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const r of LEDGER) {
      expect(r.id, r.id).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
      expect([isJudged(r), isUncovered(r), isUnobservable(r), isUnsettled(r)].filter(Boolean), r.id).toHaveLength(1);
      if (isJudged(r)) expect(r.judgedBy.length, r.id).toBeGreaterThan(0);
      if (isUncovered(r)) expect(r.uncovered.length, r.id).toBeGreaterThan(10);
      if (isUnobservable(r)) expect(r.notObservable.length, r.id).toBeGreaterThan(10);
      if (isUnsettled(r)) {
        expect(r.unsettled.length, r.id).toBeGreaterThan(10);
        expect(decisionIds.has(r.decision), `${r.id}: ${r.decision} is a row of spec/DECISIONS.md`).toBe(true);
      }
    }
  });

  it("names only checks of the registry, and faults that exist and expect that check", () => {
    const checks = new Set(allChecks.map((c) => c.id));
    const byId = new Map(faults.map((f) => [f.id, f]));
    const problems: string[] = [];
    for (const r of LEDGER.filter(isJudged))
      for (const j of r.judgedBy) {
        if (!checks.has(j.check)) problems.push(`${r.id}: no check ${j.check}`);
        if (!j.fault) continue;
        const f = byId.get(j.fault);
        if (!f) problems.push(`${r.id}: no fault ${j.fault}`);
        else if (f.control) problems.push(`${r.id}: ${j.fault} is a control, not a fault`);
        else if (f.expect !== j.check) problems.push(`${r.id}: fault ${j.fault} expects ${f.expect}, not ${j.check}`);
      }
    expect(problems).toEqual([]);
  });

  it("leaves no sentence of the seed with a rule marker outside every row and ignore entry", () => {
    const quotes = [...LEDGER.flatMap((r) => [r.quote, ...(r.also ?? [])]), ...IGNORED.map((g) => g.quote)];
    const missed = missedMarkers(seed, quotes).map((m) => `"${m.marker.text}" (${m.marker.family}) in: ${m.unit.text}`);
    expect(missed).toEqual([]);
  });

  it("keeps no stale ignore entry: each covers a marker that no row quotes", () => {
    const codes = errorCodesOf(seed);
    const markers = unitsOf(seed).flatMap((u) => markersOf(u, codes));
    const rowSpans = LEDGER.flatMap((r) => [r.quote, ...(r.also ?? [])]).flatMap((q) => spansOf(whole, q));
    const inside = (spans: Array<[number, number]>, at: number, len: number) =>
      spans.some(([a, b]) => a <= at && at + len <= b);
    const stale = IGNORED.filter((g) => {
      const spans = spansOf(whole, g.quote);
      return !markers.some((m) => inside(spans, m.at, m.text.length) && !inside(rowSpans, m.at, m.text.length));
    }).map((g) => g.quote);
    expect(stale).toEqual([]);
  });

  it("the extractor finds the rule markers a new sentence would carry", () => {
    const added = `${seed}\n\nThe widget list defaults to 7 items and is refused with 409 \`tracking_agent_limit_reached\` at most once.\n`;
    const quotes = [...LEDGER.flatMap((r) => [r.quote, ...(r.also ?? [])]), ...IGNORED.map((g) => g.quote)];
    const found = missedMarkers(added, quotes).map((m) => m.marker.family);
    expect(found).toEqual(expect.arrayContaining(["default", "status", "error-code", "bound"]));
  });

  it("docs/seed-ledger.md and the README figure are the fresh render", () => {
    expect(readFileSync(here("../../docs/seed-ledger.md"), "utf8")).toBe(seedLedgerMarkdown());
    const readme = readFileSync(here("../README.md"), "utf8");
    expect(readme).toContain(`<!-- seed-ledger:start -->${seedLedgerReadme()}<!-- seed-ledger:end -->`);
    const front = readFileSync(here("../../README.md"), "utf8");
    expect(front).toContain(`<!-- seed-figure -->${seedCoverageLine()}<!-- /seed-figure -->`);
  });

  it("counts the figure as judged rows over judged plus uncovered rows", () => {
    const c = seedCoverage();
    expect(c.judged + c.uncovered + c.unobservable + c.unsettled).toBe(LEDGER.length);
    expect(c.observable).toBe(c.judged + c.uncovered);
    expect(seedCoverageLine(c)).toBe(
      `${c.judged} of ${c.observable} observable seed rules judged (${((100 * c.judged) / c.observable).toFixed(1)}%)`,
    );
  });
});

describe("sl-conformance --seed-coverage", () => {
  afterEach(() => vi.restoreAllMocks());

  it("prints the ledger and exits 0 without a base URL or keys", async () => {
    let out = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    const code = await main(["node", "sl-conformance", "--seed-coverage"]);
    expect(code).toBe(0);
    expect(out).toBe(seedLedgerMarkdown());
    expect(out).toContain(seedCoverageLine());
  });
});
