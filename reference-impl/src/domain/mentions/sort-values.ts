// The numbers posts are sorted by: one per `sort` of POST /v1/mentions, with
// the post key breaking ties.
import type { MentionsMentionSort } from "../../../../generated/client/types.gen.ts";
import type { SortKey } from "../../platform/pagination.ts";
import type { MentionRecord } from "./record.ts";

export type MentionSort = MentionsMentionSort;

/** Numeric sort value of a record for a sort. */
export function sortValue(r: MentionRecord, sort: MentionSort): number {
  switch (sort) {
    case "date":
      return Math.floor(r.post.created_ms / 1000);
    case "likes":
      return r.metrics.likes;
    case "views":
      return r.metrics.views;
    case "comments":
      return r.metrics.comments;
    case "shares":
      return r.metrics.shares;
    case "engagement_rate":
      return r.engagementRate;
    case "sentiment_score":
      // Posts without sentiment analysis sort below every scored post.
      return r.analysis.sentiment ? r.analysis.sentiment.score : -2;
    case "dataset_run_at":
      return Math.floor(r.datasetRunMs / 1000);
  }
}

export function sortKeyOf(sort: MentionSort): (r: MentionRecord) => SortKey {
  return (r) => [sortValue(r, sort), r.key];
}

/** The numeric sort value, with -0 read as 0 (the radix sort and `<` then agree). */
export function sortNumber(r: MentionRecord, sort: MentionSort): number {
  const v = sortValue(r, sort);
  return v === 0 ? 0 : v;
}
