// The tools an assistant engine may call, bound to one caller and one turn's
// scope. Reads go through the account's mention pool; new work goes through
// the same domain services as REST (previews, pattern detections, dataset
// runs), charged at their own prices, so a 402 there is reported in the
// reply rather than failing the turn.
import type { CommonSource } from "../../../../generated/client/types.gen.ts";
import type { Caller } from "../../platform/env.ts";
import { ApiError } from "../../platform/errors.ts";
import type { MentionPools } from "../mentions/pool.ts";
import type { MentionRecord } from "../mentions/record.ts";
import type { DatasetRunService } from "../datasets/runs.ts";
import type { DatasetService } from "../datasets/service.ts";
import type { PatternService } from "../patterns/service.ts";
import type { PreviewService } from "../previews/service.ts";
import { patternsOfDataset, type PatternMatchNeeds } from "../tracking-agents/pattern-match.ts";
import type { AssistantTools, Started } from "./engine.ts";

function refused(error: unknown): Started {
  if (error instanceof ApiError) {
    const d = error.detail as { message?: string } | string;
    return { ok: false, reason: typeof d === "string" ? d : (d.message ?? error.errorCode) };
  }
  throw error;
}

/** What the assistant's tools need from the composition root (compose.ts). */
export type ToolNeeds = PatternMatchNeeds &
  MentionPools & {
    readonly previews: Pick<PreviewService, "create">;
    readonly patterns: Pick<PatternService, "create">;
    readonly datasets: Pick<DatasetService, "find">;
    readonly datasetRuns: Pick<DatasetRunService, "repeatableQuery" | "create">;
  };

export function toolsFor(services: ToolNeeds, caller: Caller, datasetIds: string[]): AssistantTools {
  const accountId = caller.account.id;
  const scope = new Set(datasetIds);
  const pool = services.mentions(accountId);
  const inScope = (r: MentionRecord) => {
    for (const id of r.datasets.keys()) if (scope.has(id)) return true;
    return false;
  };
  return {
    search(words) {
      if (scope.size === 0) return [];
      if (words.length === 0) return [...pool.all()].filter(inScope);
      const out: MentionRecord[] = [];
      for (const r of pool.textSearch(words.join(" "), "semantic")) if (inScope(r)) out.push(r);
      return out;
    },
    patternsOf(datasetId) {
      return patternsOfDataset(services, accountId, datasetId).map((p) => ({ id: p.id, name: p.name }));
    },
    startPreview(query, sources: CommonSource[]) {
      try {
        const preview = services.previews.create(caller, {
          type: "prompt",
          search_query: query.slice(0, 5000),
          sources,
          time_filter: "past_month",
        });
        return {
          ok: true,
          entity: { type: "research_preview", id: preview.preview_id },
          note: `Research preview of "${query}" on ${sources.join(", ")} over the past month: about ${"estimated_number_of_results" in preview ? preview.estimated_number_of_results : "?"} results.`,
        };
      } catch (error) {
        return refused(error);
      }
    },
    startPatternDetection(datasetId, question) {
      try {
        const run = services.patterns.create(caller, {
          dataset_id: datasetId,
          name: `Assistant: ${question.slice(0, 60)}`,
          research_question: question.slice(0, 1000),
        });
        return {
          ok: true,
          entity: { type: "pattern_detection_run", id: run.run_id },
          note: `Pattern detection ${run.run_id} started on ${datasetId}; poll it under /v1/pattern_detections.`,
        };
      } catch (error) {
        return refused(error);
      }
    },
    startDatasetRun(datasetId) {
      try {
        const dataset = services.datasets.find(accountId, datasetId);
        const latest = services.datasetRuns.repeatableQuery(accountId, dataset);
        if (!latest) return { ok: false, reason: "the dataset has no query to repeat yet." };
        const run = services.datasetRuns.create(caller, datasetId, latest);
        return {
          ok: true,
          entity: { type: "dataset", id: datasetId },
          note: `Dataset run ${run.id} started on ${datasetId}, repeating its latest query (up to ${run.count} mentions).`,
        };
      } catch (error) {
        return refused(error);
      }
    },
  };
}
