// Each module that reads text builds its own wink-nlp instance on first use
// (about 0.1 s each, a few hundred ms in all). `npm start` builds them before
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
