// The pool stores posts compactly (D-REF-COMPACT-POOL: shared strings, derived URLs and
// media, no lower-cased copy of the text). A compacted record must render
// exactly the view the plain provider post rendered, and the keyword filter
// must answer exactly what the stored lower-cased copy answered.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchesFilter } from "../src/domain/mentions/filters.ts";
import { DatasetCoefficients } from "../src/domain/mentions/dataset-coefficients.ts";
import { normalizeWords } from "../src/domain/mentions/filters.ts";
import { MentionPool } from "../src/domain/mentions/pool.ts";
import { collectingRuns, type MentionRecord } from "../src/domain/mentions/record.ts";
import { mentionView } from "../src/domain/mentions/view.ts";
import { analyse, type AnalysisAction } from "../src/simulators/analysis.ts";
import { describeMedia } from "../src/simulators/media-enrichment.ts";
import { SOURCES, metricsAt, resolveUrl, searchPosts, type Post } from "../src/simulators/provider.ts";

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`mention-compact fast-check seed: ${seed} (replay with FC_SEED=${seed})`);

const ACTIONS: AnalysisAction[] = [
  "sentiment",
  "emotions",
  "tone_of_voice",
  "intent",
  "narrative_structure",
  "signal",
  "hook",
  "cta",
  "questions",
  "topics",
  "entities",
  "content_category",
  "mentioned_brands",
];
const now = Date.UTC(2026, 10, 2, 9);
const window = { fromMs: now - 365 * 86_400_000, toMs: now };
const names = (id: string) => ({ id, name: `Dataset ${id}` });

/** A sample of every kind of post the pool receives: each source and language, resolved URLs, described media. */
function samplePosts(): Post[] {
  const posts: Post[] = [];
  for (const source of SOURCES) {
    for (const language of [null, "es", "de"]) {
      posts.push(
        ...searchPosts({
          source,
          query: "oat milk Σίσυφος café",
          count: 15,
          window,
          country: "BR",
          language,
          numComments: 3,
        }),
      );
    }
  }
  const urls: [(typeof SOURCES)[number], string][] = [
    ["reddit", "https://www.reddit.com/r/coffee/comments/abc123/oat_milk/"],
    ["tiktok", "https://www.tiktok.com/@barista/video/123"],
    ["instagram", "https://www.instagram.com/p/XYZ/"],
  ];
  for (const [source, url] of urls) {
    const out = resolveUrl(source, url, undefined, 2);
    if (out.ok) posts.push(out.post);
  }
  for (const p of posts.slice(0, 40)) posts.push({ ...p, id: `${p.id}x`, media: describeMedia(p) });
  // A run asking for fewer comments (regenerated from the seed, then cut) and
  // a post whose comments are not the generated ones (kept as they are).
  for (const p of posts.slice(40, 60)) posts.push({ ...p, id: `${p.id}s`, comments: p.comments.slice(0, 1) });
  for (const p of posts.slice(60, 80))
    posts.push({ ...p, id: `${p.id}c`, comments: p.comments.map((c) => ({ ...c, body: `${c.body}!` })) });
  return posts;
}

/** The record as the pool built it before compaction: the provider's post, a copy of the analysis, Maps. */
function plainRecord(post: Post, actions: AnalysisAction[]): MentionRecord {
  const metrics = metricsAt(post, now);
  return {
    key: `${post.source}:${post.id}`,
    post,
    analysis: { ...analyse(post.text, actions) },
    metrics,
    previous: null,
    engagementRate:
      metrics.views <= 0
        ? 0
        : Math.round(((metrics.likes + metrics.comments + metrics.shares) / metrics.views) * 10_000) / 10_000,
    datasetRunMs: now,
    datasets: new Map([["ds_1", 1]]),
    runs: ["dsr_1"],
    numComments: 3,
    parameters: new Map(),
  } as unknown as MentionRecord;
}

describe("compacted mention records", () => {
  it("render byte-identical views to the plain provider posts", () => {
    const index = new MentionPool();
    const posts = samplePosts();
    let compared = 0;
    posts.forEach((post, i) => {
      const actions = ACTIONS.filter((_, a) => (i + a) % 3 !== 0);
      const { record } = index.upsert(post, analyse(post.text, actions), {
        datasetId: "ds_1",
        runId: "dsr_1",
        coefficient: 1,
        runAtMs: now,
        numComments: 3,
      });
      const expected = JSON.stringify(mentionView(plainRecord(post, actions), names));
      expect(JSON.stringify(mentionView(record, names))).toBe(expected);
      // The stored post reads like the provider's through the Post interface.
      expect(record.post.url).toBe(post.url);
      expect(record.post.author.avatar_url).toBe(post.author.avatar_url);
      expect(JSON.stringify(record.post.media)).toBe(JSON.stringify(post.media));
      expect(record.post.hasMedia).toBe(post.media.length > 0);
      expect(JSON.stringify(record.post.comments)).toBe(JSON.stringify(post.comments));
      expect(record.post.commentCount).toBe(post.comments.length);
      compared++;
    });
    expect(compared).toBe(posts.length);
    expect(compared).toBeGreaterThan(200);
  });

  it("keep later comments and dataset coefficients in order", () => {
    const index = new MentionPool();
    const [few] = searchPosts({
      source: "youtube",
      query: "cold brew",
      count: 1,
      window,
      country: "US",
      language: "en",
      numComments: 1,
    });
    const [more] = searchPosts({
      source: "youtube",
      query: "cold brew",
      count: 1,
      window,
      country: "US",
      language: "en",
      numComments: 4,
    });
    const first = index.upsert(few!, analyse(few!.text, ["sentiment"]), {
      datasetId: "ds_b",
      runId: "dsr_1",
      coefficient: 2,
      runAtMs: now,
      numComments: 1,
    });
    // One run: the id alone, no array; the same run again adds nothing.
    index.upsert(few!, analyse(few!.text, ["sentiment"]), {
      datasetId: "ds_b",
      runId: "dsr_1",
      coefficient: 2,
      runAtMs: now,
      numComments: 1,
    });
    expect(first.record.runs).toBe("dsr_1");
    expect(collectingRuns(first.record)).toEqual(["dsr_1"]);
    expect(index.byRun("dsr_1")).toHaveLength(1);
    const { record } = index.upsert(more!, analyse(more!.text, ["sentiment"]), {
      datasetId: "ds_a",
      runId: "dsr_2",
      coefficient: 3,
      runAtMs: now,
      numComments: 4,
    });
    index.upsert(more!, analyse(more!.text, ["sentiment"]), {
      datasetId: "ds_b",
      runId: "dsr_3",
      coefficient: 5,
      runAtMs: now,
      numComments: 4,
    });
    expect(more!.comments.length).toBeGreaterThan(1);
    expect(record.post.comments).toEqual(more!.comments);
    expect([...record.datasets.keys()]).toEqual(["ds_b", "ds_a"]);
    expect([record.datasets.get("ds_b"), record.datasets.get("ds_a"), record.datasets.get("ds_c")]).toEqual([
      5,
      3,
      undefined,
    ]);
    expect(collectingRuns(record)).toEqual(["dsr_1", "dsr_2", "dsr_3"]);
    expect(index.byRun("dsr_2").map((r) => r.key)).toEqual([record.key]);
  });

  it("answer the keyword filter exactly as the stored lower-cased text did", () => {
    const index = new MentionPool();
    const records = samplePosts().map(
      (post) =>
        index.upsert(post, {}, { datasetId: "ds_1", runId: "dsr_1", coefficient: 1, runAtMs: now, numComments: 3 })
          .record,
    );
    const words = [...new Set(records.flatMap((r) => `${r.post.title} ${r.post.text}`.split(/\s+/)))];
    const word = fc.constantFrom(...words);
    const value = fc.oneof(
      word,
      fc.tuple(word, word).map(([a, b]) => `${a} ${b}`),
      fc.tuple(word, fc.constantFrom("", "!", "  ", "'", "É", "ΣΑ")).map(([a, b]) => `${b}${a.toUpperCase()}${b}`),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: records.length - 1 }), (v, i) => {
        const r = records[i]!;
        const before = normalizeWords(`${r.post.title} ${r.post.text}`).includes(normalizeWords(v));
        expect(matchesFilter(r, { type: "keyword", operator: "is", value: v })).toBe(before);
        expect(matchesFilter(r, { type: "keyword", operator: "is_not", value: v })).toBe(!before);
      }),
      { seed, numRuns: 3000 },
    );
  });

  it("shares one-dataset coefficients between records and copies them before a second dataset", () => {
    const index = new MentionPool();
    const posts = searchPosts({
      source: "reddit",
      query: "matcha",
      count: 3,
      window,
      country: "US",
      language: "en",
      numComments: 0,
    });
    const records = posts.map(
      (p) =>
        index.upsert(p, analyse(p.text, ["sentiment"]), {
          datasetId: "ds_a",
          runId: "dsr_1",
          coefficient: 1.5,
          runAtMs: now,
          numComments: 0,
        }).record,
    );
    expect(records[0]!.datasets).toBe(records[1]!.datasets);
    const again = index.upsert(posts[0]!, analyse(posts[0]!.text, ["sentiment"]), {
      datasetId: "ds_b",
      runId: "dsr_2",
      coefficient: 2,
      runAtMs: now,
      numComments: 0,
    });
    expect(again.newToDataset).toBe(true);
    expect([...records[0]!.datasets.keys()]).toEqual(["ds_a", "ds_b"]);
    // The other records still read their one dataset, unchanged.
    expect([...records[1]!.datasets.keys()]).toEqual(["ds_a"]);
    expect(records[1]!.datasets.get("ds_a")).toBe(1.5);
    // A larger coefficient for the same dataset moves the record to another shared instance.
    index.upsert(posts[2]!, analyse(posts[2]!.text, ["sentiment"]), {
      datasetId: "ds_a",
      runId: "dsr_3",
      coefficient: 4,
      runAtMs: now,
      numComments: 0,
    });
    expect(records[2]!.datasets.get("ds_a")).toBe(4);
    expect(records[1]!.datasets.get("ds_a")).toBe(1.5);
    expect(() => records[1]!.datasets.set("ds_z", 1)).toThrow(/shared/);
  });

  it("DatasetCoefficients reads like a Map", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom("a", "b", "c", "d"), fc.integer({ min: 0, max: 9 }))), (ops) => {
        const map = new Map<string, number>();
        const compact = new DatasetCoefficients();
        for (const [id, c] of ops) {
          map.set(id, c);
          compact.set(id, c);
        }
        expect([...compact.keys()]).toEqual([...map.keys()]);
        expect(compact.size).toBe(map.size);
        for (const id of ["a", "b", "c", "d"]) {
          expect(compact.has(id)).toBe(map.has(id));
          expect(compact.get(id)).toBe(map.get(id));
        }
      }),
      { seed },
    );
  });
});
