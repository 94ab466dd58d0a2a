// What the mention search's sort keys and filter types mean for a returned
// mention, so a check can verify the server applied them. Keys and filter
// types come from the contract (Mentions.MentionSort, the Mentions.Filter
// discriminator); this table only maps each to the mention field it reads.
import type { Contract } from "../../contract.ts";
import type { CheckContext } from "../../types.ts";
import { isObject, type Untrusted } from "../../typed.ts";
import { jsonAt, pollUntil, priceOf, runIdOf, schemaEnum, setupRefusal, terminalType } from "./groups.ts";
import { chargeOrReason, createDataset, listOf } from "./util.ts";
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

/** The mentions the list checks want the account to hold: more than the search's default page of 20. */
export const MENTION_POOL = 25;

/** How many mentions the account's search lists on one page of 100 (100 when it says there are more). */
async function accountMentions(ctx: CheckContext): Promise<number> {
  const ex = await ctx.req({ method: "POST", path: "/v1/mentions", body: { limit: 100 } });
  return ex.status === 200 ? (listOf(ex)?.length ?? 0) : 0;
}

/**
 * A dataset of MENTION_POOL labelled posts from two platforms: one prompt
 * run over reddit and tiktok with the seed's analysis actions (analysis is
 * not charged apart, seed › Charges), polled to its end, once per kit run. The
 * filter and sort checks need posts whose values differ. Undefined when the
 * deployment refuses or fails the run (readonly: never built).
 */
export function labelledPool(ctx: CheckContext): Promise<string | undefined> {
  return ctx.shared("mention-pool", async () => {
    if (ctx.settings.profile === "readonly") return undefined;
    const price = await priceOf(ctx, "mention");
    const refused = chargeOrReason(
      ctx,
      price.mul(MENTION_POOL).toFixed(),
      `a pool of ${MENTION_POOL} labelled mentions for the list checks`,
    );
    if (refused) {
      ctx.notExercised(`the kit's labelled pool of mentions was not built: ${refused}`);
      return undefined;
    }
    const ds = await createDataset(ctx, "mention-pool");
    const runs = `/v1/datasets/${encodeURIComponent(ds.id)}/runs`;
    const ex = await ctx.req({
      method: "POST",
      path: runs,
      body: {
        search_query: { type: "prompt", sources: ["reddit", "tiktok"], search_query: "oat milk latte art" },
        count: MENTION_POOL,
        num_comments_per_post: 0,
        content_analysis_actions: ANALYSIS,
      },
    });
    const id = runIdOf(ex);
    if (ex.status !== 202 || !id || setupRefusal(ex)) return undefined;
    const obs = await pollUntil<{ status?: { type?: string } }>(ctx, `${runs}/${encodeURIComponent(id)}`, terminalType);
    return obs.at(-1)?.d?.status?.type === "completed" ? ds.id : undefined;
  });
}

/** The analysis actions the pool asks for: the labels the filter probes read. */
const ANALYSIS = [
  "sentiment",
  "emotions",
  "topics",
  "tone_of_voice",
  "hook",
  "cta",
  "mentioned_brands",
  "intent",
  "content_category",
];

/**
 * The account holds at least `n` mentions (n ≤ 100), the labelled pool built
 * when it does not. Returns how many mentions the account's search then
 * lists (capped at 100), for the caller to judge whether its rule is exercised.
 */
export async function mentionsAtLeast(ctx: CheckContext, n: number): Promise<number> {
  const have = await accountMentions(ctx);
  if (have >= n || ctx.settings.profile === "readonly") return have;
  await labelledPool(ctx);
  return accountMentions(ctx);
}
