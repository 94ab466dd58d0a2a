// The fifteen tools' handlers, one file per contract group as in
// spec/mcp/tools-<group>.tsp (the assistant's tools are in spec/mcp/models.tsp).
// Typed as one record over every catalogue name, so a tool the contract adds
// without a handler fails to compile.
import type { ToolName } from "./catalogue.ts";
import type { ToolContext, ToolHandlers } from "./tool-context.ts";
import { ACCOUNT_TOOLS } from "./tools-account.ts";
import { ASSISTANT_TOOLS } from "./tools-assistant.ts";
import { AUDIENCE_TOOLS } from "./tools-audiences.ts";
import { DATASET_TOOLS } from "./tools-datasets.ts";
import { MENTION_TOOLS } from "./tools-mentions.ts";
import { PATTERN_TOOLS } from "./tools-patterns.ts";
import { TRACKING_AGENT_TOOLS } from "./tools-tracking-agents.ts";

export const HANDLERS: ToolHandlers<ToolName> = {
  ...ASSISTANT_TOOLS,
  ...DATASET_TOOLS,
  ...AUDIENCE_TOOLS,
  ...MENTION_TOOLS,
  ...PATTERN_TOOLS,
  ...TRACKING_AGENT_TOOLS,
  ...ACCOUNT_TOOLS,
};

/** Runs a tool on arguments its own generated args schema has parsed (catalogue.ts). */
export function runTool(name: ToolName, ctx: ToolContext, args: unknown): object | Promise<object> {
  // Which tool's arguments `args` are is known only at run time; the parse
  // with that tool's schema is what makes them its arguments.
  const handler = HANDLERS[name] as (ctx: ToolContext, args: unknown) => object | Promise<object>;
  return handler(ctx, args);
}
