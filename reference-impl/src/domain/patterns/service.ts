// Pattern detections and patterns. A detection clusters the posts of the
// dataset's most recent completed run (clustering.ts), writes item titles,
// synopses and a summary from what it found (labels.ts), then records each
// post's item on its mention (assignments.ts). It is a run on the shared
// lifecycle: `post_processing` reserved for every post of that run at
// creation (402 before anything exists), settled to the posts clustered,
// released in full when a step fails.
import type {
  PatternsPattern,
  PatternsPatternDetectionRun,
  PatternsPatternItemDetail,
} from "../../../../generated/client/types.gen.ts";
import type { Caller } from "../../platform/env.ts";
import { BadRequestError, NotFoundError } from "../../platform/errors.ts";
import { newId } from "../../platform/ids.ts";
import type { RunKind, RunLifecycle } from "../../platform/runs/lifecycle.ts";
import { SEED_RUN_STATES } from "../../platform/runs/lifecycle.ts";
import type { Table } from "../../platform/store.ts";
import type { Clock } from "../../platform/clock.ts";
import type { MentionPools } from "../mentions/pool.ts";
import type { MentionRecord } from "../mentions/record.ts";
import type { DatasetService } from "../datasets/service.ts";
import { assignToPattern } from "./assignments.ts";
import { clusterPostsSliced, POSTS_PER_PIECE, type Clustering } from "./clustering.ts";
import {
  detectionView,
  itemSummary,
  patternView,
  type DetectionStatusType,
  type PatternDetectionRow,
  type PatternRow,
  type StoredItem,
} from "./rows.ts";
import { itemLabel, patternSummary, type ItemLabel, type LabelInput } from "./labels.ts";

/** D-PDR-STATES, D-PDR-STEPS: the shared run states, steps listed, `post_processing`, its own 402. */
export const PATTERN_DETECTION: RunKind<DetectionStatusType> = {
  label: "pattern detection",
  states: SEED_RUN_STATES,
  recordsSteps: true,
  category: "post_processing",
  insufficientCode: "insufficient_credits_pattern_detection",
};

export interface CreateDetectionBody {
  dataset_id: string;
  name: string;
  research_question: string;
}

export interface SeedOptions {
  /** Run every step now, synchronously (fixtures seeded before the server listens). */
  inline?: boolean;
  /** Fixed ids, so the demo's seeded pattern has an address the guides can name. */
  ids?: { run: string; pattern: string };
}

/** What the pattern service needs from the composition root (compose.ts). */
export interface PatternNeeds extends MentionPools {
  readonly clock: Clock;
  readonly lifecycle: RunLifecycle;
  readonly datasets: Pick<DatasetService, "find" | "lookup" | "latestCompletedRun">;
  readonly tables: { readonly patternDetections: Table<PatternDetectionRow>; readonly patterns: Table<PatternRow> };
}

export class PatternService {
  constructor(private readonly services: PatternNeeds) {}

  private get runs() {
    return this.services.tables.patternDetections;
  }

  private get patterns() {
    return this.services.tables.patterns;
  }

  /**
   * Checks in order (D-PDR-CHECK-ORDER): unknown dataset 404
   * `dataset_not_found`; no completed run, or a completed run with no posts,
   * 400 `nothing_to_analyze` (D-PDR-EMPTY); balance 402
   * `insufficient_credits_pattern_detection`. Nothing is stored before the
   * reservation succeeds.
   */
  create(caller: Caller, body: CreateDetectionBody, options: SeedOptions = {}): PatternsPatternDetectionRun {
    const { services } = this;
    const accountId = caller.account.id;
    const dataset = services.datasets.find(accountId, body.dataset_id);
    const runId = services.datasets.latestCompletedRun(dataset);
    const records = runId ? services.mentions(accountId).byRun(runId) : [];
    if (!runId || records.length === 0) {
      throw new BadRequestError(
        "nothing_to_analyze",
        runId
          ? `The most recent completed run of dataset ${dataset.id} collected no posts.`
          : `Dataset ${dataset.id} has no completed run to analyse.`,
      );
    }
    const reservation = services.lifecycle.reserve(PATTERN_DETECTION, accountId, records.length);
    const now = services.clock.now();
    const row: PatternDetectionRow = {
      id: options.ids?.run ?? newId("pdr_"),
      account_id: accountId,
      created_ms: now,
      updated_ms: now,
      deleted_ms: null,
      dataset_id: dataset.id,
      name: body.name,
      research_question: body.research_question,
      status: services.lifecycle.initialStatus(PATTERN_DETECTION),
      source_run_id: runId,
      post_keys: records.map((r) => r.key),
      pattern_id: null,
    };
    this.runs.insert(row);
    this.execute(row, reservation, options.inline ?? false, options.ids?.pattern ?? newId("pt_"));
    return detectionView(row);
  }

  read(caller: Caller, runId: string): PatternsPatternDetectionRun {
    const row = this.runs.get(caller.account.id, runId);
    if (!row) throw new NotFoundError("pattern_detection_run_not_found", `Pattern detection run ${runId} not found.`);
    return detectionView(row);
  }

  private findPattern(accountId: string, patternId: string): PatternRow {
    const row = this.patterns.get(accountId, patternId);
    if (!row) throw new NotFoundError("pattern_not_found", `Pattern ${patternId} not found.`);
    return row;
  }

  readPattern(caller: Caller, patternId: string): PatternsPattern {
    return patternView(this.findPattern(caller.account.id, patternId));
  }

  /** D-PATTERN-ITEM-404: an unknown item of a visible pattern is 404 `pattern_not_found` too. */
  readItem(caller: Caller, patternId: string, itemId: string): PatternsPatternItemDetail {
    const pattern = this.findPattern(caller.account.id, patternId);
    const item = pattern.items.find((i) => i.item_id === itemId);
    if (!item) throw new NotFoundError("pattern_not_found", `Pattern ${patternId} has no item ${itemId}.`);
    return { ...itemSummary(item), post_refs: item.post_refs.map((r) => ({ ...r })) };
  }

  private execute(
    row: PatternDetectionRow,
    reservation: ReturnType<RunLifecycle["reserve"]>,
    inline: boolean,
    patternId: string,
  ): void {
    const { services } = this;
    let records: MentionRecord[] = [];
    let clustering: Clustering | undefined;
    let inputs: LabelInput[] = [];
    let labels: ItemLabel[] = [];
    let summary = "";

    services.lifecycle.start({
      kind: PATTERN_DETECTION,
      row,
      reservation,
      inline,
      steps: [
        {
          name: "clustering",
          // Sliced (platform/pipeline.ts): 10,000 posts would otherwise hold the event loop for most of a second.
          run: function* () {
            // D-PDR-DATASET-DELETED: a dataset deleted before the work starts fails the run (full refund).
            if (!services.datasets.lookup(row.account_id, row.dataset_id)) {
              throw new Error(`Dataset ${row.dataset_id} was deleted before its posts could be clustered.`);
            }
            const pool = services.mentions(row.account_id);
            records = row.post_keys.map((k) => pool.get(k)).filter((r): r is MentionRecord => !!r);
            clustering = yield* clusterPostsSliced(
              records.map((r) => ({ text: `${r.post.title} ${r.post.text}` })),
              row.research_question,
            );
          },
        },
        {
          name: "labeling",
          run: function* () {
            const c = clustering!;
            inputs = [];
            for (let i = 0; i < records.length; i++) {
              const r = records[i]!;
              inputs.push({
                text: r.post.text,
                sentiment: r.analysis.sentiment?.label ?? null,
                terms: new Set(c.postTerms[i]),
              });
              if ((i + 1) % POSTS_PER_PIECE === 0) yield;
            }
            labels = [];
            for (const cluster of c.clusters) {
              labels.push(itemLabel(cluster, inputs, records.length));
              yield;
            }
            summary = patternSummary(
              row.research_question,
              c,
              labels.map((l) => l.title),
              inputs,
            );
          },
        },
        {
          name: "assignment",
          run: () => {
            const c = clustering!;
            const items: StoredItem[] = c.clusters.map((cluster, i) => {
              const itemId = `pti_${String(i + 1).padStart(2, "0")}`;
              const title = labels[i]!.title;
              for (const m of cluster.members) {
                assignToPattern(records[m.index]!, patternId, [
                  { pattern_item_id: itemId, name: title, confidence: m.confidence },
                ]);
              }
              return {
                item_id: itemId,
                title,
                synopsis: labels[i]!.synopsis,
                post_refs: cluster.members.map((m) => ({
                  id: records[m.index]!.post.id,
                  source: records[m.index]!.post.source,
                })),
              };
            });
            this.patterns.insert({
              id: patternId,
              account_id: row.account_id,
              created_ms: services.clock.now(),
              deleted_ms: null,
              dataset_id: row.dataset_id,
              run_id: row.id,
              name: row.name,
              research_question: row.research_question,
              summary,
              items,
            });
            row.pattern_id = patternId;
          },
        },
      ],
      // Every post of the run that is still in the pool was clustered.
      delivered: () => records.length,
    });
  }
}
