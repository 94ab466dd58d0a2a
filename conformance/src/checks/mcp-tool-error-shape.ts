import { decision, defineCheck } from "../define-check.ts";
import { callTool, isToolError, requireMcp } from "../mcp/client.ts";
import { bodyOf } from "../typed.ts";
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

/**
 * A tool that fails answers a result with isError true whose single text
 * content is {error: {code, message, status}} (no structuredContent), and
 * code/status are what the REST twin answers for the same request.
 */
export default defineCheck({
  id: "mcp-tool-error-shape",
  phase: "mcp",
  rule: "A read tool given a missing id returns isError true with the ToolError {error: {code, message, status}} as its only text content (no structuredContent); code and status equal the REST twin's error_code and HTTP status",
  section: "Endpoints › MCP tool surface (tool errors); Authentication › MCP (6)",
  severity: "major",
  rules: {
    seed: "Tool errors are `{error: {code, message, status}}`, where `status` mirrors the equivalent REST status.",
    decisions: [
      decision("D-MCP-TOOL-ERROR", { title: /structuredContent|isError|text content/ }),
      // the seed has `status` mirror the REST status; that `code` is the REST error_code is the contract's
      decision("D-MCP-TOOL-ERROR", { title: / says \S+\/(\d+), REST says \S+\/\1\b/ }),
    ],
  },
  decisions: ["D-MCP-TOOL-ERROR"],
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    await requireMcp(ctx);
    for (const c of MISSING_CASES) {
      if (!ctx.contract.match("GET", c.rest)) {
        ctx.notExercised(`${c.tool}: the REST twin is outside the contract scope`);
        continue;
      }
      const rest = await ctx.req({ method: "GET", path: c.rest });
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
      if (
        !ctx.expect(
          !call.problem && call.isError && isToolError(call.toolError),
          {
            title: `${c.tool} with a missing id ${call.problem ?? (call.isError ? "returned an error without {error: {code, message, status}}" : "did not return isError")}`,
            received: call.result ?? { status: call.ex.status, body: call.ex.text.slice(0, 300) },
            expected,
          },
          call.ex,
        )
      )
        continue;
      const structured = jsonAt(call.result, "structuredContent");
      ctx.expect(
        structured === undefined,
        {
          title: `${c.tool}'s error result carries structuredContent`,
          received: structured,
          expected: "no structuredContent on an isError result (D-MCP-TOOL-ERROR)",
        },
        call.ex,
      );
      ctx.expect(
        call.toolError!.code === restCode && call.toolError!.status === rest.status,
        {
          title: `${c.tool} says ${call.toolError!.code}/${call.toolError!.status}, REST says ${String(restCode)}/${rest.status}`,
          received: call.toolError,
          expected: { code: restCode, status: rest.status },
        },
        call.ex,
      );
    }
  },
});
