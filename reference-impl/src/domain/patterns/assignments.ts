// Pattern assignments of stored mentions (D-PATTERN-ASSIGNMENTS-KEY): for each
// mention, pattern id -> the items the post belongs to, with a confidence.
// Kept beside the mention record rather than in it, keyed by the record
// object, so the mention pool needs no pattern field and an app's
// assignments disappear with its records.
import type { MentionsMention } from "../../../../generated/client/types.gen.ts";
import type { MentionRecord } from "../mentions/record.ts";

export interface Assignment {
  pattern_item_id: string;
  name: string;
  confidence: number;
}

const byRecord = new WeakMap<MentionRecord, Map<string, Assignment[]>>();

/** Replace the post's assignments within one pattern. */
export function assignToPattern(record: MentionRecord, patternId: string, assignments: Assignment[]): void {
  let map = byRecord.get(record);
  if (!map) byRecord.set(record, (map = new Map()));
  map.set(patternId, assignments);
}

/** The `pattern_assignments` field of a mention: `{}` when the post is in no pattern. */
export function patternAssignmentsOf(record: MentionRecord): MentionsMention["pattern_assignments"] {
  const out: MentionsMention["pattern_assignments"] = {};
  const map = byRecord.get(record);
  if (map) for (const [patternId, list] of map) out[patternId] = list.map((a) => ({ ...a }));
  return out;
}
