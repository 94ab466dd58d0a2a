// Reading a text with wink-nlp's English model: its sentences, tokens
// (lemma, part of speech, stop word, normal form) and entities, each read in
// one bulk call and only when asked for; and the noun phrases that say what
// a text is about. The custom parameter extractor answers from it, and media
// enrichment names a post's topics with it.
import { english } from "./english.ts";
import { brandsIn } from "./analysis.ts";

export interface ReadText {
  sentences: string[];
  tokens: { lemma: string; pos: string; stop: boolean; normal: string }[];
  entities: { value: string; type: string }[];
}

export function readText(text: string): ReadText {
  const w = english();
  const its = w.its;
  const doc = w.readDoc(text);
  let tokens: ReadText["tokens"] | undefined;
  // Each part is read in one bulk call, and only when a reader asks for it.
  return {
    get tokens() {
      if (!tokens) {
        const all = doc.tokens();
        // wink's typings give `its.lemma` a signature `out` does not accept; it works at runtime.
        const lemmas = (all.out as (f: unknown) => string[])(its.lemma);
        const pos = all.out(its.pos) as string[];
        const stop = all.out(its.stopWordFlag) as unknown as boolean[];
        const normal = all.out(its.normal) as string[];
        tokens = lemmas.map((l, i) => ({
          lemma: String(l).toLowerCase(),
          pos: pos[i]!,
          stop: stop[i]!,
          normal: String(normal[i]),
        }));
      }
      return tokens;
    },
    get sentences() {
      return doc.sentences().out() as string[];
    },
    get entities() {
      return doc.entities().out(its.detail) as unknown as { value: string; type: string }[];
    },
  };
}

// Nouns too general to name what a post is about.
const GENERIC_NOUNS = new Set([
  "review",
  "take",
  "quality",
  "price",
  "experience",
  "week",
  "month",
  "day",
  "days",
  "routine",
  "thing",
  "things",
  "part",
  "hype",
  "store",
  "stores",
  "country",
  "note",
  "notes",
  "use",
  "surprise",
  "upgrade",
  "formula",
  "purchase",
  "year",
  "refund",
  "channel",
  "bio",
  "link",
  "code",
  "discount",
  "comment",
  "favourite",
  "ingredient",
  "ingredients",
  "packaging",
  "availability",
  "money",
  "disappointment",
  "way",
]);

/** Noun phrases of a text that are not brands, most frequent first (what a post is about). */
export function nounPhrases(text: string): string[] {
  return productsIn(readText(text));
}

/** Noun phrases (runs of nouns) that are not brands or generic nouns, most frequent first. */
export function productsIn(doc: ReadText): string[] {
  const counts = new Map<string, { n: number; first: number }>();
  let run: string[] = [];
  const flush = (at: number) => {
    const words = run.filter((w) => !GENERIC_NOUNS.has(w));
    run = [];
    if (!words.length) return;
    const phrase = words.join(" ");
    if (brandsIn(phrase).length || phrase.length < 3) return;
    const c = counts.get(phrase);
    if (c) c.n++;
    else counts.set(phrase, { n: 1, first: at });
  };
  doc.tokens.forEach((t, i) => {
    if (t.pos === "NOUN" && !t.stop && /^\p{L}/u.test(t.normal)) run.push(t.normal);
    else flush(i);
  });
  flush(doc.tokens.length);
  return [...counts.entries()]
    .sort((a, b) => b[1].n - a[1].n || b[0].split(" ").length - a[0].split(" ").length || a[1].first - b[1].first)
    .map(([k]) => k);
}
