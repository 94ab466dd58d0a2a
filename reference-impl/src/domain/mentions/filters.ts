// Semantics of every filter of the taxonomy on a stored mention. Groups are
// OR-ed; filters inside a group are AND-ed. A filter on an analysis field
// never matches a post whose analysis did not run.
import type { MentionsFilter } from "../../../../generated/client/types.gen.ts";
import { engagementRate, type MentionRecord } from "./record.ts";

export type Filter = MentionsFilter;

const lower = (s: string) => s.toLowerCase();

/**
 * A text as the keyword filters read it: lower-case words and numbers, one
 * space between them and one at each edge, so a whole word or phrase is a
 * plain `includes` of its own normal form.
 */
export function normalizeWords(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}']+/gu, " ")
    .trim()} `;
}

// A filter is checked against every stored post, so whatever depends only on
// the filter (normalised keyword, lower-cased value sets) is computed once per
// filter object, not once per post (a long keyword cost seconds).
const prepared = new WeakMap<object, unknown>();
function once<T>(owner: object, make: () => T): T {
  let value = prepared.get(owner) as T | undefined;
  if (value === undefined) prepared.set(owner, (value = make()));
  return value;
}
const lowerSet = (values: readonly string[]) => new Set(values.map(lower));
const lowerList = (values: readonly string[]) => values.map(lower);

const anyEqual = (have: readonly string[] | undefined | null, want: ReadonlySet<string>) => {
  if (!have) return false;
  return have.some((h) => want.has(lower(h)));
};

function metricValue(
  r: MentionRecord,
  metric: "likes" | "views" | "comments" | "engagement_rate",
  which: "now" | "before",
): number {
  const m = which === "now" ? r.metrics : r.previous;
  if (!m) return 0;
  return metric === "engagement_rate" ? engagementRate(m) : m[metric];
}

interface Keyword {
  /** The value as normalizeWords gives it: lower-case words, edge spaces. */
  normalized: string;
  /** Its longest word, or "" when it has no word. */
  probe: string;
}

function keywordOf(value: string): Keyword {
  const normalized = normalizeWords(value);
  const probe = normalized.split(" ").reduce((a, b) => (b.length > a.length ? b : a), "");
  return { normalized, probe };
}

/**
 * Whether `normalizeWords(title + " " + text)` contains the normalised
 * keyword, without storing that lower-cased copy of every post (that
 * copy was 0.25 KB per mention). Every word of the normalised text is a run of
 * characters of the lower-cased title or text (normalising only turns the
 * other characters into spaces, and no word spans the space that joins
 * title and text), so a post whose lower-cased title and text both lack the
 * keyword's longest word cannot match; only the posts that pass that cheap
 * probe are normalised for the exact test, which is the same test as before.
 */
function keywordHit(r: MentionRecord, k: Keyword): boolean {
  const { title, text } = r.post;
  if (k.probe !== "" && !title.toLowerCase().includes(k.probe) && !text.toLowerCase().includes(k.probe)) return false;
  return normalizeWords(`${title} ${text}`).includes(k.normalized);
}

export function matchesFilter(r: MentionRecord, f: Filter): boolean {
  const a = r.analysis;
  switch (f.type) {
    case "keyword": {
      // Whole-word (or two-word phrase) match on title and text.
      const hit = keywordHit(
        r,
        once(f, () => keywordOf(f.value)),
      );
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
      return anyEqual(
        a.content_topics,
        once(f, () => lowerSet(f.values)),
      );
    case "content_intention":
      return anyEqual(
        a.content_intention ? [a.content_intention] : undefined,
        once(f, () => lowerSet(f.values)),
      );
    case "tone_of_voice":
      return anyEqual(
        a.tone_of_voice ? [a.tone_of_voice] : undefined,
        once(f, () => lowerSet(f.values)),
      );
    case "hook":
      return !!a.hook && once(f, () => lowerList(f.values)).some((v) => lower(a.hook!).includes(v));
    case "cta":
      return !!a.cta && once(f, () => lowerList(f.values)).some((v) => lower(a.cta!).includes(v));
    case "mentioned_brands": {
      const brands = a.mentioned_brands;
      if (!brands) return false;
      const op = f.operator;
      if (op.type === "any_of")
        return anyEqual(
          brands,
          once(op, () => lowerSet(op.values)),
        );
      const wanted = once(op, () => lower(op.value));
      if (op.type === "equals") return brands.some((b) => lower(b) === wanted);
      return brands.some((b) => lower(b).includes(wanted));
    }
    case "country_code":
      return f.values.includes(r.post.country);
    case "has_media":
      return r.post.hasMedia === f.value;
    case "dominant_emotion":
      return !!a.emotions && f.values.includes(a.emotions.dominant);
  }
  return false;
}

export function matchesGroups(r: MentionRecord, groups: readonly (readonly Filter[])[] | undefined): boolean {
  if (!groups || groups.length === 0) return true;
  // Plain loops: this runs once per stored post and must not allocate.
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    let all = true;
    for (let f = 0; f < group.length && all; f++) all = matchesFilter(r, group[f]!);
    if (all) return true;
  }
  return false;
}
