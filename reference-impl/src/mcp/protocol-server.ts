// One MCP protocol server per HTTP POST (stateless streamable HTTP: the SDK
// refuses to reuse a server or a transport). Built on the SDK's low-level
// Server rather than McpServer so that argument validation and unknown tools
// answer the contract's ToolError inside the result, not the SDK's own
// `MCP error -32602` text (D-MCP-TOOL-ERROR), and so that tools/list returns
// the JSON Schemas converted once (catalogue.ts) instead of per request.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import type { Services } from "../compose.ts";
import type { Caller } from "../platform/env.ts";
import type { ErrorLogger } from "../platform/errors.ts";
import { toolByPublishedName, toolsList } from "./catalogue.ts";
import type { McpSettings } from "./settings.ts";
import { runTool } from "./tool-handlers.ts";
import { describeIssues, toolError, toolSuccess, toToolError, type ToolResult } from "./tool-result.ts";

export const SERVER_INFO = { name: "social-listening-reference", version: "0.1.0" };

const INSTRUCTIONS =
  "Social listening research: read datasets, runs, mentions, audiences, patterns, tracking agents and the account with the read tools; " +
  "start any new work with the ask tool and poll its reply with get_message.";

// Every Server builds its own Ajv instance unless given one (it only uses it
// for elicitation, which these tools never start); building Ajv per POST cost
// more than the rest of a tools/call, so all servers share this one.
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

export interface ToolCallDeps {
  services: Services;
  settings: McpSettings;
  log: ErrorLogger;
}

/** tools/call for one caller: find the tool, validate, run, wrap; never throws. */
export async function callTool(
  deps: ToolCallDeps,
  caller: Caller,
  name: string,
  rawArgs: unknown,
  signal: AbortSignal,
): Promise<ToolResult> {
  const tool = toolByPublishedName(deps.settings.toolPrefix, name);
  if (!tool) return toolError("not_found", `Unknown tool ${name}; tools/list names the available tools.`);
  const parsed = tool.args.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    return toolError(
      "unprocessable_entity",
      `Invalid arguments: ${describeIssues(parsed.error.issues.map((i) => ({ loc: i.path.map(String), msg: i.message })))}`,
    );
  }
  try {
    const data = await runTool(
      tool.name,
      { services: deps.services, caller, signal, longPollMs: deps.settings.longPollMs },
      parsed.data,
    );
    return toolSuccess(data);
  } catch (error) {
    return toToolError(error, deps.log, tool.name);
  }
}

export function createProtocolServer(deps: ToolCallDeps, caller: Caller): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: SHARED_VALIDATOR,
  });
  const list = toolsList(deps.settings.toolPrefix);
  server.setRequestHandler(ListToolsRequestSchema, () => list);
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(deps, caller, request.params.name, request.params.arguments, extra.signal),
  );
  return server;
}
