// The tracking-agents group's MCP tools (spec/mcp/tools-tracking-agents.tsp).
import { pageQuery, toolList, type ToolHandlers } from "./tool-context.ts";

export const TRACKING_AGENT_TOOLS: ToolHandlers<"svc__list_tracking_agents" | "svc__get_tracking_agent"> = {
  svc__list_tracking_agents: ({ services, caller }, a) => toolList(services.trackingAgents.list(caller, pageQuery(a))),

  svc__get_tracking_agent: ({ services, caller }, a) => services.trackingAgents.read(caller, a.agent_id),
};
