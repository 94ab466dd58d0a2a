// What kind of question a custom parameter's instructions ask (classify),
// and the content words a yes/no criterion or a passage search looks for
// (criterionTerms), read from the wording with wink-nlp. The extractor
// (extractor.ts) answers the question from each post.
import { brandsIn } from "../../simulators/analysis.ts";
import { readText } from "../../simulators/reading.ts";

export type ValueType = "string" | "number" | "boolean";

export type InstructionKind =
  | "language"
  | "price"
  | "questions"
  | "emotion"
  | "sentiment"
  | "brands"
  | "engagement"
  | "product"
  | "criteria"
  | "passage"
  | "number";

// Instruction words that frame the question rather than say what to look for.
const BOILERPLATE = new Set([
  "answer",
  "true",
  "false",
  "return",
  "returns",
  "otherwise",
  "author",
  "post",
  "posts",
  "text",
  "say",
  "says",
  "said",
  "mention",
  "mentions",
  "mentioned",
  "whether",
  "value",
  "extract",
  "nothing",
  "null",
  "yes",
  "no",
  "if",
  "when",
  "be",
  "do",
  "does",
  "discuss",
  "discussed",
  "talk",
  "talks",
  "write",
  "writes",
  "written",
  "state",
  "states",
  "give",
  "name",
  "which",
  "what",
  "any",
  "one",
  "the",
  "is",
  "are",
  "they",
  "their",
  "user",
  "creator",
  "content",
  "being",
  "about",
]);

// A few verbs whose forms or near-synonyms a criterion should also accept.
const SYNONYMS: Record<string, string[]> = {
  buy: ["buy", "purchase", "order", "switch", "pick"],
  purchase: ["buy", "purchase", "order"],
  switch: ["switch", "change", "move"],
  recommend: ["recommend", "suggest", "love"],
  refund: ["refund", "return"],
  break: ["break", "broken", "broke"],
  try: ["try", "test"],
};

/** Content lemmas of the instructions: what a yes/no criterion or a passage search looks for. */
export function criterionTerms(instructions: string): { actions: string[]; things: string[] } {
  const doc = readText(instructions);
  const actions = new Set<string>();
  const things = new Set<string>();
  for (const t of doc.tokens) {
    if (
      t.stop ||
      BOILERPLATE.has(t.lemma) ||
      BOILERPLATE.has(t.normal) ||
      t.lemma.length < 3 ||
      !/^\p{L}/u.test(t.lemma)
    )
      continue;
    if (t.pos === "VERB" || t.pos === "ADJ") for (const s of SYNONYMS[t.lemma] ?? [t.lemma]) actions.add(s);
    else if (t.pos === "NOUN" || t.pos === "PROPN") things.add(t.lemma);
  }
  return { actions: [...actions], things: [...things] };
}

/** Decide the kind of question from the wording of the instructions. */
export function classify(instructions: string, valueType: ValueType): InstructionKind {
  const s = instructions.toLowerCase();
  if (/\blanguage\b|\bwritten in\b/.test(s)) return "language";
  if (
    /\b(price|prices|priced|cost|costs|paid|pay|pays|how much|usd|dollars?|euros?|expensive|cheap|overpriced)\b|[$€£]/.test(
      s,
    )
  )
    return "price";
  if (/\b(number|count|how many) of (likes|views|comments|shares)\b|\bhow many (likes|views|comments|shares)\b/.test(s))
    return "engagement";
  if (/\bquestions?\b|\basks?\b|\basking\b/.test(s)) return "questions";
  if (/\b(emotions?|feelings?|mood)\b/.test(s)) return "emotion";
  if (
    /\b(sentiment|positive|negative|satisf\w*|dissatisf\w*|happy|unhappy|complain\w*|opinion|favou?rable|unfavou?rable)\b/.test(
      s,
    )
  )
    return "sentiment";
  if (
    /\b(brands?|compan(y|ies)|competitors?|competing|compares?|manufacturers?|rivals?)\b/.test(s) ||
    brandsIn(instructions).length
  ) {
    // A yes/no question about an action ("bought or plans to buy the brand") is a criterion, not a brand lookup.
    if (valueType === "boolean" && criterionTerms(instructions).actions.some((a) => !/^compar/.test(a)))
      return "criteria";
    return "brands";
  }
  if (/\b(products?|items?)\b/.test(s)) return "product";
  return valueType === "boolean" ? "criteria" : valueType === "number" ? "number" : "passage";
}
