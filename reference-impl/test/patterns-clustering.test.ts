// The clustering and labelling behind pattern detections, as pure functions:
// distinct topics separate, every post lands in exactly one cluster, the
// research question steers terms, and the work stays bounded.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  clusterCountFor,
  clusterPosts,
  contentTerms,
  MAX_CLUSTERS,
  MAX_TERMS,
} from "../src/domain/patterns/clustering.ts";
import { excerpt, itemTitle } from "../src/domain/patterns/labels.ts";

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`pattern clustering properties: fast-check seed ${SEED} (rerun with FC_SEED=${SEED})`);

const bikes = [
  "The cargo bike battery died after two winters, battery replacement costs a fortune.",
  "Battery range on my cargo bike drops in the cold, the battery needs a warm garage.",
  "New battery for the cargo bike arrived, range is back to sixty kilometres.",
  "Is the battery of this cargo bike removable? Charging the battery indoors matters.",
];
const kids = [
  "Taking both kids to school in the cargo bike, the kids love the rain cover.",
  "Kids seat belts in the cargo bike box feel safe, the kids wave at everyone.",
  "School run with three kids fits in the cargo bike box, no car needed for kids.",
  "The kids fell asleep in the cargo bike box on the way home from school.",
];

describe("contentTerms", () => {
  it("keeps content words and drops stop words in the five corpus languages, numbers and short tokens", () => {
    expect(contentTerms("The battery of MY cargo bike died after 2 winters!")).toEqual([
      "battery",
      "cargo",
      "bike",
      "died",
      "winters",
    ]);
    expect(contentTerms("Mi opinión sobre la bici con los niños")).not.toContain("con");
    expect(contentTerms("Ich liebe das Fahrrad und die Kinder")).toEqual(["liebe", "fahrrad", "kinder"]);
  });
});

describe("clusterPosts", () => {
  it("separates two distinct topics into two clusters with their own terms", () => {
    const posts = [...bikes, ...kids].map((text) => ({ text }));
    const { clusters } = clusterPosts(posts, "What do owners talk about?");
    expect(clusters.length).toBe(2);
    const groups = clusters.map((c) => c.members.map((m) => m.index).sort((a, b) => a - b));
    expect(groups).toContainEqual([0, 1, 2, 3]);
    expect(groups).toContainEqual([4, 5, 6, 7]);
    const battery = clusters.find((c) => c.members.some((m) => m.index === 0))!;
    expect(battery.terms[0]).toBe("battery");
    const children = clusters.find((c) => c.members.some((m) => m.index === 4))!;
    expect(children.terms[0]).toBe("kids");
  });

  it("puts the question's terms first in the vocabulary, the labels and the titles", () => {
    const posts = [...bikes, ...kids].map((text) => ({ text }));
    const steered = clusterPosts(posts, "How do families use the box and the rain cover at school?");
    // "rain" and "cover" occur in one post only: too rare to be a dimension.
    expect(steered.questionTerms).toEqual(["box", "school"]);
    const children = steered.clusters.find((c) => c.members.some((m) => m.index === 4))!;
    expect(children.questionTerms.sort()).toEqual(["box", "school"]);
    expect(itemTitle(children)).toMatch(/^(Box, school|School, box) and /);
    // Without the question, "box" is not the leading term.
    const plain = clusterPosts(posts, "Anything?");
    expect(plain.clusters.find((c) => c.members.some((m) => m.index === 4))!.terms[0]).not.toBe("box");
  });

  it("handles no posts, one post, and posts with no shared words", () => {
    expect(clusterPosts([], "q").clusters).toEqual([]);
    const one = clusterPosts([{ text: "just one lonely post" }], "q");
    expect(one.clusters.length).toBe(1);
    expect(one.clusters[0]!.members).toEqual([{ index: 0, confidence: 0 }]);
    const disjoint = clusterPosts([{ text: "alpha beta" }, { text: "gamma delta" }, { text: "epsilon zeta" }], "q");
    expect(disjoint.clusters.flatMap((c) => c.members).length).toBe(3);
    expect(disjoint.clusters.flatMap((c) => c.members).every((m) => m.confidence === 0)).toBe(true);
  });

  it("cluster count grows with the square root of the posts and stays within 2..MAX_CLUSTERS", () => {
    expect([0, 1, 2, 8, 40, 100, 400, 10_000].map(clusterCountFor)).toEqual([
      0,
      1,
      2,
      2,
      3,
      5,
      MAX_CLUSTERS,
      MAX_CLUSTERS,
    ]);
  });

  it("property: every post is in exactly one cluster, clusters are largest first, confidences in [0, 1], deterministic", () => {
    const words = [
      "price",
      "taste",
      "foam",
      "latte",
      "barista",
      "cheap",
      "sweet",
      "carton",
      "store",
      "oats",
      "creamy",
      "froth",
    ];
    const text = fc.array(fc.constantFrom(...words), { minLength: 0, maxLength: 8 }).map((w) => w.join(" "));
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 0, maxLength: 60 }),
        fc.array(fc.constantFrom(...words), { maxLength: 3 }),
        (texts, q) => {
          const posts = texts.map((t) => ({ text: t }));
          const result = clusterPosts(posts, q.join(" "));
          const seen = result.clusters.flatMap((c) => c.members.map((m) => m.index)).sort((a, b) => a - b);
          expect(seen).toEqual(posts.map((_, i) => i));
          const sizes = result.clusters.map((c) => c.members.length);
          expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
          expect(result.clusters.length).toBeLessThanOrEqual(Math.max(clusterCountFor(posts.length), 0));
          expect(result.dimensions).toBeLessThanOrEqual(MAX_TERMS);
          for (const c of result.clusters)
            for (const m of c.members) expect(m.confidence >= 0 && m.confidence <= 1).toBe(true);
          expect(clusterPosts(posts, q.join(" "))).toEqual(result);
        },
      ),
      { seed: SEED, numRuns: 80 },
    );
  });
});

describe("labels", () => {
  it("excerpts cut at a word boundary and mark the cut", () => {
    expect(excerpt("short text")).toBe("short text");
    const long = excerpt("word ".repeat(60), 30);
    expect(long.length).toBeLessThanOrEqual(30);
    expect(long.endsWith("word…")).toBe(true);
  });
});
