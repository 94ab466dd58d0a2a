// What the mention search's sort keys and filter types mean for a returned
// mention, so a check can verify the server applied them. Keys and filter
// types come from the contract (Mentions.MentionSort, the Mentions.Filter
// discriminator); this table only maps each to the mention field it reads.
import type { Contract } from "../../contract.ts";
import { isObject, type Untrusted } from "../../typed.ts";
import { jsonAt, schemaEnum } from "./groups.ts";
import type {
  MentionsEmotion,
  MentionsFilter,
  MentionsMention,
  MentionsSentimentLabel,
} from "../../../../generated/client/types.gen.ts";

export type Mention = Untrusted<MentionsMention>;

const num = (v: unknown): number | undefined => (v === null || v === undefined || v === "" ? undefined : Number(v));

/** Sort key → the comparable value of a mention (undefined = null, placed anywhere). */
export const SORT_FIELD: Record<string, (m: Mention | undefined) => number | undefined> = {
  date: (m) => num(m?.created_at),
  likes: (m) => num(m?.num_likes),
  views: (m) => num(m?.num_views),
  comments: (m) => num(m?.num_comments),
  shares: (m) => num(m?.num_shares),
  engagement_rate: (m) => num(m?.engagement_rate),
  sentiment_score: (m) => num(m?.sentiment_score),
  dataset_run_at: (m) => num(m?.dataset_run_at),
};

export function sortKeys(contract: Contract): string[] {
  return schemaEnum(contract.doc, "Mentions.MentionSort") ?? [];
}

export function filterTypes(contract: Contract): string[] {
  const mapping = jsonAt(contract.doc, "components", "schemas", "Mentions.Filter", "discriminator", "mapping");
  return Object.keys(isObject(mapping) ? mapping : {});
}

const lc = (s: unknown) => String(s ?? "").toLowerCase();
const has = (hay: unknown, needle: string) => lc(hay).includes(lc(needle));
/** The label with the highest score (all tied labels: a server may pick any of them). */
function topLabels(scores: Record<string, unknown> | null | undefined): string[] {
  if (!scores) return [];
  const entries = Object.entries(scores)
    .map(([k, v]) => [k, Number(v)] as const)
    .filter(([, v]) => Number.isFinite(v));
  const max = Math.max(...entries.map(([, v]) => v));
  return entries.filter(([, v]) => v === max).map(([k]) => k);
}

type FilterOf<K extends MentionsFilter["type"]> = Extract<MentionsFilter, { type: K }>;

export interface FilterProbe<F extends MentionsFilter = MentionsFilter> {
  /** a filter built from one sampled mention */
  make(sample: Mention): F | undefined;
  /** whether a returned mention satisfies that filter */
  holds(filter: F, m: Mention | undefined): boolean;
}

/**
 * Filter type → how to build one from a sampled mention and test a result.
 * Matching of free text (keyword, hook, cta) is the deployment's choice
 * (D-REF-KEYWORD, not checked): a result must at least contain the value.
 * The labels a filter carries are the ones the server scored the sample with.
 */
const PROBES: { [K in MentionsFilter["type"]]?: FilterProbe<FilterOf<K>> } = {
  source: {
    make: (m) => (m.source ? { type: "source", values: [m.source] } : undefined),
    holds: (f, m) => f.values.some((v) => v === m?.source),
  },
  has_media: {
    make: (m) => (Array.isArray(m.media) ? { type: "has_media", value: m.media.length > 0 } : undefined),
    holds: (f, m) => (Array.isArray(m?.media) && m.media.length > 0) === f.value,
  },
  sentiment: {
    make: (m) =>
      topLabels(m.sentiment).length === 1
        ? { type: "sentiment", values: topLabels(m.sentiment) as MentionsSentimentLabel[] }
        : undefined,
    holds: (f, m) => topLabels(m?.sentiment).some((l) => f.values.some((v) => v === l)),
  },
  dominant_emotion: {
    make: (m) =>
      topLabels(m.emotions).length === 1
        ? { type: "dominant_emotion", values: topLabels(m.emotions) as MentionsEmotion[] }
        : undefined,
    holds: (f, m) => topLabels(m?.emotions).some((l) => f.values.some((v) => v === l)),
  },
  keyword: {
    make: (m) => {
      const word = String(m.title ?? "")
        .split(/[^\p{L}\p{N}]+/u)
        .find((w) => w.length >= 5);
      return word ? { type: "keyword", operator: "is", value: word.toLowerCase() } : undefined;
    },
    holds: (f, m) => has(`${m?.title ?? ""} ${m?.text ?? ""}`, f.value),
  },
  content_topic: {
    make: (m) => {
      const topic = m.content_topics?.[0]?.text;
      return topic ? { type: "content_topic", operator: "any_of", values: [topic] } : undefined;
    },
    holds: (f, m) => (m?.content_topics ?? []).some((t) => f.values.some((v) => has(t?.text, v))),
  },
  content_intention: {
    make: (m) =>
      m.content_intention
        ? { type: "content_intention", operator: "any_of", values: [m.content_intention] }
        : undefined,
    holds: (f, m) => f.values.some((v) => has(m?.content_intention, v)),
  },
  tone_of_voice: {
    make: (m) =>
      m.tone_of_voice?.text ? { type: "tone_of_voice", operator: "any_of", values: [m.tone_of_voice.text] } : undefined,
    holds: (f, m) => f.values.some((v) => has(m?.tone_of_voice?.text, v)),
  },
  hook: {
    make: (m) => (m.hook?.text ? { type: "hook", operator: "any_of", values: [m.hook.text] } : undefined),
    holds: (f, m) => f.values.some((v) => has(m?.hook?.text, v)),
  },
  cta: {
    make: (m) => (m.cta?.text ? { type: "cta", operator: "any_of", values: [m.cta.text] } : undefined),
    holds: (f, m) => f.values.some((v) => has(m?.cta?.text, v)),
  },
  mentioned_brands: {
    make: (m) => {
      const brand = m.mentioned_brands?.[0];
      return brand ? { type: "mentioned_brands", operator: { type: "any_of", values: [brand] } } : undefined;
    },
    holds: (f, m) => {
      const values = f.operator.type === "any_of" ? f.operator.values : [f.operator.value];
      return (m?.mentioned_brands ?? []).some((b) => values.some((v) => lc(b) === lc(v)));
    },
  },
};

/** The probe of a filter type the contract names, if the kit knows one. */
export function filterProbe(type: string): FilterProbe | undefined {
  return (PROBES as Record<string, FilterProbe | undefined>)[type];
}
