// Topic clustering of post texts with real libraries: wink-nlp (tokens,
// normal forms, English stop words), the `stopword` lists for the other
// languages the provider writes (es, pt, de, fr), wink-nlp's BM25 vectorizer (a TF-IDF weighting with
// length normalisation) and ml-kmeans (k-means++ with a fixed seed). The
// research question steers the result by up-weighting its own terms, so
// posts that differ on what the question asks about fall into different
// clusters and those terms rank first in the labels.
//
// Work stays bounded whatever the dataset size: the vocabulary is capped,
// k-means is fitted on an evenly spaced sample, and every post is then
// assigned to its nearest centroid in one pass. The work is a sliced
// generator (platform/pipeline.ts): it yields every POSTS_PER_PIECE posts
// and fits k-means on a worker thread, so a detection over 10,000 posts never
// holds the event loop for long.
import { createRequire } from "node:module";
import winkNLP from "wink-nlp";
import model from "wink-eng-lite-web-model";
import type bm25VectorizerType from "wink-nlp/utilities/bm25-vectorizer";
import { drainNow, runOffThread, type Sliced } from "../../platform/pipeline.ts";
import { fitInThread, fitOffThread, flatten } from "./kmeans-thread.ts";

// The vectorizer is a CommonJS file without an `exports` map; require keeps
// its resolution independent of the ESM loader in use (tsx, vitest, node).
const require = createRequire(import.meta.url);
const bm25Vectorizer = require("wink-nlp/utilities/bm25-vectorizer") as typeof bm25VectorizerType;
// `stopword` ships no types; its lists are plain string arrays per ISO 639-3 code.
const stopLists = require("stopword") as Record<"eng" | "spa" | "por" | "deu" | "fra", string[]>;
const STOP_WORDS = new Set(
  [...stopLists.eng, ...stopLists.spa, ...stopLists.por, ...stopLists.deu, ...stopLists.fra].map((w) =>
    w.toLowerCase(),
  ),
);

/** Upper bound on vocabulary terms (vector dimensions). */
export const MAX_TERMS = 256;
/** Upper bound on the posts k-means is fitted on. */
export const MAX_FIT_SAMPLE = 1000;
/** Largest number of clusters (pattern items). */
export const MAX_CLUSTERS = 8;
/** Posts handled between two yields of the sliced clustering (about 2-5 ms of work each). */
export const POSTS_PER_PIECE = 100;
/** Multiplier applied to the research question's terms. */
export const QUESTION_WEIGHT = 3;
/** A term in more than this share of posts cannot tell posts apart (e.g. the search query itself). */
const MAX_DOC_SHARE = 0.5;

export interface ClusterInput {
  /** Title and text of the post. */
  text: string;
}

export interface ClusterMember {
  /** Index of the post in the input array. */
  index: number;
  /** Cosine similarity of the post to its cluster's centroid, 0-1. */
  confidence: number;
}

export interface Cluster {
  /** Most characteristic terms, strongest first. */
  terms: string[];
  /** Research-question terms among `terms`. */
  questionTerms: string[];
  /** Members, most typical first. */
  members: ClusterMember[];
}

export interface Clustering {
  /** Clusters, largest first (ties: the one whose most typical post comes first). */
  clusters: Cluster[];
  /** Terms of the research question that are in the vocabulary. */
  questionTerms: string[];
  /** Vocabulary size used. */
  dimensions: number;
  /** Content words of each input post, in input order. */
  postTerms: string[][];
}

let nlp: ReturnType<typeof winkNLP> | undefined;
function wink() {
  // Only tokens, their normal forms and stop-word flags are read; an empty
  // pipe skips sentence, POS, entity and sentiment stages.
  return (nlp ??= winkNLP(model, []));
}

/** Build the tokenizer now (about 0.1 s), at server start rather than inside the first detection. */
export function preloadClusteringNlp(): void {
  wink();
}

/** Content words of a text, lower-cased: no stop words (five languages), punctuation, numbers or one/two-letter words. */
export function contentTerms(text: string): string[] {
  const { its } = wink();
  const tokens = wink().readDoc(text).tokens();
  // Column-wise reads avoid building one item object per token.
  const normal = tokens.out(its.normal) as string[];
  const type = tokens.out(its.type) as string[];
  const stop = tokens.out(its.stopWordFlag) as boolean[];
  const out: string[] = [];
  for (let i = 0; i < normal.length; i++) {
    const w = normal[i]!;
    if (type[i] === "word" && !stop[i] && w.length >= 3 && !STOP_WORDS.has(w) && !/\d/.test(w)) out.push(w);
  }
  return out;
}

/** How many clusters for n posts: grows with the square root of n, 1 to MAX_CLUSTERS. */
export function clusterCountFor(n: number): number {
  if (n <= 1) return n;
  return Math.max(2, Math.min(MAX_CLUSTERS, Math.round(Math.sqrt(n / 4))));
}

/** Keep terms found in at least two posts and at most MAX_DOC_SHARE of them, the most frequent first. */
function vocabulary(docs: string[][], questionTerms: Set<string>): Set<string> {
  const df = new Map<string, number>();
  for (const doc of docs) for (const t of new Set(doc)) df.set(t, (df.get(t) ?? 0) + 1);
  const maxDf = Math.max(2, Math.floor(docs.length * MAX_DOC_SHARE));
  const eligible = [...df].filter(([, n]) => n >= 2 && n <= maxDf);
  // Question terms go first so the cap never drops what the question asks about.
  eligible.sort(
    (a, b) =>
      Number(questionTerms.has(b[0])) - Number(questionTerms.has(a[0])) || b[1] - a[1] || (a[0] < b[0] ? -1 : 1),
  );
  return new Set(eligible.slice(0, MAX_TERMS).map(([t]) => t));
}

function normalise(v: number[]): number[] {
  let s = 0;
  for (const x of v) s += x * x;
  if (s === 0) return v;
  const n = Math.sqrt(s);
  return v.map((x) => x / n);
}

function dot(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/**
 * Cluster posts by their wording, steered by a research question. The same
 * posts and question always give the same clusters.
 */
export function clusterPosts(posts: readonly ClusterInput[], researchQuestion: string): Clustering {
  return drainNow(clusterPostsSliced(posts, researchQuestion));
}

/** clusterPosts as sliced work: yields between pieces of at most POSTS_PER_PIECE posts; the k-means fit runs off the thread. */
export function* clusterPostsSliced(posts: readonly ClusterInput[], researchQuestion: string): Sliced<Clustering> {
  const docs: string[][] = [];
  for (let i = 0; i < posts.length; i++) {
    docs.push(contentTerms(posts[i]!.text));
    if ((i + 1) % POSTS_PER_PIECE === 0) yield;
  }
  const asked = new Set(contentTerms(researchQuestion));
  const vocab = vocabulary(docs, asked);
  const terms = [...vocab].sort();
  const questionTerms = terms.filter((t) => asked.has(t));
  if (posts.length === 0) return { clusters: [], questionTerms, dimensions: terms.length, postTerms: docs };

  // BM25 weights over the kept vocabulary only; a post with no kept term is
  // a zero vector and ends with confidence 0 in whichever cluster is nearest.
  const vectorizer = bm25Vectorizer({ k: 1, k1: 1.2, b: 0.75, norm: "l2" });
  const pruned = docs.map((d) => d.filter((t) => vocab.has(t)));
  yield;
  // The vectorizer needs at least one learned document and one term.
  for (let i = 0; i < pruned.length; i++) {
    const d = pruned[i]!;
    vectorizer.learn(d.length ? d : ["\u0000"]);
    if ((i + 1) % POSTS_PER_PIECE === 0) yield;
  }
  const { its } = wink();
  const weight = terms.map((t) => (asked.has(t) ? QUESTION_WEIGHT : 1));
  const vectors: number[][] = [];
  for (let i = 0; i < pruned.length; i++) {
    const bow = vectorizer.doc(i).out(its.bow) as Record<string, number>;
    vectors.push(normalise(terms.map((t, j) => (bow[t] ?? 0) * weight[j]!)));
    if ((i + 1) % POSTS_PER_PIECE === 0) yield;
  }

  const k = Math.min(clusterCountFor(posts.length), distinctCount(vectors));
  const assignment = k <= 1 ? vectors.map(() => 0) : yield* fitAndAssign(vectors, k);

  const groups = new Map<number, number[]>();
  assignment.forEach((c, i) => {
    let g = groups.get(c);
    if (!g) groups.set(c, (g = []));
    g.push(i);
  });

  const clusters: Cluster[] = [];
  for (const indices of groups.values()) {
    yield;
    const centroid = new Array<number>(terms.length).fill(0);
    for (const i of indices) for (let j = 0; j < terms.length; j++) centroid[j]! += vectors[i]![j]!;
    const unit = normalise(centroid.map((x) => x / indices.length));
    const members = indices
      .map((index) => ({
        index,
        confidence: Math.round(Math.max(0, Math.min(1, dot(vectors[index]!, unit))) * 1000) / 1000,
      }))
      .sort((a, b) => b.confidence - a.confidence || a.index - b.index);
    const ranked = terms
      .map((t, j) => ({ t, w: unit[j]! }))
      .filter((x) => x.w > 0)
      .sort((a, b) => b.w - a.w || (a.t < b.t ? -1 : 1))
      .slice(0, 6)
      .map((x) => x.t);
    clusters.push({ terms: ranked, questionTerms: ranked.filter((t) => asked.has(t)), members });
  }
  clusters.sort((a, b) => b.members.length - a.members.length || a.members[0]!.index - b.members[0]!.index);
  return { clusters, questionTerms, dimensions: terms.length, postTerms: docs };
}

function distinctCount(vectors: number[][]): number {
  const seen = new Set<string>();
  for (const v of vectors) {
    seen.add(v.join(","));
    if (seen.size > MAX_CLUSTERS) break;
  }
  return seen.size;
}

/**
 * Fit k-means on an evenly spaced sample, then give every post its nearest
 * centroid. The fit is one library call that cannot be sliced (about 0.1 s
 * for 1,000 points), so a sliced run hands it to a worker thread
 * (kmeans-thread.ts); fixtures seeded inline fit here. Same answer either way.
 */
function* fitAndAssign(vectors: number[][], k: number): Sliced<number[]> {
  const step = Math.max(1, Math.ceil(vectors.length / MAX_FIT_SAMPLE));
  const sample: number[][] = [];
  for (let i = 0; i < vectors.length; i += step) sample.push(vectors[i]!);
  // A sample with fewer distinct points than k would make k-means++ fail.
  const kk = Math.min(k, distinctCount(sample));
  if (kk <= 1) return vectors.map(() => 0);
  const options = { initialization: "kmeans++", seed: 7, maxIterations: 60, tolerance: 1e-6 } as const;
  const points = step === 1 ? null : vectors;
  const dims = vectors[0]!.length;
  return yield* runOffThread({
    offThread: () => fitOffThread(flatten(sample, dims), points && flatten(points, dims), dims, kk, options),
    inThread: () => fitInThread({ sample, points, k: kk, options }),
  });
}
