// What a tools/call returns. Success: the result as structured content plus
// the same JSON as text (clients without structured output read the text).
// Failure: `isError: true` with the JSON of the contract's ToolError
// `{error: {code, message, status}}` as the single text content and no
// structured content, because the SDK client validates structured content
// against the output schema even on errors (D-MCP-TOOL-ERROR). `code` and
// `status` are what the tool's REST twin answers for the same mistake.
import type { McpToolError } from "../../../generated/client/types.gen.ts";
import { errorSpec, type ErrorCode } from "../platform/error-catalogue.ts";
import { ApiError, ValidationFailed, type ErrorLogger } from "../platform/errors.ts";

export interface ToolResult {
  [k: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function toolSuccess(data: object): ToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(data) }],
    structuredContent: data as Record<string, unknown>,
  };
}

export function toolError(code: ErrorCode, message: string): ToolResult {
  const body: McpToolError = { error: { code, message, status: errorSpec(code).status } };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}

/** `loc: msg; loc: msg` of validation issues, the 422 body said in one line. */
export function describeIssues(issues: { loc: (string | number)[]; msg: string }[]): string {
  return issues.map((i) => `${i.loc.join(".") || "arguments"}: ${i.msg}`).join("; ");
}

/**
 * The ToolError of anything a handler throws. ApiErrors keep their code (and
 * so their REST status); a 402's object detail contributes its message; a
 * request-shape failure is `unprocessable_entity` / 422; anything else is a
 * server fault, logged like REST logs it, and `internal_server_error`.
 */
export function toToolError(error: unknown, log: ErrorLogger, tool: string): ToolResult {
  if (error instanceof ApiError) {
    const detail = error.detail as { message?: unknown } | string;
    const message =
      typeof detail === "string" ? detail : typeof detail?.message === "string" ? detail.message : error.errorCode;
    return toolError(error.errorCode, message);
  }
  if (error instanceof ValidationFailed) {
    // REST locates the problem in `body`/`query`/`path`; a tool has only arguments.
    return toolError(
      "unprocessable_entity",
      `Invalid arguments: ${describeIssues(error.issues.map((i) => ({ ...i, loc: i.loc.slice(1) })))}`,
    );
  }
  const err = error as Error | undefined;
  log({
    level: "error",
    msg: "unhandled tool error",
    tool,
    error: err?.name,
    message: err?.message,
    stack: err?.stack,
  });
  return toolError("internal_server_error", "An unexpected error occurred; retry later.");
}
