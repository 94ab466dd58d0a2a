// Properties of the citation rewriter shared by the assistant and the
// tracking agents: for any markdown with any links, markers are numbered by
// first appearance, reused on re-citation, and each reference's half-open
// UTF-16 range slices exactly its first marker.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rewriteCitations } from "../src/domain/citations/rewriter.ts";
import { SOURCES } from "../src/simulators/provider.ts";

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`citations properties: fast-check seed ${SEED} (rerun with FC_SEED=${SEED})`);
const RUNS = { seed: SEED, numRuns: 400 };

const MARKER = /\[(\d+)\]/g;

/** Every `[digits]` in the text, in order. */
function markers(text: string): { n: number; at: number }[] {
  return [...text.matchAll(MARKER)].map((m) => ({ n: Number(m[1]), at: m.index }));
}

function checkInvariants(text: string, posts: ReturnType<typeof rewriteCitations>["posts"]) {
  posts.forEach((p, i) => {
    expect(p.citation).toBe(i + 1);
    expect(text.slice(p.start_index, p.end_index)).toBe(`[${p.citation}]`);
    expect(text.indexOf(`[${p.citation}]`)).toBe(p.start_index);
  });
  const keys = posts.map((p) => `${p.source}:${p.id}`);
  expect(new Set(keys).size).toBe(keys.length);
  // Every bracketed number left in the text is a marker of a reference.
  for (const m of markers(text)) {
    expect(m.n).toBeGreaterThanOrEqual(1);
    expect(m.n).toBeLessThanOrEqual(posts.length);
  }
}

// Prose from characters that matter: brackets, parentheses, digits, colons,
// astral-plane emoji and combining marks (so UTF-16 offsets differ from code points).
const proseChar = fc.constantFrom(
  "[",
  "]",
  "(",
  ")",
  "1",
  "2",
  "0",
  ":",
  "post",
  "a",
  " ",
  "\n",
  "😀",
  "é",
  "e\u0301",
  "\\",
  "*",
  "`",
);
const anyProse = fc.array(proseChar, { maxLength: 30 }).map((a) => a.join(""));
// Prose that cannot form or break a link on its own (no parenthesis).
const plainProse = fc
  .array(fc.constantFrom("[", "]", "1", "2", "x", " ", "😀", "é", ":", "\\"), { maxLength: 12 })
  .map((a) => a.join(""));
const source = fc.constantFrom(...SOURCES, "myspace");
const postId = fc.constantFrom("1", "t3_abc", "7431958260473318702", "x:y", "Ab-9_z");
const label = fc.array(fc.constantFrom("a", "1", " ", "😀", "é", "*"), { maxLength: 6 }).map((a) => a.join(""));
const link = fc.record({ label, source, id: postId });

type Link = { label: string; source: string; id: string };
const linkText = (l: Link) => `[${l.label}](post:${l.source}:${l.id})`;

describe("citation rewriter properties", () => {
  it("holds the invariants for arbitrary markdown mixing prose and links", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(anyProse, link.map(linkText), fc.string({ unit: "binary", maxLength: 8 })), {
          maxLength: 20,
        }),
        (parts) => {
          const { text, posts } = rewriteCitations(parts.join(""));
          checkInvariants(text, posts);
        },
      ),
      RUNS,
    );
  });

  it("numbers posts by first appearance, reuses numbers, and drops rejected links to their label", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            plainProse.map((p) => ({ p })),
            link,
          ),
          { maxLength: 25 },
        ),
        fc.boolean(),
        (parts, rejectT3) => {
          // The caller may refuse some posts (e.g. not in the account).
          const accept = (_s: string, id: string) => !(rejectT3 && id.startsWith("t3_"));
          const input = parts.map((x) => ("p" in x ? x.p : linkText(x))).join("");
          const { text, posts } = rewriteCitations(input, { accept });
          checkInvariants(text, posts);

          // Model: the expected marker sequence from the parts themselves.
          const order = new Map<string, number>();
          const expected: number[] = [];
          for (const x of parts) {
            if ("p" in x) continue;
            if (!SOURCES.includes(x.source as never) || !accept(x.source, x.id)) continue;
            const key = `${x.source}:${x.id}`;
            if (!order.has(key)) order.set(key, order.size + 1);
            expected.push(order.get(key)!);
          }
          expect(markers(text).map((m) => m.n)).toEqual(expected);
          expect(posts.map((p) => `${p.source}:${p.id}`)).toEqual([...order.keys()]);
        },
      ),
      RUNS,
    );
  });
});

describe("citation rewriter examples", () => {
  it("rewrites the seed's example and reuses a re-cited post", () => {
    const md =
      "The top complaint is **foam that collapses within a minute** [clip](post:tiktok:7431958260473318702), " +
      "then grainy texture [thread](post:reddit:t3_x) and again [same clip](post:tiktok:7431958260473318702).";
    const { text, posts } = rewriteCitations(md);
    expect(text).toBe(
      "The top complaint is **foam that collapses within a minute** [1], then grainy texture [2] and again [1].",
    );
    expect(posts[0]).toEqual({
      type: "post",
      source: "tiktok",
      id: "7431958260473318702",
      citation: 1,
      start_index: 61,
      end_index: 64,
    });
    expect(posts[1]!.citation).toBe(2);
  });

  it("counts offsets in UTF-16 code units", () => {
    const { text, posts } = rewriteCitations("😀😀 [a](post:reddit:1)");
    expect(posts[0]!.start_index).toBe(5); // two surrogate pairs plus a space
    expect(text.slice(5, 8)).toBe("[1]");
  });

  it("escapes a literal bracketed number so it cannot be taken for a marker", () => {
    const { text, posts } = rewriteCitations("See [1] and [b](post:youtube:v1)");
    expect(text).toBe("See [1\\] and [1]");
    expect(posts[0]!.start_index).toBe(text.lastIndexOf("[1]"));
  });

  it("leaves unknown sources and ordinary links as prose", () => {
    const { text, posts } = rewriteCitations("[x](post:myspace:1) [docs](https://example.com)");
    expect(posts).toEqual([]);
    expect(text).toBe("x [docs](https://example.com)");
  });
});
