// The sorts behind the sorted views (D-REF-SORT-VIEWS): the key order, the radix
// sort by value and the sliced build and merge give exactly what a
// comparator sort by (value, key) gives, whatever the values (ties,
// negatives, -0, fractions, large integers) and however the work is cut.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MentionPool } from "../src/domain/mentions/pool.ts";
import type { MentionRecord } from "../src/domain/mentions/record.ts";
import { sortKeyOf, type MentionSort } from "../src/domain/mentions/sort-values.ts";
import { KeyOrder, sortByValue } from "../src/domain/mentions/order.ts";
import { drainNow } from "../src/platform/pipeline.ts";
import { analyse } from "../src/simulators/analysis.ts";
import { SOURCES, searchPosts } from "../src/simulators/provider.ts";

const SORTS: MentionSort[] = [
  "date",
  "likes",
  "engagement_rate",
  "views",
  "comments",
  "shares",
  "sentiment_score",
  "dataset_run_at",
];

function bySort(records: Iterable<MentionRecord>, sort: MentionSort): string[] {
  const keyOf = sortKeyOf(sort);
  return [...records]
    .map((r) => ({ r, k: keyOf(r) }))
    .sort((a, b) => (a.k[0] !== b.k[0] ? (a.k[0] < b.k[0] ? -1 : 1) : a.k[1] < b.k[1] ? -1 : a.k[1] > b.k[1] ? 1 : 0))
    .map((d) => d.r.key);
}

describe("key order and radix sort", () => {
  it("sort any keys and values as a comparator sort by (value, key) does", () => {
    const value = fc.oneof(
      fc.integer({ min: -5, max: 5 }),
      fc.integer({ min: 0, max: 2 ** 40 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(0, -0, 0.5, -2, 1e-300, 0.1234, 0.0001, -0.333, 1.7e9),
      fc.integer({ min: -10_000, max: 10_000 }).map((k) => k / 10_000),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ maxLength: 6 }), { maxLength: 300 }),
        fc.array(value, { minLength: 300, maxLength: 300 }),
        (keys, values) => {
          const records = keys.map((key, doc) => ({ key, doc }));
          const order = new KeyOrder();
          // Two catch-ups: the second merges the later posts into the first's order.
          drainNow(order.catchUp(records.slice(0, Math.floor(records.length / 3))));
          const byKey = drainNow(order.catchUp(records));
          expect(Array.from(byKey, (d) => keys[d])).toEqual([...keys].sort());
          const valueOf = Float64Array.from(records, (r) => (values[r.doc] === 0 ? 0 : values[r.doc]!));
          const sorted = Array.from(
            drainNow(sortByValue(Float64Array.from(byKey, (d) => valueOf[d]!))),
            (p) => byKey[p]!,
          );
          const expected = records
            .map((r) => r.doc)
            .sort((a, b) =>
              valueOf[a]! !== valueOf[b]! ? (valueOf[a]! < valueOf[b]! ? -1 : 1) : keys[a]! < keys[b]! ? -1 : 1,
            );
          expect(sorted).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("sliced views", () => {
  function land(index: MentionPool, query: string, count: number, runId: string, atMs: number): void {
    const window = { fromMs: atMs - 365 * 86_400_000, toMs: atMs };
    for (const source of SOURCES) {
      for (const post of searchPosts({ source, query, count, window, country: "US", language: null, numComments: 0 })) {
        index.upsert(post, analyse(post.text, ["sentiment"]), {
          datasetId: "ds_1",
          runId,
          coefficient: 1,
          runAtMs: atMs,
          numComments: 0,
        });
      }
    }
  }

  it("build, merge a large batch (new and re-collected posts) and merge a small one as a full sort orders them, read sliced or at once, with a reader arriving mid-build", async () => {
    const index = new MentionPool();
    const t0 = Date.UTC(2026, 10, 2);
    land(index, "oat milk", 1200, "dsr_1", t0);
    // Two readers at once: the second waits for the build the first started.
    const [first, second] = await Promise.all([index.sortedBySliced("likes"), index.sortedBySliced("likes")]);
    expect(first).toBe(second);
    for (const sort of SORTS)
      expect((await index.sortedBySliced(sort)).toArray().map((r) => r.key)).toEqual(bySort(index.all(), sort));
    // More than 2,048 changed posts, a third of them re-collected with new metrics.
    land(index, "oat milk", 400, "dsr_2", t0 + 30 * 86_400_000);
    land(index, "cold brew", 500, "dsr_3", t0 + 31 * 86_400_000);
    expect(index.size).toBeGreaterThan(6000);
    for (const sort of SORTS)
      expect((await index.sortedBySliced(sort)).toArray().map((r) => r.key)).toEqual(bySort(index.all(), sort));
    land(index, "cargo bike", 20, "dsr_4", t0 + 32 * 86_400_000);
    for (const sort of SORTS)
      expect(
        index
          .sortedBy(sort)
          .toArray()
          .map((r) => r.key),
      ).toEqual(bySort(index.all(), sort));
  });

  it("a view built while posts keep landing merges them before it answers", async () => {
    const index = new MentionPool();
    const t0 = Date.UTC(2026, 10, 2);
    land(index, "oat milk", 2000, "dsr_1", t0);
    const pending = index.sortedBySliced("views");
    // Lands after the build started (and before it answers).
    land(index, "cold brew", 100, "dsr_2", t0 + 86_400_000);
    expect((await pending).toArray().map((r) => r.key)).toEqual(bySort(index.all(), "views"));
    expect(index.size).toBeGreaterThan(9000);
  });
});
