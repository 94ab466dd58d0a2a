// The full-text index over a large pool is built a slice at a time (the
// first `q` or assistant turn must not block other tenants), and a search
// after slicing finds exactly what a search over an index built in one go
// finds. Slices are counted, never timed.
import { describe, expect, it } from "vitest";
import { MentionPool } from "../src/domain/mentions/pool.ts";
import { analyse } from "../src/simulators/analysis.ts";
import { searchPosts } from "../src/simulators/provider.ts";

function pool(): MentionPool {
  const index = new MentionPool();
  const window = { fromMs: Date.UTC(2025, 10, 1), toMs: Date.UTC(2026, 10, 1) };
  for (const source of ["reddit", "tiktok", "instagram"] as const) {
    for (const post of searchPosts({
      source,
      query: "oat milk",
      count: 900,
      window,
      country: "US",
      language: null,
      numComments: 0,
    })) {
      index.upsert(post, analyse(post.text, []), {
        datasetId: "ds_1",
        runId: "dsr_1",
        coefficient: 1,
        runAtMs: Date.UTC(2026, 10, 1),
        numComments: 0,
      });
    }
  }
  return index;
}

describe("text index slicing", () => {
  it("catches up in slices of at most 1,000 posts (or a time budget) and answers like an index built at once", async () => {
    const sliced = pool();
    const atOnce = pool();
    expect(sliced.size).toBeGreaterThan(2000);
    await sliced.catchUpTextIndex();
    // At most 1,000 posts a slice (fewer when a slice runs out of time).
    const slices = sliced.textIndexSlices;
    expect(slices).toBeGreaterThanOrEqual(Math.ceil(sliced.size / 1000));
    // "milky oats" reaches "milk" and "oat" by fuzzy matching; "barista foam" finds none.
    for (const [q, mode, found] of [
      ["oat milk", "semantic", true],
      ["milky oats", "semantic", true],
      ["barista foam", "semantic", false],
      ["oat milk", "keyword", true],
    ] as const) {
      const keys = (index: MentionPool) => [...index.textSearch(q, mode)].map((r) => r.key).sort();
      expect(keys(sliced).length > 0).toBe(found);
      expect(keys(sliced)).toEqual(keys(atOnce));
    }
    // Nothing left to feed: a second catch-up does no work.
    await sliced.catchUpTextIndex();
    expect(sliced.textIndexSlices).toBe(slices);
  });
});
