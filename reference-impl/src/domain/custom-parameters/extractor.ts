// The reference's stand-in for the LLM behind custom parameters
// (D-REF-CP-EXTRACTOR). It reads the instructions once (compileInstructions)
// to decide what kind of question they ask (instructions.ts), then answers that question from each post's own text with the NLP
// libraries the analysis already uses: wink-nlp (sentences, parts of speech,
// lemmas, MONEY/CARDINAL entities) and the AFINN lexicon through `analyse`.
// Nothing is drawn at random: the same instructions and post always give the
// same answer. A post the extractor cannot read for the question asked (no
// words at all, or a non-English post for a question that needs the English
// lexicons) is reported as a failure, which a run counts in `mentions_error`.
import { analyse, brandsIn, type Emotion } from "../../simulators/analysis.ts";
import { productsIn, readText, type ReadText } from "../../simulators/reading.ts";
import { classify, criterionTerms, type InstructionKind, type ValueType } from "./instructions.ts";

export type ParameterValue = string | number | boolean | null;

/** What one post yields: a typed value (null when the post holds none) or a failure. */
export type Extraction = { ok: true; value: ParameterValue } | { ok: false; reason: string };

/** The part of a post the extractor reads. */
export interface ExtractablePost {
  title: string;
  text: string;
  language: string;
  metrics?: { views: number; likes: number; comments: number; shares: number };
}

export interface CompiledInstructions {
  kind: InstructionKind;
  valueType: ValueType;
  extract(post: ExtractablePost): Extraction;
}

const LANGUAGES: Record<string, string> = {
  english: "en",
  spanish: "es",
  portuguese: "pt",
  german: "de",
  french: "fr",
  italian: "it",
  dutch: "nl",
};

const EMOTIONS: readonly Emotion[] = ["joy", "sadness", "anger", "surprise", "fear", "disgust", "neutral"];
const EMOTION_ALIASES: Record<string, Emotion> = {
  happy: "joy",
  happiness: "joy",
  joyful: "joy",
  sad: "sadness",
  angry: "anger",
  anger: "anger",
  surprised: "surprise",
  afraid: "fear",
  scared: "fear",
  disgusted: "disgust",
};

// Words that say how prices are perceived, in the languages the provider writes.
const PRICE_COMPLAINT =
  /\b(too expensive|expensive|overpriced|pricey|price is ridiculous|ridiculous price|rip-?off|caro|caro demais|demasiado caro|teuer|zu teuer|trop cher|cher)\b/i;
const PRICE_WORDS =
  /\b(price|prices|priced|cost|costs|paid|cheap|expensive|overpriced|pricey|discount|precio|preço|preis|prix|caro|teuer|cher)\b|[$€£]/i;
const MONEY_RE =
  /(?:[$€£]\s?\d+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?\s?(?:usd|eur|gbp|dollars?|euros?|pounds?|bucks|[$€£]))/gi;

const NEGATORS = new Set(["not", "n't", "never", "no", "without"]);

function postText(p: ExtractablePost): string {
  return p.title ? `${p.title}. ${p.text}` : p.text;
}

function isEnglish(p: ExtractablePost): boolean {
  return p.language.split("-")[0]!.toLowerCase() === "en";
}

const unreadable = (p: ExtractablePost): boolean => !/\p{L}/u.test(postText(p));

/** Parse "$4.99", "3 dollars", "4,50 €" into a number. */
export function parseAmount(s: string): number | null {
  const m = /\d+(?:[.,]\d{1,2})?/.exec(s);
  if (!m) return null;
  return Number(m[0].replace(",", "."));
}

function moneyIn(text: string, doc?: ReadText): string[] {
  const found = (doc ?? readText(text)).entities.filter((e) => e.type === "MONEY").map((e) => e.value);
  // wink's English model misses amounts written the European way ("4,50 €").
  for (const m of text.matchAll(MONEY_RE))
    if (!found.some((f) => f.includes(m[0].trim()) || m[0].includes(f))) found.push(m[0].trim());
  return found;
}

/** Whether a lemma occurs in the tokens without a negator in the three tokens before it. */
function affirmed(tokens: ReadText["tokens"], lemma: string): boolean {
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.lemma !== lemma && tokens[i]!.normal !== lemma) continue;
    let negated = false;
    for (let j = Math.max(0, i - 3); j < i; j++) if (NEGATORS.has(tokens[j]!.normal)) negated = true;
    if (!negated) return true;
  }
  return false;
}

/**
 * Read the instructions once and return the extractor for them. The value a
 * post yields always has the parameter's `value_type` (or is null).
 */
export function compileInstructions(instructions: string, valueType: ValueType): CompiledInstructions {
  const kind = classify(instructions, valueType);
  const lower = instructions.toLowerCase();
  const namedBrands = brandsIn(instructions);
  const englishOnly =
    kind === "sentiment" || kind === "emotion" || kind === "product" || kind === "criteria" || kind === "passage";
  const answer = answerer(kind, valueType, instructions, lower, namedBrands);
  return {
    kind,
    valueType,
    extract(post) {
      if (unreadable(post)) return { ok: false, reason: "The post has no text to read." };
      if (englishOnly && !isEnglish(post)) {
        return { ok: false, reason: `The ${kind} reader understands English only; the post is in '${post.language}'.` };
      }
      return { ok: true, value: answer(post) };
    },
  };
}

function answerer(
  kind: InstructionKind,
  type: ValueType,
  instructions: string,
  lower: string,
  namedBrands: string[],
): (p: ExtractablePost) => ParameterValue {
  switch (kind) {
    case "language": {
      const wanted = Object.entries(LANGUAGES).find(([name]) => lower.includes(name))?.[1];
      return (p) => {
        const code = p.language.split("-")[0]!.toLowerCase();
        if (type === "boolean") return wanted ? code === wanted : null;
        if (type === "number") return null;
        return code;
      };
    }
    case "price": {
      const perception = /\b(expensive|overpriced|pricey|cheap|too much|complain\w*)\b/.test(lower);
      const pick = /\b(highest|max\w*|most)\b/.test(lower)
        ? "max"
        : /\b(lowest|min\w*|cheapest|least)\b/.test(lower)
          ? "min"
          : "first";
      return (p) => {
        const text = postText(p);
        const amounts = moneyIn(text);
        if (type === "boolean")
          return perception ? PRICE_COMPLAINT.test(text) : amounts.length > 0 || PRICE_WORDS.test(text);
        if (!amounts.length) return type === "string" && perception && PRICE_COMPLAINT.test(text) ? "expensive" : null;
        if (type === "string") return amounts[0]!;
        const values = amounts.map(parseAmount).filter((v): v is number => v !== null);
        if (!values.length) return null;
        return pick === "max" ? Math.max(...values) : pick === "min" ? Math.min(...values) : values[0]!;
      };
    }
    case "engagement": {
      const metric = (["likes", "views", "comments", "shares"] as const).find((m) => lower.includes(m))!;
      return (p) => {
        const v = p.metrics?.[metric];
        if (v === undefined) return null;
        return type === "number" ? v : type === "boolean" ? v > 0 : String(v);
      };
    }
    case "questions": {
      return (p) => {
        const questions = readText(postText(p))
          .sentences.map((s) => s.trim())
          .filter((s) => s.endsWith("?"));
        if (type === "boolean") return questions.length > 0;
        if (type === "number") return questions.length;
        return questions[0] ?? null;
      };
    }
    case "emotion": {
      const named =
        EMOTIONS.find((e) => new RegExp(`\\b${e}\\b`).test(lower)) ??
        Object.entries(EMOTION_ALIASES).find(([w]) => new RegExp(`\\b${w}\\b`).test(lower))?.[1];
      return (p) => {
        const e = analyse(postText(p), ["emotions"]).emotions!;
        if (type === "boolean") return named ? e.dominant === named : e.dominant !== "neutral";
        if (type === "number") return Number(e.scores[named ?? e.dominant]);
        return e.dominant;
      };
    }
    case "sentiment": {
      const wantsNegative = /\b(negative|unhappy|dissatisf\w*|complain\w*|dislike\w*|unfavou?rable|critic\w*)\b/.test(
        lower,
      );
      return (p) => {
        // With a brand named, only the sentences about that brand count.
        let text = postText(p);
        if (namedBrands.length) {
          const about = readText(text).sentences.filter((s) => brandsIn(s).some((b) => namedBrands.includes(b)));
          if (!about.length) return null;
          text = about.join(" ");
        }
        const s = analyse(text, ["sentiment"]).sentiment!;
        if (type === "number") return s.score;
        if (type === "boolean") return wantsNegative ? s.label === "negative" : s.label === "positive";
        return s.label;
      };
    }
    case "brands": {
      const competitorsOnly = /\b(compet\w*|compar\w*|other than|instead of|alternatives?|rivals?)\b/.test(lower);
      return (p) => {
        const found = brandsIn(postText(p));
        const brands = competitorsOnly ? found.filter((b) => !namedBrands.includes(b)) : found;
        if (type === "boolean")
          return namedBrands.length && !competitorsOnly
            ? found.some((b) => namedBrands.includes(b))
            : brands.length > 0;
        if (type === "number") return brands.length;
        return brands.length ? brands.join(", ") : null;
      };
    }
    case "product": {
      const { things } = criterionTerms(instructions.replace(/\b(products?|items?)\b/gi, ""));
      return (p) => {
        const products = productsIn(readText(postText(p)));
        if (type === "number") return products.length;
        if (type === "boolean")
          return things.length ? products.some((x) => things.some((t) => x.includes(t))) : products.length > 0;
        return products[0] ?? null;
      };
    }
    case "criteria": {
      const { actions, things } = criterionTerms(instructions);
      return (p) => {
        const doc = readText(postText(p));
        // Actions decide when the instructions name any; otherwise the things they name.
        if (actions.length) return actions.some((a) => affirmed(doc.tokens, a));
        if (things.length) return things.some((t) => affirmed(doc.tokens, t));
        return null;
      };
    }
    case "passage": {
      const { actions, things } = criterionTerms(instructions);
      const terms = new Set([...actions, ...things]);
      return (p) => {
        let best: string | null = null;
        let bestScore = 0;
        for (const sentence of readText(postText(p)).sentences) {
          const lemmas = new Set(readText(sentence).tokens.map((t) => t.lemma));
          let score = 0;
          for (const t of terms) if (lemmas.has(t)) score++;
          if (score > bestScore) [best, bestScore] = [sentence.trim(), score];
        }
        return best;
      };
    }
    case "number": {
      return (p) => {
        const text = postText(p);
        const doc = readText(text);
        const entity = doc.entities.find((e) => e.type === "MONEY" || e.type === "CARDINAL" || e.type === "PERCENT");
        return entity ? parseAmount(entity.value) : null;
      };
    }
  }
}
