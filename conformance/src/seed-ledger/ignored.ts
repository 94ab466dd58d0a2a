// Sentences of the seed that carry a rule marker (extract.ts) but state no
// rule a ledger row should hold: each with the reason. The ledger's test fails
// on an entry whose quote is not in the seed or covers no marker any more.
import type { IgnoredSentence } from "./types.ts";

export const IGNORED: IgnoredSentence[] = [
  {
    quote: "| q | string | free-text query |",
    reason: "'free' describes the text, not a charge",
  },
  {
    quote: "HTTP status codes of `ai_assistant_unavailable` and `ai_assistant_timeout`: not shown.",
    reason: "says what the seed does not show; the codes themselves are rows of the ask endpoint",
  },
  {
    quote: "The only alert mechanism that is described is the pull feed `GET /v1/tracking_agents/{agent_id}/messages`.",
    reason:
      "about the document (what it describes), not the service; the feed is a row of the tracking agents endpoints",
  },
  {
    quote: "The 402 and 429 bodies (below) carry extra fields.",
    reason: "announces the 402 and 429 bodies, which are rows of their own",
  },
];
