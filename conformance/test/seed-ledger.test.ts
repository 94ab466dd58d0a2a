// The seed-rule ledger (src/seed-ledger/) against the seed itself, the check
// registry and the mutation faults: every quote is the seed's own words in the
// seed's order, every sentence of the seed with a rule marker is quoted by a
// row or an ignore entry, every named check exists, every named fault exists
// and expects that check, and the committed document and README figure are
// the fresh render. No server is started.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { faults } from "../mutation/faults.ts";
import { main } from "../src/cli.ts";
import { errorCodesOf, flat, locate, markersOf, missedMarkers, spansOf, unitsOf } from "../src/seed-ledger/extract.ts";
import { IGNORED } from "../src/seed-ledger/ignored.ts";
import { seedCoverage, seedCoverageLine, seedLedgerMarkdown, seedLedgerReadme } from "../src/seed-ledger/report.ts";
import { LEDGER } from "../src/seed-ledger/rules.ts";
import { isRule, isUncovered, isUnobservable, isUnsettled } from "../src/seed-ledger/types.ts";
import { judgesOf } from "../src/seed-ledger/judges.ts";
import { proofsSource } from "../mutation/proofs.ts";
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
      expect([isRule(r), isUncovered(r), isUnobservable(r), isUnsettled(r)].filter(Boolean), r.id).toHaveLength(1);
      if (isUncovered(r)) expect(r.uncovered.length, r.id).toBeGreaterThan(10);
      if (isUnobservable(r)) expect(r.notObservable.length, r.id).toBeGreaterThan(10);
      if (isUnsettled(r)) {
        expect(r.unsettled.length, r.id).toBeGreaterThan(10);
        expect(decisionIds.has(r.decision), `${r.id}: ${r.decision} is a row of spec/DECISIONS.md`).toBe(true);
      }
    }
  });

  it("has every row to judge judged by a check, and names only rows that exist", () => {
    const unjudged = LEDGER.filter((r) => isRule(r) && judgesOf(r.id).length === 0).map((r) => r.id);
    expect(unjudged, "rows no check judges: give them an `uncovered` reason or a check").toEqual([]);
    const ids = new Set(LEDGER.map((r) => r.id));
    const problems = [
      ...faults.flatMap((f) => (f.rows ?? []).filter((r) => !ids.has(r)).map((r) => `fault ${f.id}: no row ${r}`)),
      ...faults.filter((f) => f.control && f.rows?.length).map((f) => `fault ${f.id}: a control names rows`),
    ];
    expect(problems).toEqual([]);
  });

  it("proves each row with the faults that name it, each caught by a check that judges the row", () => {
    const problems = faults.flatMap((f) =>
      (f.rows ?? [])
        .filter((row) => !judgesOf(row).some((j) => j.check === f.expect))
        .map((row) => `fault ${f.id} names ${row}, but its check ${f.expect} does not judge that row`),
    );
    expect(problems).toEqual([]);
    expect(readFileSync(here("../src/seed-ledger/proofs.ts"), "utf8")).toBe(proofsSource(faults));
  });

  it("proves every judged row with at least one fault its checks catch", () => {
    const unproven = LEDGER.filter(
      (r) => isRule(r) && judgesOf(r.id).length > 0 && !judgesOf(r.id).some((j) => j.faults.length > 0),
    ).map(
      (r) =>
        `${r.id} (judged by ${judgesOf(r.id)
          .map((j) => j.check)
          .join(", ")})`,
    );
    expect(unproven, "judged rows no fault breaks").toEqual([]);
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
