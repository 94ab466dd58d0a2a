import { lenientWarning } from "../lenient.ts";
import { decision, defineCheck } from "../define-check.ts";
import { callTool, isToolError, requireMcp } from "../mcp/client.ts";
import { MISSING_DATASET_ID } from "./support/util.ts";
import { jsonAt } from "./support/groups.ts";

const postRefs = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `slk_post_${i}`, source: "reddit" }));

/**
 * Arguments that break a tool's input schema come back as a tool error (or
 * the SDK's argument error, tolerated), never as an HTTP 5xx or a result that
 * pretends the call worked. The over-long post_refs of svc__ask starts nothing.
 */
export default defineCheck({
  id: "mcp-bad-arguments-tool-error",
  phase: "mcp",
  rule: "Invalid tool arguments (wrong type, missing required, out-of-range limit, 51 post_refs on svc__ask, garbage cursor) answer a tool error (isError, ToolError unprocessable_entity/422 or invalid_cursor/400), never a transport 5xx or a success",
  section:
    "Endpoints › MCP tool surface (post_refs at most 50; tool errors); Limits › Concurrency and caps (Ask: at most 50 post_refs)",
  severity: "major",
  rules: {
    seed: "tool errors surface inside the tool result",
    decisions: [
      decision("D-MCP-TOOL-ERROR", { title: /unprocessable_entity|422/ }),
      decision("D-MCP-PAGING", { title: /cursor|limit/ }),
      decision("D-MCP-FILTER-GROUPS", { title: /filter/ }),
    ],
  },
  decisions: ["D-MCP-TOOL-ERROR", "D-MCP-PAGING", "D-MCP-FILTER-GROUPS"],
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    await requireMcp(ctx);
    const cases: Array<{ label: string; tool: string; args: Record<string, unknown>; code: string; status: number }> = [
      {
        label: "dataset_id of the wrong type",
        tool: "svc__get_dataset",
        args: { dataset_id: 12345 },
        code: "unprocessable_entity",
        status: 422,
      },
      {
        label: "missing required run_id",
        tool: "svc__get_dataset_run",
        args: { dataset_id: MISSING_DATASET_ID },
        code: "unprocessable_entity",
        status: 422,
      },
      { label: "limit 0", tool: "svc__list_datasets", args: { limit: 0 }, code: "unprocessable_entity", status: 422 },
      {
        label: "limit 101",
        tool: "svc__list_mentions",
        args: { limit: 101 },
        code: "unprocessable_entity",
        status: 422,
      },
      {
        label: "11 filters in total",
        tool: "svc__list_mentions",
        args: {
          filters: [
            Array.from({ length: 6 }, () => ({ type: "has_media", value: true })),
            Array.from({ length: 5 }, () => ({ type: "has_media", value: false })),
          ],
        },
        code: "unprocessable_entity",
        status: 422,
      },
      {
        label: "51 post_refs",
        tool: "svc__ask",
        args: { prompt: "Summarise these posts.", post_refs: postRefs(51) },
        code: "unprocessable_entity",
        status: 422,
      },
      {
        label: "a garbage cursor",
        tool: "svc__list_datasets",
        args: { cursor: "!!not-a-cursor!!" },
        code: "invalid_cursor",
        status: 400,
      },
    ];
    for (const c of cases) {
      // a deployment that wrongly accepted it would start an assistant turn
      if (c.tool === "svc__ask" && ctx.settings.profile === "readonly") {
        ctx.notExercised("svc__ask with 51 post_refs: readonly profile starts nothing");
        continue;
      }
      const call = await callTool(ctx, c.tool, c.args);
      const content = jsonAt(call.result, "content");
      const sdkArgError =
        call.answer.error?.code === -32602 ||
        (call.isError && !call.toolError && /-32602|invalid arguments|validation/i.test(JSON.stringify(content ?? "")));
      if (call.ex.status >= 500 || (call.problem && !sdkArgError)) {
        ctx.fail(
          {
            title: `${c.tool} with ${c.label}: ${call.problem ?? `HTTP ${call.ex.status}`}`,
            received: { status: call.ex.status, body: call.ex.text.slice(0, 300) },
            expected: { isError: true, error: { code: c.code, status: c.status } },
          },
          call.ex,
        );
        continue;
      }
      if (sdkArgError && c.code === "unprocessable_entity") {
        ctx.warn(lenientWarning("D-MCP-TOOL-ERROR", `${c.tool} with ${c.label}`), call.ex);
        ctx.pass(call.ex);
        continue;
      }
      ctx.expect(
        call.isError &&
          isToolError(call.toolError) &&
          call.toolError.code === c.code &&
          call.toolError.status === c.status,
        {
          title: `${c.tool} with ${c.label} ${call.isError ? `returned ${JSON.stringify(call.toolError ?? content)}` : "succeeded"}`,
          received: call.result,
          expected: {
            isError: true,
            content: [
              { type: "text", text: JSON.stringify({ error: { code: c.code, message: "…", status: c.status } }) },
            ],
          },
        },
        call.ex,
      );
    }
  },
});
