// The audiences group's MCP tools (spec/mcp/tools-audiences.tsp).
import { zAudienceProfilesSearchBody } from "../../../generated/client/zod.gen.ts";
import { parseWith } from "../platform/validation.ts";
import { pageQuery, toolList, type ToolHandlers } from "./tool-context.ts";

export const AUDIENCE_TOOLS: ToolHandlers<
  | "svc__list_audience_datasets"
  | "svc__get_audience_dataset"
  | "svc__get_audience_dataset_run"
  | "svc__list_audience_profiles"
> = {
  svc__list_audience_datasets: ({ services, caller }, a) => toolList(services.audiences.list(caller, pageQuery(a))),

  svc__get_audience_dataset: ({ services, caller }, a) => services.audiences.read(caller, a.audience_dataset_id),

  svc__get_audience_dataset_run: ({ services, caller }, a) =>
    services.audiences.readRun(caller, a.audience_dataset_id, a.run_id),

  // The search tool takes the REST search body's fields; the REST body schema
  // then applies the per-group bounds the tool schema cannot name
  // (D-MCP-FILTER-GROUPS), so both surfaces refuse exactly the same requests.
  svc__list_audience_profiles: ({ services, caller }, a) =>
    toolList(services.audiences.searchProfiles(caller, parseWith(zAudienceProfilesSearchBody, "body", a))),
};
