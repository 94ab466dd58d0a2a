import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";
import { callTool, isToolError, requireMcp } from "../mcp/client.ts";
import { bodyOf, isObject } from "../typed.ts";
import type { CommonErrorCode } from "../../../generated/client/types.gen.ts";
import { MISSING_DATASET_ID } from "./support/util.ts";
import { jsonAt } from "./support/groups.ts";

/** Read tools with a missing id, and the REST twin of each call. */
export const MISSING_CASES: Array<{ tool: string; args: Record<string, string>; rest: string }> = [
  { tool: "svc__get_dataset", args: { dataset_id: MISSING_DATASET_ID }, rest: `/v1/datasets/${MISSING_DATASET_ID}` },
  {
    tool: "svc__get_dataset_run",
    args: { dataset_id: MISSING_DATASET_ID, run_id: "dsr_slkmissing00000000" },
    rest: `/v1/datasets/${MISSING_DATASET_ID}/runs/dsr_slkmissing00000000`,
  },
  {
    tool: "svc__get_audience_dataset",
    args: { audience_dataset_id: "ad_slkmissing00000000" },
    rest: "/v1/audience_datasets/ad_slkmissing00000000",
  },
  {
    tool: "svc__get_audience_dataset_run",
    args: { audience_dataset_id: "ad_slkmissing00000000", run_id: "adr_slkmissing0000000" },
    rest: "/v1/audience_datasets/ad_slkmissing00000000/runs/adr_slkmissing0000000",
  },
  {
    tool: "svc__get_pattern_detection_run",
    args: { run_id: "pdr_slkmissing0000000" },
    rest: "/v1/pattern_detections/pdr_slkmissing0000000",
  },
  {
    tool: "svc__get_tracking_agent",
    args: { agent_id: "ta_slkmissing00000000" },
    rest: "/v1/tracking_agents/ta_slkmissing00000000",
  },
  {
    tool: "svc__get_message",
    args: { chat_id: "ch_slkmissing00000000", message_id: "msg_slkmissing0000000" },
    rest: "/v1/chats/ch_slkmissing00000000/messages/msg_slkmissing0000000",
  },
];

/** The ToolError a call's payload carries (structuredContent, else its text's JSON), isError or not. */
function errorOf(payload: unknown): unknown {
  return isObject(payload) ? payload.error : undefined;
}

/**
 * A read tool given a missing id answers, inside its tool result (not as a
 * transport or JSON-RPC error), `{error: {code, message, status}}` whose
 * status mirrors the REST twin's HTTP status (the seed). That the result says
 * isError, carries the JSON of the ToolError as its only text content and no
 * structuredContent, and that `code` is the REST error_code, is
 * D-MCP-TOOL-ERROR's.
 */
export default defineCheck({
  id: "mcp-tool-error-shape",
  phase: "mcp",
  rule: "A read tool given a missing id answers inside its tool result {error: {code, message, status}} whose status is the REST twin's HTTP status; the result is isError true with that JSON as its only text content and no structuredContent, and code is the REST twin's error_code (D-MCP-TOOL-ERROR)",
  section: "Endpoints › MCP tool surface (tool errors); Authentication › MCP (6)",
  severity: "major",
  asserts: {
    shape: seed(
      ["mcp.tool-errors", "mcp-auth.transport-vs-tool-errors", "mcp.get-dataset"],
      words("{error: {code, message, status}}"),
      field("code"),
      field("message"),
      field("status"),
      words("tool errors surface inside the tool result"),
      words("Dataset or {error}"),
    ),
    mirrors: seed("mcp.tool-errors", words("status mirrors the equivalent REST status")),
    result: decided("D-MCP-TOOL-ERROR"),
  },
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    await requireMcp(ctx);
    for (const c of MISSING_CASES) {
      if (!ctx.contract.match("GET", c.rest)) {
        ctx.notExercised(`${c.tool}: the REST twin is outside the contract scope`);
        continue;
      }
      const rest = await ctx.req({ method: "GET", path: c.rest });
      if (rest.status < 400 || rest.status >= 500) {
        ctx.notExercised(`${c.tool}: the REST twin answered ${rest.status} for the missing id`);
        continue;
      }
      const call = await callTool(ctx, c.tool, c.args);
      // the REST twin's code as sent: the tool must say the same
      const restCode: unknown = bodyOf<{ error_code: CommonErrorCode }>(rest)?.error_code;
      const expected = {
        isError: true,
        content: [
          {
            type: "text",
            text: JSON.stringify({ error: { code: restCode, message: "…", status: rest.status } }),
          },
        ],
      };
      const error = errorOf(call.payload);
      if (
        !ctx.expect(
          !call.problem && isToolError(error),
          {
            judges: "shape",
            title: `${c.tool} with a missing id ${call.problem ?? "returned no {error: {code, message, status}}"}`,
            received: call.result ?? { status: call.ex.status, body: call.ex.text.slice(0, 300) },
            expected,
          },
          call.ex,
        ) ||
        !isToolError(error)
      )
        continue;
      ctx.expect(
        error.status === rest.status,
        {
          judges: "mirrors",
          title: `${c.tool} says status ${error.status}, REST answers ${rest.status}`,
          received: error,
          expected: { status: rest.status },
        },
        call.ex,
      );
      ctx.expect(
        call.isError,
        {
          judges: "result",
          title: `${c.tool}'s error result is not isError`,
          received: call.result,
          expected,
        },
        call.ex,
      );
      const structured = jsonAt(call.result, "structuredContent");
      ctx.expect(
        structured === undefined,
        {
          judges: "result",
          title: `${c.tool}'s error result carries structuredContent`,
          received: structured,
          expected: "no structuredContent on an isError result (D-MCP-TOOL-ERROR)",
        },
        call.ex,
      );
      ctx.expect(
        error.code === restCode,
        {
          judges: "result",
          title: `${c.tool} says ${error.code}/${error.status}, REST says ${String(restCode)}/${rest.status}`,
          received: error,
          expected: { code: restCode, status: rest.status },
        },
        call.ex,
      );
    }
  },
});
