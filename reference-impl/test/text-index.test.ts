// The compact text index (text-index.ts, D-REF-SEARCH-COST) answers exactly
// the posts MiniSearch answered when it was the document index. The oracle
// below is that MiniSearch configuration and query code, kept here as the
// reference the index is checked against.
import fc from "fast-check";
import MiniSearch from "minisearch";
import { describe, expect, it } from "vitest";
import { MentionPool } from "../src/domain/mentions/pool.ts";
import { TextIndex, type SearchMode } from "../src/domain/mentions/text-index.ts";
import { analyse } from "../src/simulators/analysis.ts";
import { searchPosts, type Post } from "../src/simulators/provider.ts";

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`text-index fast-check seed: ${seed} (replay with FC_SEED=${seed})`);

interface Doc {
  doc: number;
  title: string | null;
  text: string;
  displayName: string;
  username: string;
}

const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];

/** The document numbers MiniSearch finds, configured and queried as the pool did before the compact index. */
function oracle(docs: readonly Doc[], q: string, mode: SearchMode): number[] {
  const search = new MiniSearch<Doc>({
    idField: "key",
    fields: ["title", "text", "author"],
    extractField: (doc, field) => {
      if (field === "key") return String(doc.doc);
      if (field === "title") return doc.title as string;
      if (field === "text") return doc.text;
      if (field === "author") return `${doc.displayName} ${doc.username}`;
      return "";
    },
  });
  search.addAll(docs);
  const distinct = [
    ...new Set(
      tokenize(q)
        .map((t) => t.toLowerCase())
        .filter((t) => t !== ""),
    ),
  ];
  const terms = mode === "semantic" ? distinct.filter((t) => t.length >= 2) : distinct;
  if (terms.length === 0) return [];
  const hits =
    mode === "semantic"
      ? search.search(terms.slice(0, 8).join(" "), {
          prefix: (term) => term.length >= 3,
          fuzzy: (term) => (term.length >= 4 && term.length <= 24 ? 0.2 : false),
          maxFuzzy: 2,
          combineWith: "OR",
        })
      : search.search(terms.join(" "), { prefix: false, fuzzy: false, combineWith: "AND" });
  return hits.map((h) => Number(h.id)).sort((a, b) => a - b);
}

function indexOf(docs: readonly Doc[]): TextIndex<Doc> {
  const index = new TextIndex<Doc>();
  for (const d of docs) index.add(d, [d.title, d.text, `${d.displayName} ${d.username}`]);
  return index;
}

const numbers = (hits: Iterable<Doc>) => [...hits].map((d) => d.doc);

// Words from a three-letter alphabet, so prefixes, typos and repeats collide;
// now and then a long word, to cross the 24-character fuzzy limit.
const word = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: fc.constantFrom("a", "b", "c"), minLength: 1, maxLength: 7 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom("a", "b"), minLength: 22, maxLength: 27 }) },
);
const separator = fc.constantFrom(" ", " ", ", ", "! ", "-", "\n", "'");
const phrase = fc
  .array(fc.tuple(word, separator, fc.boolean()), { maxLength: 8 })
  .map((parts) => parts.map(([w, sep, upper]) => (upper ? w.toUpperCase() : w) + sep).join(""));
const docFields = fc.record({ title: fc.option(phrase), text: phrase, displayName: phrase, username: word });
const corpus = fc
  .array(docFields, { minLength: 1, maxLength: 25 })
  .map((fields) => fields.map((f, doc): Doc => ({ doc, ...f })));
const mode = fc.constantFrom<SearchMode>("semantic", "keyword");

describe("text index", () => {
  it("finds exactly the posts MiniSearch found, in both modes, sliced or not", async () => {
    await fc.assert(
      fc.asyncProperty(corpus, fc.array(phrase, { minLength: 1, maxLength: 4 }), mode, async (docs, queries, m) => {
        const index = indexOf(docs);
        for (const q of queries) {
          const expected = oracle(docs, q, m);
          const hits = index.search(q, m);
          expect(numbers(hits)).toEqual(expected);
          expect(hits.size).toBe(expected.length);
          expect(numbers(await index.searchSliced(q, m))).toEqual(expected);
        }
      }),
      { seed, numRuns: 300 },
    );
  });

  it("agrees with MiniSearch on corpora large enough to pack postings", () => {
    // Thousands of posts over a few dozen words: frequent terms pass the
    // small-array limit, and rare ones have gaps of more than 127 posts
    // (several bytes each once packed).
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 2 ** 30 }), mode, (n, start, m) => {
        let state = start;
        const next = (k: number) => {
          state = (state * 1103515245 + 12345) % 2 ** 31;
          return state % k;
        };
        const vocabulary = [
          "oat",
          "oats",
          "oatmilk",
          "milk",
          "mild",
          "barista",
          "baristas",
          "foam",
          "review",
          "reviews",
          "latte",
        ];
        const docs: Doc[] = [];
        for (let doc = 0; doc < n; doc++) {
          const words = Array.from(
            { length: 1 + next(5) },
            () => vocabulary[Math.min(next(vocabulary.length), next(vocabulary.length))]!,
          );
          if (next(400) === 0) words.push("rarity");
          docs.push({ doc, title: null, text: words.join(" "), displayName: "Ann", username: `u${next(50)}` });
        }
        const index = indexOf(docs);
        for (const q of ["oat", "oat milk", "rarity", "rarty foam", "baristas review", "u7 ann", "reviews latte"]) {
          expect(numbers(index.search(q, m))).toEqual(oracle(docs, q, m));
        }
      }),
      { seed, numRuns: 12 },
    );
  });

  it("matches nothing for an empty query or one of only punctuation", () => {
    const index = indexOf([{ doc: 0, title: null, text: "oat milk", displayName: "A", username: "a" }]);
    for (const q of ["", "   ", "!?, -"]) {
      for (const m of ["semantic", "keyword"] as const) expect(index.search(q, m).size).toBe(0);
    }
  });

  it("leaves one-letter terms out of the semantic mode but requires them in the keyword mode", () => {
    const index = indexOf([
      { doc: 0, title: null, text: "i like oat milk", displayName: "Ann", username: "ann" },
      { doc: 1, title: null, text: "oat milk", displayName: "Bob", username: "bob" },
      { doc: 2, title: null, text: "i say", displayName: "Cy", username: "cy" },
    ]);
    expect(index.search("i", "semantic").size).toBe(0);
    expect(numbers(index.search("i milk", "semantic"))).toEqual([0, 1]);
    expect(numbers(index.search("i", "keyword"))).toEqual([0, 2]);
    expect(numbers(index.search("i milk", "keyword"))).toEqual([0]);
  });

  it("widens a term of 24 characters by fuzzy matching, and one of 25 only by prefix", () => {
    const long24 = "abcdefghijklmnopqrstuvwx";
    const long25 = "zyxwvutsrqponmlkjihgfedcb";
    const index = indexOf([
      { doc: 0, title: null, text: long24, displayName: "A", username: "a" },
      { doc: 1, title: null, text: long25, displayName: "B", username: "b" },
      { doc: 2, title: null, text: `${long25}a`, displayName: "C", username: "c" },
    ]);
    // One letter changed: 1 edit away, within the 2 a 24-character term allows.
    expect(numbers(index.search(`${long24.slice(0, 23)}Q`, "semantic"))).toEqual([0]);
    // The same change in a 25-character term finds nothing: no fuzzy matching.
    expect(numbers(index.search(`${long25.slice(0, 24)}Q`, "semantic"))).toEqual([]);
    // Unchanged, it still matches itself and the longer term it begins.
    expect(numbers(index.search(long25, "semantic"))).toEqual([1, 2]);
  });

  it("stores a term once per post however often and in however many fields it appears", () => {
    const index = indexOf([{ doc: 0, title: "Oat OAT", text: "oat, oat! milk", displayName: "Oat", username: "milk" }]);
    expect(index.postings).toBe(2);
    expect(index.terms).toBe(2);
    expect(numbers(index.search("oat", "keyword"))).toEqual([0]);
  });

  it("refuses a document out of order (numbers are the order posts joined the pool)", () => {
    const index = new TextIndex<Doc>();
    expect(() => index.add({ doc: 1, title: null, text: "x", displayName: "", username: "" }, ["x"])).toThrow(
      /added as number 0/,
    );
  });
});

describe("mention pool text search", () => {
  const window = { fromMs: Date.UTC(2025, 10, 1), toMs: Date.UTC(2026, 10, 1) };
  const posts = (query: string, count: number): Post[] =>
    searchPosts({ source: "reddit", query, count, window, country: "US", language: null, numComments: 0 });
  const land = (index: MentionPool, batch: Post[], runId: string) => {
    for (const post of batch)
      index.upsert(post, analyse(post.text, []), {
        datasetId: "ds_1",
        runId,
        coefficient: 1,
        runAtMs: window.toMs,
        numComments: 0,
      });
  };

  it("finds a post by its author's user name and display name", () => {
    const index = new MentionPool();
    land(index, posts("oat milk", 50), "dsr_1");
    const record = [...index.all()][7]!;
    const { username } = record.post.author;
    expect([...index.textSearch(username, "keyword")]).toContain(record);
    const named = index.textSearch(record.post.author.display_name, "keyword");
    expect(named.has(record)).toBe(true);
  });

  it("keeps the index current once it exists: a post landing after the first search is indexed by itself, not with the pool", async () => {
    const index = new MentionPool();
    land(index, posts("oat milk", 40), "dsr_1");
    await index.textSearchSliced("oat", "semantic");
    const slices = index.textIndexSlices;
    expect(slices).toBe(1);
    const fresh = posts("zyzzyva sightings", 30);
    land(index, fresh, "dsr_2");
    // The new posts are fed in the background upkeep or by the search, in one
    // slice of their own (not in the turn the run lands).
    const hits = await index.textSearchSliced("zyzzyva", "keyword");
    expect(index.textIndexSlices).toBe(slices + 1);
    const freshKeys = new Set(fresh.map((p) => `${p.source}:${p.id}`));
    const expected = [...index.all()].filter(
      (r) => freshKeys.has(r.key) && /zyzzyva/i.test(`${r.post.title ?? ""} ${r.post.text}`),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(new Set(hits)).toEqual(new Set(expected));
    // A search taken before a post landed does not claim it; a new one finds it.
    const before = index.textSearch("zyzzyva", "keyword");
    land(index, posts("zyzzyva again", 5), "dsr_3");
    const late = index.byRun("dsr_3").filter((r) => r.doc >= before.size && /zyzzyva/i.test(r.post.text));
    expect(late.length).toBeGreaterThan(0);
    const after = index.textSearch("zyzzyva", "keyword");
    for (const r of late) expect([before.has(r), after.has(r)]).toEqual([false, true]);
  });
});
