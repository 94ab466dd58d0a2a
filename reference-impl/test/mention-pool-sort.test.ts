// Sorted views are kept current as mentions land (D-REF-SORT-VIEWS): after any mix
// of new and re-collected posts, every sort equals a full re-sort.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MentionPool } from "../src/domain/mentions/pool.ts";
import { sortKeyOf, type MentionSort } from "../src/domain/mentions/sort-values.ts";
import { analyse } from "../src/simulators/analysis.ts";
import { searchPosts } from "../src/simulators/provider.ts";

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
const DAY = 86_400_000;
const start = Date.UTC(2026, 10, 2);

function fullSort(index: MentionPool, sort: MentionSort) {
  const keyOf = sortKeyOf(sort);
  return [...index.all()].sort((a, b) => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    return ka[0] !== kb[0] ? (ka[0] < kb[0] ? -1 : 1) : ka[1] < kb[1] ? -1 : ka[1] > kb[1] ? 1 : 0;
  });
}

describe("MentionPool sorted views", () => {
  it("equal a full re-sort after runs that add and re-collect posts", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            query: fc.constantFrom("oat milk", "cold brew", "running shoes"),
            count: fc.integer({ min: 1, max: 40 }),
            days: fc.integer({ min: 0, max: 30 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        fc.array(fc.constantFrom(...SORTS), { minLength: 1, maxLength: 4 }),
        (runs, probes) => {
          const index = new MentionPool();
          let now = start;
          runs.forEach((run, i) => {
            now += run.days * DAY;
            const window = { fromMs: now - 365 * DAY, toMs: now };
            for (const post of searchPosts({
              source: "reddit",
              query: run.query,
              count: run.count,
              window,
              country: "US",
              language: null,
              numComments: 1,
            })) {
              index.upsert(post, analyse(post.text, ["sentiment"]), {
                datasetId: "ds_1",
                runId: `dsr_${i}`,
                coefficient: 1,
                runAtMs: now,
                numComments: 1,
              });
            }
            // Look at some sorts between runs so later runs exercise the merge.
            for (const sort of probes)
              expect(
                index
                  .sortedBy(sort)
                  .toArray()
                  .map((r) => r.key),
              ).toEqual(fullSort(index, sort).map((r) => r.key));
          });
          for (const sort of SORTS)
            expect(
              index
                .sortedBy(sort)
                .toArray()
                .map((r) => r.key),
            ).toEqual(fullSort(index, sort).map((r) => r.key));
        },
      ),
      { numRuns: 40 },
    );
  });
});
