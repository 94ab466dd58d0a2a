// The rows the patterns group stores (pattern detections and the patterns
// they find) and the contract views they are read as.
import type {
  CommonPostRef,
  PatternsPattern,
  PatternsPatternDetectionRun,
  PatternsPatternDetectionStatus,
} from "../../../../generated/client/types.gen.ts";
import { unixSeconds } from "../../platform/clock.ts";
import type { RunStatus } from "../../platform/runs/lifecycle.ts";
import type { Row } from "../../platform/store.ts";

export type DetectionStatusType = PatternsPatternDetectionStatus["type"];

export interface PatternDetectionRow extends Row {
  dataset_id: string;
  name: string;
  research_question: string;
  status: RunStatus<DetectionStatusType>;
  updated_ms: number;
  /** The dataset run whose posts are clustered (fixed at creation, so the reservation matches). */
  source_run_id: string;
  /** Mention keys of that run's posts, in collection order. */
  post_keys: string[];
  pattern_id: string | null;
}

export interface StoredItem {
  item_id: string;
  title: string;
  synopsis: string;
  post_refs: CommonPostRef[];
}

export interface PatternRow extends Row {
  dataset_id: string;
  run_id: string;
  name: string;
  research_question: string;
  summary: string;
  /** Largest first. */
  items: StoredItem[];
}

export function detectionView(r: PatternDetectionRow): PatternsPatternDetectionRun {
  const view: PatternsPatternDetectionRun = {
    run_id: r.id,
    dataset_id: r.dataset_id,
    name: r.name,
    research_question: r.research_question,
    created_at: unixSeconds(r.created_ms),
    // The lifecycle stamps only this kind's step names (D-PDR-STEPS).
    status: { ...r.status, steps: [...(r.status.steps ?? [])] } as PatternsPatternDetectionStatus,
  };
  // D-PDR-STATES: `pattern_id` only once completed.
  if (r.status.type === "completed" && r.pattern_id) view.pattern_id = r.pattern_id;
  return view;
}

/** An item as a pattern lists it: everything but its posts. */
export function itemSummary(item: StoredItem) {
  return { item_id: item.item_id, title: item.title, synopsis: item.synopsis, post_count: item.post_refs.length };
}

export function patternView(p: PatternRow): PatternsPattern {
  return {
    id: p.id,
    dataset_id: p.dataset_id,
    name: p.name,
    research_question: p.research_question,
    summary: p.summary,
    items: p.items.map(itemSummary),
  };
}
