// The datasets group's MCP tools (spec/mcp/tools-datasets.tsp).
import { pageQuery, toolList, type ToolHandlers } from "./tool-context.ts";

export const DATASET_TOOLS: ToolHandlers<"svc__list_datasets" | "svc__get_dataset" | "svc__get_dataset_run"> = {
  svc__list_datasets: ({ services, caller }, a) => toolList(services.datasets.list(caller, pageQuery(a))),

  svc__get_dataset: ({ services, caller }, a) => services.datasets.read(caller, a.dataset_id),

  svc__get_dataset_run: ({ services, caller }, a) => services.datasetRuns.read(caller, a.dataset_id, a.run_id),
};
