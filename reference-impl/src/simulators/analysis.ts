// Analysis fields computed from a post's text by real libraries: the AFINN
// lexicon (`sentiment`) for sentiment and its score, wink-nlp with its
// English model for sentences, parts of speech and entities. Small
// hand-written lexicons cover emotions, brands, CTAs and categories. The same
// text always gives the same analysis.
import Sentiment from "sentiment";
import type { ItemToken } from "wink-nlp";
import { english } from "./english.ts";
import type { DatasetsContentAnalysisAction } from "../../../generated/client/types.gen.ts";
import { BRANDS } from "./corpus.ts";

export type AnalysisAction = DatasetsContentAnalysisAction;
export type SentimentLabel = "positive" | "negative" | "neutral";
export type Emotion = "neutral" | "joy" | "sadness" | "anger" | "surprise" | "fear" | "disgust";

export interface Analysis {
  sentiment?: { label: SentimentLabel; score: number; negative: string; neutral: string; positive: string };
  emotions?: { scores: Record<Emotion, string>; dominant: Emotion };
  tone_of_voice?: string;
  narrative_structure?: string;
  hook?: string;
  cta?: string | null;
  content_topics?: string[];
  questions?: string[];
  mentioned_brands?: string[];
  entities?: string[];
  category?: string;
  content_intention?: string;
  summary?: string;
}

const sentimentLib = new Sentiment();

const EMOTION_WORDS: Record<Exclude<Emotion, "neutral">, string[]> = {
  joy: [
    "love",
    "happy",
    "amazing",
    "great",
    "fantastic",
    "brilliant",
    "excellent",
    "best",
    "impressive",
    "won",
    "adore",
    "encanta",
    "adorei",
    "liebe",
    "begeistert",
    "top",
    "thanks",
    "helpful",
    "agree",
    "favourite",
  ],
  sadness: [
    "disappointment",
    "disappointed",
    "sad",
    "miss",
    "unfortunately",
    "decepción",
    "decepção",
    "enttäuschung",
    "déception",
  ],
  anger: ["hate", "ruined", "frustrating", "ridiculous", "terrible", "worst", "scam", "awful"],
  surprise: ["surprise", "surprised", "skeptical", "wow", "unexpected", "sorpresa"],
  fear: ["worried", "afraid", "risk", "scared", "unsafe"],
  disgust: ["awful", "gross", "disgusting", "taste", "refund"],
};

const CTA_PATTERNS = [
  /^(check out|subscribe|follow|comment|link in bio|click|join|try|download|sign up|shop|use code)/i,
  /(link in (the )?bio|enlace en la bio|link na bio|link in der bio|lien dans la bio)/i,
  /^(sígueme|me segue|folgt mir|abonnez-vous)/i,
];
const CATEGORY_RULES: [string, RegExp][] = [
  ["promotion", /(discount|code|sale|link in bio|link na bio|enlace)/i],
  ["tutorial", /(how to|guide|tips|breaking down|things to know|recipe)/i],
  ["news", /(now available|announced|launch|across the country)/i],
  ["review", /(review|tried|probé|experimentei|probiert|testé|honest)/i],
];

function fixed3(x: number): string {
  return (Math.round(x * 1000) / 1000).toFixed(3);
}

/** Three probabilities as 3-decimal strings summing exactly to 1. */
function distribution(pos: number, neg: number, neu: number): { positive: string; negative: string; neutral: string } {
  const total = pos + neg + neu || 1;
  const p = Math.round((pos / total) * 1000);
  const n = Math.round((neg / total) * 1000);
  return {
    positive: (p / 1000).toFixed(3),
    negative: (n / 1000).toFixed(3),
    neutral: ((1000 - p - n) / 1000).toFixed(3),
  };
}

export function analyse(text: string, actions: readonly AnalysisAction[]): Analysis {
  const want = new Set(actions);
  const out: Analysis = {};
  const needsSentiment =
    want.has("sentiment") ||
    want.has("emotions") ||
    want.has("tone_of_voice") ||
    want.has("intent") ||
    want.has("narrative_structure") ||
    want.has("signal");
  const s = needsSentiment ? sentimentLib.analyze(text) : undefined;
  const label: SentimentLabel = !s
    ? "neutral"
    : s.comparative > 0.05
      ? "positive"
      : s.comparative < -0.05
        ? "negative"
        : "neutral";

  if (want.has("sentiment") && s) {
    const neutralMass = Math.max(1, (s.tokens.length - s.words.length) / 4);
    out.sentiment = {
      label,
      score: Number(fixed3(Math.tanh(s.comparative))),
      ...distribution(s.positive.length, s.negative.length, neutralMass),
    };
  }

  if (want.has("emotions") && s) {
    const counts: Record<Emotion, number> = {
      neutral: 0,
      joy: 0,
      sadness: 0,
      anger: 0,
      surprise: 0,
      fear: 0,
      disgust: 0,
    };
    for (const token of s.tokens) {
      for (const [emotion, words] of Object.entries(EMOTION_WORDS) as [Exclude<Emotion, "neutral">, string[]][]) {
        if (words.includes(token)) counts[emotion]++;
      }
    }
    const emotional = Object.values(counts).reduce((a, b) => a + b, 0);
    counts.neutral = Math.max(0.5, s.tokens.length / 6 - emotional);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const order: Emotion[] = ["neutral", "joy", "sadness", "anger", "surprise", "fear", "disgust"];
    let remaining = 1000;
    const scores = {} as Record<Emotion, string>;
    order.forEach((e, i) => {
      const v = i === order.length - 1 ? remaining : Math.round((counts[e] / total) * 1000);
      remaining -= v;
      scores[e] = (Math.max(0, v) / 1000).toFixed(3);
    });
    let dominant: Emotion = "neutral";
    for (const e of order) if (counts[e] > counts[dominant]) dominant = e;
    out.emotions = { scores, dominant };
  }

  const needsNlp = [
    "hook",
    "cta",
    "questions",
    "topics",
    "entities",
    "narrative_structure",
    "tone_of_voice",
    "intent",
    "content_category",
    "signal",
  ].some((a) => want.has(a as AnalysisAction));
  if (needsNlp) {
    const w = english();
    const doc = w.readDoc(text);
    const its = w.its;
    const sentences = doc.sentences().out() as string[];
    const questions = sentences.filter((x) => x.trim().endsWith("?"));
    const cta = sentences.find((x) => CTA_PATTERNS.some((p) => p.test(x.trim()))) ?? null;

    const freq = new Map<string, number>();
    doc.tokens().each((t: ItemToken) => {
      const pos = t.out(its.pos) as string;
      const stop = t.out(its.stopWordFlag) as boolean;
      const normal = t.out(its.normal) as string;
      if ((pos === "NOUN" || pos === "PROPN") && !stop && normal.length > 2 && /^[\p{L}][\p{L}'-]*$/u.test(normal)) {
        freq.set(normal, (freq.get(normal) ?? 0) + 1);
      }
    });
    const topics = [...freq.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([k]) => k);

    if (want.has("hook")) out.hook = sentences[0] ?? text;
    if (want.has("cta")) out.cta = cta;
    if (want.has("questions")) out.questions = questions;
    if (want.has("topics")) out.content_topics = topics;
    if (want.has("entities")) {
      const entities = new Set<string>();
      for (const e of doc.entities().out(its.detail) as unknown as { value: string; type: string }[])
        entities.add(e.value);
      for (const b of brandsIn(text)) entities.add(b);
      out.entities = [...entities].slice(0, 10);
    }
    if (want.has("narrative_structure")) {
      out.narrative_structure = sentences[0]?.trim().endsWith("?")
        ? "question-led"
        : /\b(i|my|me)\b/i.test(sentences[0] ?? "")
          ? "personal story"
          : sentences.length >= 3
            ? "multi-point"
            : "statement";
    }
    if (want.has("tone_of_voice")) {
      out.tone_of_voice =
        cta && !questions.length
          ? "promotional"
          : label === "negative"
            ? "critical"
            : text.includes("!") || label === "positive"
              ? "enthusiastic"
              : questions.length
                ? "inquisitive"
                : "informative";
    }
    if (want.has("content_category"))
      out.category =
        CATEGORY_RULES.find(([, re]) => re.test(text))?.[0] ?? (questions.length ? "question" : "discussion");
    if (want.has("intent"))
      out.content_intention = cta
        ? "promote"
        : label === "negative"
          ? "complain"
          : questions.length
            ? "ask"
            : label === "positive"
              ? "recommend"
              : "inform";
    if (want.has("signal"))
      out.summary = `${label[0]!.toUpperCase()}${label.slice(1)} post about ${topics.join(", ") || "the topic"}${questions.length ? " that asks the audience a question" : ""}.`;
  }
  if (want.has("mentioned_brands")) out.mentioned_brands = brandsIn(text);
  return out;
}

const BRAND_PATTERNS = BRANDS.map(
  (b) => [b, new RegExp(`(^|[^\\p{L}])${b.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}])`, "iu")] as const,
);

export function brandsIn(text: string): string[] {
  return BRAND_PATTERNS.filter(([, re]) => re.test(text)).map(([b]) => b);
}
