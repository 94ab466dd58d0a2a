// What a person's own words say about them, read with the libraries the
// reference already uses: wink-nlp (tokens, parts of speech, lemmas,
// sentences) and the AFINN lexicon of `sentiment`. Nothing here is random:
// the same writings always give the same profile text fields.
//
// OCEAN formula (documented in reference-impl/README.md). Over all of a person's writings,
// with n = word tokens:
//   ttr   = distinct lemmas / n, normalised (ttr - 0.4) / 0.5   lexical variety
//   long  = share of words with 7+ letters / 0.3                 elaborate wording
//   quest = question sentences / sentences                       curiosity
//   excl  = sentences ending in "!" / sentences                  energy
//   self  = first-person singular words / n / 0.08
//   social= we/you/everyone words / n / 0.06
//   pos   = AFINN positive words / n / 0.15,  neg = AFINN negative words / n / 0.15
//   negat = negations / n / 0.05,  tent = tentative words / n / 0.04
//   struct= structure words and numbers / n / 0.06,  promo = share of writings with a call to action
//   agree = agreement and thanks words / n / 0.06
// (each clamped to 0..1), then, each raw score clamped to 0..1:
//   openness          = 0.20 + 0.35 ttr + 0.25 long + 0.20 quest
//   conscientiousness = 0.35 + 0.30 struct + 0.15 long - 0.15 excl - 0.10 negat + 0.10 (1 - tent)
//   extraversion      = 0.20 + 0.30 excl + 0.25 social + 0.15 promo + 0.10 pos
//   agreeableness     = 0.35 + 0.30 pos + 0.20 agree + 0.10 social - 0.35 neg
//   neuroticism       = 0.15 + 0.40 neg + 0.20 self + 0.10 negat + 0.10 tent
// and finally shrunk toward the neutral 0.5 by how much text there is, so a
// four-word comment cannot claim an extreme personality:
//   score = 0.5 + (raw - 0.5) * n / (n + 15), rounded to 2 decimals.
// The weights follow the direction of the correlations reported between
// word categories and Big Five traits (Pennebaker and King 1999; Yarkoni
// 2010): variety and long words with openness, ordered wording with
// conscientiousness, exclamations and social words with extraversion,
// positive emotion with agreeableness, negative emotion and self-focus with
// neuroticism. They are a transparent heuristic, not a trained model.
import Sentiment from "sentiment";
import type { ItemToken } from "wink-nlp";
import { english } from "../../simulators/english.ts";
import { brandsIn } from "../../simulators/analysis.ts";
import {
  AGREEMENT,
  BRAND_INDUSTRY,
  FIRST_PERSON,
  NEGATIONS,
  NICHE_INDUSTRY,
  NICHES,
  PROMO_PATTERNS,
  SOCIAL_WORDS,
  STRUCTURE,
  TENTATIVE,
} from "./lexicons.ts";
import type { Writing } from "./people.ts";

export interface Ocean {
  openness: number;
  conscientiousness: number;
  extraversion: number;
  agreeableness: number;
  neuroticism: number;
}

export interface TextFeatures {
  words: number;
  ttr: number;
  long: number;
  quest: number;
  excl: number;
  self: number;
  social: number;
  pos: number;
  neg: number;
  negat: number;
  tent: number;
  struct: number;
  promo: number;
  agree: number;
  /** AFINN comparative score averaged over writings (-5..5 per word). */
  comparative: number;
}

export interface TextProfile {
  features: TextFeatures;
  ocean: Ocean;
  niches: string[];
  interests: string[];
  brands: string[];
  industry: string;
  tone: string;
  language: string;
  promotional: boolean;
}

const sentimentLib = new Sentiment();

const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);
const round2 = (x: number) => Math.round(x * 100) / 100;

/** The Big Five scores of a feature vector (formula in the file header). */
export function oceanOf(f: TextFeatures): Ocean {
  const confidence = f.words / (f.words + 15);
  const s = (x: number) => round2(0.5 + (clamp01(x) - 0.5) * confidence);
  return {
    openness: s(0.2 + 0.35 * f.ttr + 0.25 * f.long + 0.2 * f.quest),
    conscientiousness: s(0.35 + 0.3 * f.struct + 0.15 * f.long - 0.15 * f.excl - 0.1 * f.negat + 0.1 * (1 - f.tent)),
    extraversion: s(0.2 + 0.3 * f.excl + 0.25 * f.social + 0.15 * f.promo + 0.1 * f.pos),
    agreeableness: s(0.35 + 0.3 * f.pos + 0.2 * f.agree + 0.1 * f.social - 0.35 * f.neg),
    neuroticism: s(0.15 + 0.4 * f.neg + 0.2 * f.self + 0.1 * f.negat + 0.1 * f.tent),
  };
}

function ranked(counts: Map<string, number>, limit: number): string[] {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([k]) => k);
}

const bump = (m: Map<string, number>, k: string, by = 1) => m.set(k, (m.get(k) ?? 0) + by);

/** Tone label from how the person writes. */
function toneOf(f: TextFeatures): string {
  if (f.promo >= 0.5) return f.comparative >= 0 ? "promotional and upbeat" : "promotional";
  if (f.comparative <= -0.15) return f.excl > 0.2 ? "frustrated and blunt" : "critical";
  if (f.quest >= 0.4) return "curious and conversational";
  if (f.comparative >= 0.2) return f.excl > 0.2 || f.agree > 0.3 ? "warm and enthusiastic" : "positive and measured";
  if (f.struct >= 0.4) return "informative and structured";
  return "neutral and matter-of-fact";
}

export function analyseWritings(writings: readonly Writing[]): TextProfile {
  const w = english();
  const its = w.its;
  let words = 0;
  let longWords = 0;
  let sentences = 0;
  let questions = 0;
  let exclaims = 0;
  let self = 0;
  let social = 0;
  let negat = 0;
  let tent = 0;
  let struct = 0;
  let agree = 0;
  let posWords = 0;
  let negWords = 0;
  let comparative = 0;
  let promoWritings = 0;
  const lemmas = new Set<string>();
  const nicheHits = new Map<string, number>();
  const terms = new Map<string, number>();
  const brandCounts = new Map<string, number>();
  const languages = new Map<string, number>();

  const nicheOfLemma = new Map<string, string>();
  for (const [niche, list] of Object.entries(NICHES)) for (const l of list) nicheOfLemma.set(l, niche);

  for (const writing of writings) {
    bump(languages, writing.language.split("-")[0]!.toLowerCase());
    if (PROMO_PATTERNS.some((p) => p.test(writing.text))) promoWritings++;
    for (const b of brandsIn(writing.text)) bump(brandCounts, b);
    const s = sentimentLib.analyze(writing.text);
    posWords += s.positive.length;
    negWords += s.negative.length;
    comparative += s.comparative;

    const doc = w.readDoc(writing.text);
    for (const sentence of doc.sentences().out() as string[]) {
      const t = sentence.trim();
      if (!t) continue;
      sentences++;
      if (t.endsWith("?")) questions++;
      if (t.endsWith("!")) exclaims++;
    }
    // Runs of consecutive nouns become one interest term ("oat milk"). The
    // tagger is an English model, so terms are taken from English text only;
    // other languages still count toward niches through the lexicon.
    const english = writing.language.toLowerCase().startsWith("en");
    let run: string[] = [];
    const flush = () => {
      if (english && run.length && run.length <= 3) bump(terms, run.join(" "));
      run = [];
    };
    doc.tokens().each((token: ItemToken) => {
      const type = token.out(its.type) as string;
      if (type === "number") {
        struct++;
        flush();
        return;
      }
      if (type !== "word") {
        flush();
        return;
      }
      const normal = token.out(its.normal) as string;
      // The typings declare `lemma` with a model-addons argument `out` supplies itself.
      const lemma = token.out(its.lemma as unknown as typeof its.normal) as string;
      const pos = token.out(its.pos) as string;
      const stop = token.out(its.stopWordFlag) as boolean;
      words++;
      lemmas.add(lemma);
      if (normal.length >= 7) longWords++;
      if (FIRST_PERSON.has(normal)) self++;
      if (SOCIAL_WORDS.has(normal)) social++;
      if (NEGATIONS.has(normal)) negat++;
      if (TENTATIVE.has(normal)) tent++;
      if (STRUCTURE.has(normal) || STRUCTURE.has(lemma)) struct++;
      if (AGREEMENT.has(normal) || AGREEMENT.has(lemma)) agree++;
      const niche = nicheOfLemma.get(lemma) ?? nicheOfLemma.get(normal);
      if (niche) bump(nicheHits, niche);
      if (pos === "NOUN" && !stop && normal.length > 2 && /^\p{L}[\p{L}'-]*$/u.test(normal)) run.push(lemma);
      else flush();
    });
    flush();
  }

  const n = Math.max(1, words);
  const sn = Math.max(1, sentences);
  const features: TextFeatures = {
    words,
    ttr: clamp01((lemmas.size / n - 0.4) / 0.5),
    long: clamp01(longWords / n / 0.3),
    quest: clamp01(questions / sn),
    excl: clamp01(exclaims / sn),
    self: clamp01(self / n / 0.08),
    social: clamp01(social / n / 0.06),
    pos: clamp01(posWords / n / 0.15),
    neg: clamp01(negWords / n / 0.15),
    negat: clamp01(negat / n / 0.05),
    tent: clamp01(tent / n / 0.04),
    struct: clamp01(struct / n / 0.06),
    promo: writings.length ? promoWritings / writings.length : 0,
    agree: clamp01(agree / n / 0.06),
    comparative: writings.length ? comparative / writings.length : 0,
  };

  const niches = ranked(nicheHits, 2);
  const brands = ranked(brandCounts, 5);
  // Interest clusters: the person's most frequent noun terms, then the niches
  // they imply, without repeats.
  const interests = [...new Set([...ranked(terms, 4), ...niches])].slice(0, 5);
  const industry =
    (niches[0] && NICHE_INDUSTRY[niches[0]]) ?? (brands[0] && BRAND_INDUSTRY[brands[0]]) ?? "consumer goods";
  return {
    features,
    ocean: oceanOf(features),
    niches,
    interests,
    brands,
    industry,
    tone: toneOf(features),
    language: ranked(languages, 1)[0] ?? "en",
    promotional: features.promo >= 0.5,
  };
}
