// The modules that read text share one wink-nlp English instance
// (simulators/english.ts) and pattern clustering builds its own empty
// pipeline; each costs about 0.2 s of CPU to build on first use, and the
// modules warm lexicons of their own. `npm start` builds them all before
// listening, so no request or run step pays for it while other accounts wait.
// Each call below is the cheapest public entry that builds one.
import { analyseWritings } from "./domain/audiences/text-profile.ts";
import { countTokens } from "./domain/assistant/language.ts";
import { compileInstructions } from "./domain/custom-parameters/extractor.ts";
import { preloadClusteringNlp } from "./domain/patterns/clustering.ts";
import { analyse } from "./simulators/analysis.ts";
import { transcriptOf } from "./simulators/media-enrichment.ts";
import type { Post } from "./simulators/provider.ts";

export function preloadNlp(): void {
  preloadClusteringNlp();
  analyseWritings([
    {
      kind: "post",
      text: "Warm up.",
      language: "en",
      created_ms: 0,
      likes: 0,
      replies: 0,
      views: 0,
      shares: 0,
      media: [],
      vertical: false,
    },
  ]);
  countTokens("Warm up.");
  compileInstructions("Does the author agree?", "boolean").extract({ title: "", text: "I agree.", language: "en" });
  analyse("Warm up.", ["topics", "entities", "questions", "sentiment"]);
  // Only the media fields transcriptOf reads are given.
  transcriptOf({ text: "Warm up.", media: [{ type: "video" }] } as unknown as Post);
}
