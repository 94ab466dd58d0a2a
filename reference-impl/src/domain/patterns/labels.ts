// Titles, synopses and the pattern summary, written from what the clustering
// found: each item's strongest terms, its share of the posts, its sentiment
// mix (when the posts were analysed for sentiment) and its most typical post.
// Nothing here is invented; every sentence restates a measured figure.
import type { Cluster, Clustering } from "./clustering.ts";

export interface LabelInput {
  text: string;
  /** Sentiment label from the post's analysis, when sentiment ran on its run. */
  sentiment: "positive" | "negative" | "neutral" | null;
  /** Content words of the post, as the clustering saw them. */
  terms: ReadonlySet<string>;
}

export interface ItemLabel {
  title: string;
  synopsis: string;
}

function capitalise(s: string): string {
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}

/** "a", "a and b", "a, b and c". */
function listOf(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function percent(part: number, whole: number): number {
  return whole ? Math.round((part / whole) * 100) : 0;
}

/** The text cut at a word boundary to at most `max` characters. */
export function excerpt(text: string, max = 140): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, "")}…`;
}

/** Item title: its three strongest terms, question terms first. */
export function itemTitle(cluster: Cluster): string {
  const ordered = [...cluster.questionTerms, ...cluster.terms.filter((t) => !cluster.questionTerms.includes(t))];
  const head = ordered.slice(0, 3);
  return head.length ? capitalise(listOf(head)) : "Posts without distinctive wording";
}

function sentimentSentence(cluster: Cluster, posts: readonly LabelInput[]): string {
  const counts = { positive: 0, negative: 0, neutral: 0 };
  let scored = 0;
  for (const m of cluster.members) {
    const s = posts[m.index]!.sentiment;
    if (s) {
      counts[s]++;
      scored++;
    }
  }
  if (!scored) return "";
  return ` Sentiment: ${percent(counts.positive, scored)}% positive, ${percent(counts.negative, scored)}% negative, ${percent(counts.neutral, scored)}% neutral.`;
}

export function itemLabel(cluster: Cluster, posts: readonly LabelInput[], total: number): ItemLabel {
  const n = cluster.members.length;
  const wording = cluster.terms.length
    ? `share the wording ${listOf(cluster.terms.slice(0, 4).map((t) => `“${t}”`))}`
    : "share no distinctive wording";
  const typical = cluster.members[0] ? ` Typical post: “${excerpt(posts[cluster.members[0].index]!.text)}”` : "";
  return {
    title: itemTitle(cluster),
    synopsis: `${n} of ${total} posts (${percent(n, total)}%) ${wording}.${sentimentSentence(cluster, posts)}${typical}`,
  };
}

/**
 * Top-level summary: the question, how many posts and items, the largest
 * items with their shares, and where the question's own terms concentrate.
 */
export function patternSummary(
  question: string,
  clustering: Clustering,
  titles: string[],
  posts: readonly LabelInput[],
): string {
  const total = posts.length;
  const { clusters, questionTerms } = clustering;
  const parts: string[] = [];
  parts.push(
    `Asked “${excerpt(question, 200)}”, the ${total} posts of the latest completed run fall into ${clusters.length} pattern${clusters.length === 1 ? "" : "s"}.`,
  );
  const top = clusters.slice(0, 3).map((c, i) => `“${titles[i]}” (${percent(c.members.length, total)}%)`);
  if (top.length) parts.push(`Largest: ${listOf(top)}.`);
  if (!questionTerms.length) {
    parts.push("None of the question's words recur across these posts, so the items follow the posts' own wording.");
    return parts.join(" ");
  }
  // Which item holds the largest share of its posts using the question's words.
  let best = -1;
  let bestShare = 0;
  let using = 0;
  clusters.forEach((c, i) => {
    const hits = c.members.filter((m) => questionTerms.some((t) => posts[m.index]!.terms.has(t))).length;
    using += hits;
    const share = hits / c.members.length;
    if (share > bestShare) {
      bestShare = share;
      best = i;
    }
  });
  const words = listOf(questionTerms.slice(0, 4).map((t) => `“${t}”`));
  parts.push(
    best >= 0
      ? `${using} posts (${percent(using, total)}%) use the question's words ${words}; they concentrate in “${titles[best]}” (${Math.round(bestShare * 100)}% of its posts).`
      : `No post uses the question's words ${words}.`,
  );
  return parts.join(" ");
}
