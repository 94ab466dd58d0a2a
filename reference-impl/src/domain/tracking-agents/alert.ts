// The alert a tracking agent writes at the end of each cycle (D-TA-MESSAGE,
// D-TA-ALERT-EVERY-CYCLE): counts and sentiment of the posts that were new to
// the agent's datasets, a one-line preview, and a markdown body that quotes
// the most engaged new posts. The body goes through the same citation
// rewriter as the assistant's replies; a `pattern` reference is added when
// the new posts fall into a pattern already detected on one of the datasets.
import type { CommonReference } from "../../../../generated/client/types.gen.ts";
import { rewriteCitations } from "../citations/rewriter.ts";
import type { MentionRecord } from "../mentions/record.ts";
import { quoteLine, summarisePosts, summaryLines } from "../mentions/post-summary.ts";

export interface CycleOutcome {
  agentName: string;
  instructions: string;
  numComments: number;
  datasets: { id: string; name: string | null }[];
  /** Posts the cycle collected that none of its dataset held before, once each. */
  newPosts: MentionRecord[];
  /** Dataset runs that failed, with their messages. */
  failures: { datasetId: string; message: string }[];
  /** Dataset runs that were started. */
  runs: number;
  /** A pattern already detected on the datasets that posts of this cycle belong to. */
  pattern: { id: string; name: string; matched: number } | null;
  /** Set when the cycle could not start (scheduled cycles have nobody to answer). */
  skipped?: string;
}

export interface AlertContent {
  new_mention_count: number;
  comment_count: number;
  sentiment_score: number;
  short_preview_message: string;
  text: string;
  references: CommonReference[];
}

/** Entity references of one message (the seed's "usually at most 3"). */
export const MAX_ENTITY_REFERENCES = 3;

export function composeAlert(o: CycleOutcome, postExists: (source: string, id: string) => boolean): AlertContent {
  const summary = summarisePosts(o.newPosts, 3);
  const comment_count = o.newPosts.reduce((n, r) => n + Math.min(r.post.comments.length, o.numComments), 0);
  const sentiment_score = summary.sentiment.average;
  const n = summary.count;
  const lines: string[] = [`**${o.agentName}**`, ""];
  let preview: string;
  if (o.skipped) {
    preview = `Scheduled cycle skipped: ${o.skipped}`;
    lines.push(`The scheduled cycle did not run: ${o.skipped}`);
  } else if (o.runs > 0 && o.failures.length === o.runs) {
    preview = "The cycle failed; no new mentions were collected.";
    lines.push("Every dataset run of this cycle failed, so nothing was collected or charged:");
  } else if (n === 0) {
    preview = "No new mentions since the last cycle.";
    lines.push(
      `No new mentions since the last cycle across ${o.datasets.length} dataset${o.datasets.length === 1 ? "" : "s"}.`,
    );
  } else {
    const mood = summary.sentiment.analysed ? `, sentiment ${sentiment_score.toFixed(2)}` : "";
    preview = `${n} new mention${n === 1 ? "" : "s"}, ${comment_count} comment${comment_count === 1 ? "" : "s"}${mood}.`;
    lines.push(
      `${n} new mention${n === 1 ? "" : "s"} with ${comment_count} comment${comment_count === 1 ? "" : "s"} in ${o.datasets.map((d) => `*${d.name ?? d.id}*`).join(", ")}.`,
      "",
    );
    lines.push(...summaryLines(summary), "", "**Most engaged new posts**", "");
    for (const r of summary.top) lines.push(quoteLine(r), "");
  }
  for (const f of o.failures) lines.push(`- Dataset ${f.datasetId}: ${f.message}`);
  if (lines[lines.length - 1] !== "") lines.push("");
  if (o.pattern)
    lines.push(
      `${o.pattern.matched} of the posts this cycle collected belong to the detected pattern **${o.pattern.name}**.`,
    );

  const { text, posts } = rewriteCitations(lines.join("\n").trim(), { accept: postExists });
  const entities: CommonReference[] = [];
  if (o.pattern) entities.push({ type: "pattern", id: o.pattern.id });
  for (const d of o.datasets) entities.push({ type: "dataset", id: d.id });
  return {
    new_mention_count: n,
    comment_count,
    sentiment_score,
    short_preview_message: preview.length > 140 ? `${preview.slice(0, 139)}…` : preview,
    text,
    references: [...posts, ...entities.slice(0, MAX_ENTITY_REFERENCES)],
  };
}
