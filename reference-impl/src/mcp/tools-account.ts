// The account group's MCP tool (spec/mcp/tools-account.tsp).
import type { ToolHandlers } from "./tool-context.ts";

export const ACCOUNT_TOOLS: ToolHandlers<"svc__get_me"> = {
  svc__get_me: ({ services, caller }) => services.account.me(caller),
};
