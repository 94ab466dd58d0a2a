// The mentions group's MCP tool (spec/mcp/tools-mentions.tsp).
import { zMentionsSearchBody } from "../../../generated/client/zod.gen.ts";
import { parseWith } from "../platform/validation.ts";
import { toolList, type ToolHandlers } from "./tool-context.ts";

export const MENTION_TOOLS: ToolHandlers<"svc__list_mentions"> = {
  // The REST search body's fields, checked by the REST body schema as the
  // audience profile search is (D-MCP-FILTER-GROUPS). Sliced as REST is: a
  // cold sort view at scale is built without holding the event loop.
  svc__list_mentions: async ({ services, caller }, a) =>
    toolList(await services.mentionSearch.searchSliced(caller, parseWith(zMentionsSearchBody, "body", a))),
};
