// What a set of posts says in numbers: sentiment split and average, most
// frequent topics and brands, total engagement and the most engaged posts.
// Written once for the assistant's answers and the tracking agents' alerts,
// from the analysis the runs stored (nothing is re-analysed here).
import { postLink } from "../citations/rewriter.ts";
import type { MentionRecord } from "./record.ts";

export interface PostSummary {
  count: number;
  /** Posts with a sentiment analysis, by label. */
  sentiment: { positive: number; neutral: number; negative: number; analysed: number; average: number };
  topics: [string, number][];
  brands: [string, number][];
  engagement: { views: number; likes: number; comments: number; shares: number };
  /** Most engaged first (likes + comments + shares, then key for a stable order). */
  top: MentionRecord[];
}

export function interactions(r: MentionRecord): number {
  return r.metrics.likes + r.metrics.comments + r.metrics.shares;
}

function topCounts(counts: Map<string, number>, n: number): [string, number][] {
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n);
}

export function summarisePosts(records: Iterable<MentionRecord>, topN = 3): PostSummary {
  const sentiment = { positive: 0, neutral: 0, negative: 0, analysed: 0, average: 0 };
  const topics = new Map<string, number>();
  const brands = new Map<string, number>();
  const engagement = { views: 0, likes: 0, comments: 0, shares: 0 };
  let scoreSum = 0;
  let count = 0;
  // Keep only the topN most engaged while walking, so 100k posts cost one pass.
  const top: MentionRecord[] = [];
  const better = (a: MentionRecord, b: MentionRecord) =>
    interactions(a) > interactions(b) || (interactions(a) === interactions(b) && a.key < b.key);
  for (const r of records) {
    count++;
    const s = r.analysis.sentiment;
    if (s) {
      sentiment[s.label]++;
      sentiment.analysed++;
      scoreSum += s.score;
    }
    for (const t of r.analysis.content_topics ?? []) topics.set(t, (topics.get(t) ?? 0) + 1);
    for (const b of r.analysis.mentioned_brands ?? []) brands.set(b, (brands.get(b) ?? 0) + 1);
    engagement.views += r.metrics.views;
    engagement.likes += r.metrics.likes;
    engagement.comments += r.metrics.comments;
    engagement.shares += r.metrics.shares;
    if (top.length < topN || better(r, top[top.length - 1]!)) {
      let i = Math.min(top.length, topN - 1);
      top[i] = r;
      while (i > 0 && better(top[i]!, top[i - 1]!)) {
        [top[i], top[i - 1]] = [top[i - 1]!, top[i]!];
        i--;
      }
    }
  }
  sentiment.average = sentiment.analysed ? Math.round((scoreSum / sentiment.analysed) * 1000) / 1000 : 0;
  return { count, sentiment, topics: topCounts(topics, 5), brands: topCounts(brands, 5), engagement, top };
}

const SOURCE_NAMES: Record<string, string> = {
  reddit: "Reddit",
  tiktok: "TikTok",
  youtube: "YouTube",
  instagram: "Instagram",
  linkedin: "LinkedIn",
};

export function sourceName(source: string): string {
  return SOURCE_NAMES[source] ?? source;
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** One short quote of a post, at most `max` characters, on one line. */
export function excerpt(r: MentionRecord, max = 160): string {
  const text = (r.post.text || r.post.title).replace(/\s+/g, " ").trim();
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** Markdown lines for a summary; the most engaged post is linked for citation. */
export function summaryLines(s: PostSummary): string[] {
  const lines: string[] = [];
  const { sentiment: st } = s;
  if (st.analysed) {
    const mood = st.average > 0.05 ? "leans positive" : st.average < -0.05 ? "leans negative" : "is mixed to neutral";
    lines.push(
      `**Sentiment** ${mood}: ${st.positive} positive, ${st.neutral} neutral, ${st.negative} negative (average score ${st.average.toFixed(2)} over ${st.analysed} analysed posts).`,
    );
  } else {
    lines.push("**Sentiment**: these posts were collected without sentiment analysis.");
  }
  if (s.topics.length) lines.push(`**Topics**: ${s.topics.map(([t, n]) => `${t} (${n})`).join(", ")}.`);
  if (s.brands.length) lines.push(`**Brands mentioned**: ${s.brands.map(([b, n]) => `${b} (${n})`).join(", ")}.`);
  const e = s.engagement;
  const best = s.top[0];
  lines.push(
    `**Engagement**: ${fmt(e.views)} views, ${fmt(e.likes)} likes, ${fmt(e.comments)} comments and ${fmt(e.shares)} shares in total` +
      (best
        ? `; the most engaged post is by ${best.post.author.display_name} on ${sourceName(best.post.source)} ${postLink("top post", best.post.source, best.post.id)}.`
        : "."),
  );
  return lines;
}

/** A quoted post with its citation link. */
export function quoteLine(r: MentionRecord): string {
  return `> "${excerpt(r)}" (${r.post.author.display_name}, ${sourceName(r.post.source)}) ${postLink(r.post.title || "post", r.post.source, r.post.id)}`;
}
