// Semantics of every filter of the taxonomy on a stored mention. Groups are
// OR-ed; filters inside a group are AND-ed. A filter on an analysis field
// never matches a post whose analysis did not run.
import type { MentionsFilter } from "../../../generated/client/types.gen.ts";
import { engagementRate, normalizeWords, type MentionRecord } from "./mention-index.ts";

export type Filter = MentionsFilter;

const lower = (s: string) => s.toLowerCase();
const anyEqual = (have: readonly string[] | undefined | null, want: readonly string[]) => {
  if (!have) return false;
  const w = new Set(want.map(lower));
  return have.some((h) => w.has(lower(h)));
};

function metricValue(r: MentionRecord, metric: "likes" | "views" | "comments" | "engagement_rate", which: "now" | "before"): number {
  const m = which === "now" ? r.metrics : r.previous;
  if (!m) return 0;
  return metric === "engagement_rate" ? engagementRate(m) : m[metric];
}

export function matchesFilter(r: MentionRecord, f: Filter): boolean {
  const a = r.analysis;
  switch (f.type) {
    case "keyword": {
      // Whole-word (or two-word phrase) match on title and text.
      const hit = r.normalized.includes(normalizeWords(f.value));
      return f.operator === "is" ? hit : !hit;
    }
    case "sentiment":
      return !!a.sentiment && f.values.includes(a.sentiment.label);
    case "metric_change": {
      const now = metricValue(r, f.metric, "now");
      const op = f.operator;
      switch (op.type) {
        case "greater_than":
          return now > op.value;
        case "less_than":
          return now < op.value;
        case "in_range":
          return now >= op.min && now <= op.max;
        case "changed_by": {
          // Change since the previous run that saw the post; a post seen
          // once has changed by 0. Positive values ask for at least that
          // increase, negative values for at least that decrease.
          const delta = r.previous ? now - metricValue(r, f.metric, "before") : 0;
          return op.value >= 0 ? delta >= op.value : delta <= op.value;
        }
      }
      return false;
    }
    case "source":
      return f.values.includes(r.post.source);
    case "content_topic":
      return anyEqual(a.content_topics, f.values);
    case "content_intention":
      return anyEqual(a.content_intention ? [a.content_intention] : undefined, f.values);
    case "tone_of_voice":
      return anyEqual(a.tone_of_voice ? [a.tone_of_voice] : undefined, f.values);
    case "hook":
      return !!a.hook && f.values.some((v) => lower(a.hook!).includes(lower(v)));
    case "cta":
      return !!a.cta && f.values.some((v) => lower(a.cta!).includes(lower(v)));
    case "mentioned_brands": {
      const brands = a.mentioned_brands;
      if (!brands) return false;
      const op = f.operator;
      if (op.type === "any_of") return anyEqual(brands, op.values);
      if (op.type === "equals") return brands.some((b) => lower(b) === lower(op.value));
      return brands.some((b) => lower(b).includes(lower(op.value)));
    }
    case "country_code":
      return f.values.includes(r.post.country);
    case "has_media":
      return r.post.media.length > 0 === f.value;
    case "dominant_emotion":
      return !!a.emotions && f.values.includes(a.emotions.dominant);
  }
  return false;
}

export function matchesGroups(r: MentionRecord, groups: readonly (readonly Filter[])[] | undefined): boolean {
  if (!groups || groups.length === 0) return true;
  return groups.some((group) => group.every((f) => matchesFilter(r, f)));
}
