// Whether the posts a cycle collected belong to a pattern already detected on
// one of the agent's datasets: the pattern whose items hold the most of them
// wins, and the alert carries a `pattern` reference to it.
import { mentionKey, type MentionRecord } from "../mentions/record.ts";
import type { Table } from "../../platform/store.ts";
import type { PatternRow } from "../patterns/rows.ts";

/** What matching needs from the composition root (compose.ts): the detected patterns. */
export interface PatternMatchNeeds {
  readonly tables: { readonly patterns: Table<PatternRow> };
}

/** Patterns detected on a dataset, newest first, with the post keys of their items. */
export function patternsOfDataset(
  services: PatternMatchNeeds,
  accountId: string,
  datasetId: string,
): { id: string; name: string; postKeys: Set<string> }[] {
  return services.tables.patterns
    .live(accountId, (p) => p.dataset_id === datasetId)
    .reverse()
    .map((p) => ({
      id: p.id,
      name: p.name,
      postKeys: new Set(p.items.flatMap((i) => i.post_refs.map((r) => mentionKey(r.source, r.id)))),
    }));
}

export function findMatchingPattern(
  services: PatternMatchNeeds,
  accountId: string,
  datasetIds: string[],
  posts: readonly MentionRecord[],
): { id: string; name: string; matched: number } | null {
  if (posts.length === 0) return null;
  let best: { id: string; name: string; matched: number } | null = null;
  for (const datasetId of datasetIds) {
    for (const p of patternsOfDataset(services, accountId, datasetId)) {
      const matched = posts.filter((r) => p.postKeys.has(r.key)).length;
      if (matched > 0 && (!best || matched > best.matched)) best = { id: p.id, name: p.name, matched };
    }
  }
  return best;
}
