// The patterns group's MCP tool (spec/mcp/tools-patterns.tsp).
import type { ToolHandlers } from "./tool-context.ts";

export const PATTERN_TOOLS: ToolHandlers<"svc__get_pattern_detection_run"> = {
  svc__get_pattern_detection_run: ({ services, caller }, a) => {
    const run = services.patterns.read(caller, a.run_id);
    // D-MCP-PDR-RESULT: three fields of the REST run; pattern_id only once completed.
    return run.pattern_id !== undefined
      ? { run_id: run.run_id, status: run.status, pattern_id: run.pattern_id }
      : { run_id: run.run_id, status: run.status };
  },
};
