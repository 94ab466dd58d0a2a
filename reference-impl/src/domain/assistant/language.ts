// Reading questions with wink-nlp (the same library and English model the
// analysis simulator uses): the content words to search for, and the token
// count the assistant's inference charge is based on (D-ASK-CHARGE).
import type { ItemToken } from "wink-nlp";
import { english } from "../../simulators/english.ts";

// Words that ask for something rather than name what to look for.
const ASKING_WORDS = new Set([
  "people",
  "post",
  "posts",
  "mention",
  "mentions",
  "say",
  "saying",
  "said",
  "think",
  "thinking",
  "talk",
  "talking",
  "tell",
  "show",
  "find",
  "summarise",
  "summarize",
  "summary",
  "give",
  "list",
  "dataset",
  "datasets",
  "run",
  "new",
  "data",
  "preview",
  "pattern",
  "patterns",
  "detect",
  "detection",
  "collect",
  "refresh",
  "start",
  "please",
  "week",
  "month",
  "today",
  "most",
  "top",
  "main",
  "complain",
  "complaint",
  "complaints",
  "sentiment",
  "topic",
  "topics",
  "brand",
  "brands",
  "engagement",
  "conversation",
  "anything",
  "something",
  "lot",
  "lots",
  "thing",
  "things",
  "way",
  "about",
]);

/** Lower-cased content words of a question: no stop words, punctuation or asking words; first appearance order. */
export function contentWords(text: string): string[] {
  const w = english();
  const its = w.its;
  const out: string[] = [];
  w.readDoc(text)
    .tokens()
    .each((t: ItemToken) => {
      if (t.out(its.type) !== "word" || (t.out(its.stopWordFlag) as boolean)) return;
      const word = (t.out(its.normal) as string).replace(/[^\p{L}\p{N}'-]/gu, "");
      if (word.length < 3 || ASKING_WORDS.has(word) || out.includes(word)) return;
      out.push(word);
    });
  return out;
}

/** Tokens of a text as wink-nlp's tokenizer counts them (words, punctuation, symbols). */
export function countTokens(text: string): number {
  if (!text) return 0;
  return english().readDoc(text).tokens().length();
}
