// The seam between the assistant service and whatever writes the replies.
// The service owns chats, billing, citations and polling; an engine only
// reads the question, calls the tools it is given (searches over the
// account's mentions, the other groups' services to start new work) and
// returns markdown with `[label](post:source:id)` links plus the entities it
// used. The default engine is deterministic and needs no network; a real
// model would implement the same interface with the same tools.
import type { CommonSource } from "../../../../generated/client/types.gen.ts";
import type { MentionRecord } from "../mentions/record.ts";

export type EntityType =
  "pattern" | "research_preview" | "dataset" | "audience_dataset" | "custom_parameter_run" | "pattern_detection_run";

export interface EntityUse {
  type: EntityType;
  id: string;
}

export interface TurnInput {
  question: string;
  /** Earlier turns of the chat, oldest first (user and assistant text). */
  history: { role: "user" | "assistant"; text: string }[];
  /** Datasets the turn may read (context.dataset_ids, else every live dataset). */
  datasets: { id: string; name: string | null }[];
  /** Ids in context.dataset_ids that are not datasets of the account. */
  unknownDatasetIds: string[];
  /** Posts the caller attached (context.post_refs) that the account holds. */
  attached: MentionRecord[];
  /** Attached refs the account does not hold. */
  missingRefs: { source: string; id: string }[];
}

/** Outcome of asking another group's service to start work. */
export type Started = { ok: true; entity: EntityUse; note: string } | { ok: false; reason: string };

export interface AssistantTools {
  /** Posts of the turn's datasets matching the words (every post when `words` is empty). */
  search(words: string[]): MentionRecord[];
  /** Patterns already detected on a dataset, newest first. */
  patternsOf(datasetId: string): { id: string; name: string }[];
  startPreview(query: string, sources: CommonSource[]): Started;
  startPatternDetection(datasetId: string, question: string): Started;
  /** Repeat the dataset's latest query as a new dataset run. */
  startDatasetRun(datasetId: string): Started;
}

export interface EngineReply {
  markdown: string;
  /** Entities the reply names, most important first (the service keeps at most 3). */
  entities: EntityUse[];
}

export interface AssistantEngine {
  reply(turn: TurnInput, tools: AssistantTools): EngineReply;
}
