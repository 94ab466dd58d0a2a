// The public Mention shape of a stored record. Analysis fields stay null
// unless the matching analysis ran on a run that saw the post.
import type { MentionsMention } from "../../../../generated/client/types.gen.ts";
import { isoTimestamp } from "../../platform/clock.ts";
import type { MentionRecord } from "./record.ts";
import { patternAssignmentsOf } from "../patterns/assignments.ts";

export function mentionView(
  r: MentionRecord,
  datasetName: (id: string) => { id: string; name: string | null } | undefined,
  parameterIds: readonly string[] = [],
): MentionsMention {
  const p = r.post;
  const a = r.analysis;
  const parameters: MentionsMention["parameters"] = {};
  for (const id of parameterIds) {
    const v = r.parameters?.get(id);
    if (v) parameters[id] = v;
  }
  const datasets = [...r.datasets.keys()].map(datasetName).filter((d): d is { id: string; name: string | null } => !!d);
  return {
    source: p.source,
    id: p.id,
    author: {
      avatar: {
        type: "image",
        version_list: [{ url: p.author.avatar_url, width: 256, height: 256 }],
        description: null,
      },
      title: p.author.display_name,
      title_url: authorUrl(p.source, p.author.username),
      headline: p.author.headline,
      headline_url: null,
    },
    title: p.title,
    text: p.text,
    url: p.url,
    language: p.language,
    summary: a.summary ?? null,
    category: a.category ?? null,
    content_intention: a.content_intention ?? null,
    media: p.media,
    num_views: r.metrics.views,
    num_likes: r.metrics.likes,
    num_comments: r.metrics.comments,
    num_shares: r.metrics.shares,
    are_views_estimated: p.views_estimated,
    engagement_rate: r.engagementRate.toFixed(4),
    sentiment_score: a.sentiment ? a.sentiment.score.toFixed(3) : null,
    sentiment: a.sentiment
      ? { negative: a.sentiment.negative, neutral: a.sentiment.neutral, positive: a.sentiment.positive }
      : null,
    emotions: a.emotions ? a.emotions.scores : null,
    tone_of_voice: a.tone_of_voice ? { text: a.tone_of_voice } : null,
    narrative_structure: a.narrative_structure ? { text: a.narrative_structure } : null,
    hook: a.hook ? { text: a.hook } : null,
    cta: a.cta ? { text: a.cta } : null,
    content_topics: a.content_topics ? a.content_topics.map((text) => ({ text })) : null,
    questions: a.questions ? a.questions.map((text) => ({ text })) : null,
    mentioned_brands: a.mentioned_brands ?? null,
    entities: a.entities ?? null,
    created_at: Math.floor(p.created_ms / 1000),
    dataset_run_at: Math.floor(r.datasetRunMs / 1000),
    datasets,
    collections: [],
    comments: p.comments.slice(0, r.numComments).map((c) => ({
      id: c.id,
      author_username: c.author_username,
      body: c.body,
      num_likes: c.num_likes,
      num_replies: c.num_replies,
      created_at: isoTimestamp(c.created_ms),
    })),
    parameters,
    pattern_assignments: patternAssignmentsOf(r),
  };
}

function authorUrl(source: string, username: string): string {
  switch (source) {
    case "reddit":
      return `https://www.reddit.com/user/${username}`;
    case "tiktok":
      return `https://www.tiktok.com/@${username}`;
    case "youtube":
      return `https://www.youtube.com/@${username}`;
    case "instagram":
      return `https://www.instagram.com/${username}/`;
    default:
      return `https://www.linkedin.com/in/${username}/`;
  }
}
