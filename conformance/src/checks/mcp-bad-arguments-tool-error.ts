import { lenientWarning } from "../lenient.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { bound, words } from "../grounding/facts.ts";
import type { RequestOptions } from "../http.ts";
import { callTool, isToolError, requireMcp } from "../mcp/client.ts";
import { isObject } from "../typed.ts";
import { MISSING_DATASET_ID } from "./support/util.ts";
import { jsonAt } from "./support/groups.ts";

const postRefs = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `slk_post_${i}`, source: "reddit" }));
const elevenFilters = [
  Array.from({ length: 6 }, () => ({ type: "has_media", value: true })),
  Array.from({ length: 5 }, () => ({ type: "has_media", value: false })),
];

type Rule = "mentions-args" | "ask-post-refs" | "tool-args" | "paging";

interface Case {
  label: string;
  tool: string;
  args: Record<string, unknown>;
  /** the assertion that the arguments must be refused at all */
  rule: Rule;
  /** the ToolError the contract decides */
  code: string;
  status: number;
  /** the equivalent REST request, whose status the ToolError's status mirrors */
  rest?: Pick<RequestOptions, "method" | "path" | "body">;
}

const CASES: Case[] = [
  {
    label: "dataset_id of the wrong type",
    tool: "svc__get_dataset",
    args: { dataset_id: 12345 },
    rule: "tool-args",
    code: "unprocessable_entity",
    status: 422,
  },
  {
    label: "missing required run_id",
    tool: "svc__get_dataset_run",
    args: { dataset_id: MISSING_DATASET_ID },
    rule: "tool-args",
    code: "unprocessable_entity",
    status: 422,
  },
  {
    label: "limit 0",
    tool: "svc__list_datasets",
    args: { limit: 0 },
    rule: "paging",
    code: "unprocessable_entity",
    status: 422,
    rest: { method: "GET", path: "/v1/datasets?limit=0" },
  },
  {
    label: "limit 101",
    tool: "svc__list_mentions",
    args: { limit: 101 },
    rule: "mentions-args",
    code: "unprocessable_entity",
    status: 422,
    rest: { method: "POST", path: "/v1/mentions", body: { limit: 101 } },
  },
  {
    label: "11 filters in total",
    tool: "svc__list_mentions",
    args: { filters: elevenFilters },
    rule: "mentions-args",
    code: "unprocessable_entity",
    status: 422,
    rest: { method: "POST", path: "/v1/mentions", body: { filters: elevenFilters } },
  },
  {
    label: "51 post_refs",
    tool: "svc__ask",
    args: { prompt: "Summarise these posts.", post_refs: postRefs(51) },
    rule: "ask-post-refs",
    code: "unprocessable_entity",
    status: 422,
  },
  {
    label: "a garbage cursor",
    tool: "svc__list_datasets",
    args: { cursor: "!!not-a-cursor!!" },
    rule: "paging",
    code: "invalid_cursor",
    status: 400,
    rest: { method: "GET", path: "/v1/datasets?cursor=!!not-a-cursor!!" },
  },
];

/**
 * Arguments a tool must refuse come back inside the tool result, never as a
 * transport error (only 401 and 429 are) or a 5xx, never as a success; the
 * ToolError's status mirrors what REST answers the same request (the seed).
 * Which arguments the seed bounds: svc__list_mentions takes limit and filters
 * "as REST mentions" (1-100, at most 10 filters), svc__ask at most 50
 * post_refs; argument types and the paging tools' limit and cursor are the
 * contract's (D-MCP-TOOL-ARGS, D-MCP-PAGING), and the ToolError's code is
 * D-MCP-TOOL-ERROR's (the MCP SDK's own argument error is tolerated with a
 * warning).
 */
export default defineCheck({
  id: "mcp-bad-arguments-tool-error",
  phase: "mcp",
  rule: "Invalid tool arguments (svc__list_mentions limit 101 or 11 filters, 51 post_refs on svc__ask; a wrong type, a missing id, limit 0 and a garbage cursor on the paging tools by the contract) are refused inside the tool result, never by a transport error, a 5xx or a success; the ToolError's status is what REST answers the same request, its code unprocessable_entity/422 or invalid_cursor/400 (D-MCP-TOOL-ERROR)",
  section:
    "Endpoints › MCP tool surface (post_refs at most 50; list_mentions as REST mentions; tool errors); Authentication › MCP (6)",
  severity: "major",
  asserts: {
    "mentions-args": seed(
      ["mcp.list-mentions", "mentions.limit", "mentions.filters.at-most-10"],
      words("limit as REST mentions"),
      bound(100),
      bound(10),
    ),
    "ask-post-refs": seed("mcp.ask", words("at most 50")),
    "tool-args": decided("D-MCP-TOOL-ARGS"),
    paging: decided("D-MCP-PAGING"),
    surface: seed(
      "mcp-auth.transport-vs-tool-errors",
      words("Transport errors (401, 429) surface as MCP transport errors"),
      words("tool errors surface inside the tool result"),
    ),
    mirrors: seed("mcp.tool-errors", words("status mirrors the equivalent REST status")),
    "tool-error": decided("D-MCP-TOOL-ERROR"),
  },
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    await requireMcp(ctx);
    for (const c of CASES) {
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
      if (
        !ctx.expect(
          call.ex.status === 200 && (!call.problem || sdkArgError),
          {
            judges: "surface",
            title: `${c.tool} with ${c.label}: ${call.problem ?? `HTTP ${call.ex.status}`}`,
            received: { status: call.ex.status, body: call.ex.text.slice(0, 300) },
            expected: { isError: true, error: { code: c.code, status: c.status } },
          },
          call.ex,
        )
      )
        continue;
      if (sdkArgError) {
        ctx.warn(lenientWarning("D-MCP-TOOL-ERROR", `${c.tool} with ${c.label}`), call.ex);
        continue;
      }
      const error: unknown = isObject(call.payload) ? call.payload.error : undefined;
      if (
        !ctx.expect(
          call.isError || error !== undefined,
          {
            judges: c.rule,
            title: `${c.tool} with ${c.label} succeeded`,
            received: call.result,
            expected: { isError: true, error: { code: c.code, status: c.status } },
          },
          call.ex,
        )
      )
        continue;
      if (c.rest && isToolError(error)) {
        const rest = await ctx.req({ ...c.rest, meta: { negative: `${c.label} (the REST twin of ${c.tool})` } });
        if (rest.status >= 400 && rest.status < 500)
          ctx.expect(
            error.status === rest.status,
            {
              judges: "mirrors",
              title: `${c.tool} with ${c.label} says status ${error.status}, REST answers ${rest.status}`,
              received: error,
              expected: { status: rest.status },
            },
            call.ex,
          );
      }
      ctx.expect(
        call.isError && isToolError(error) && error.code === c.code && error.status === c.status,
        {
          judges: "tool-error",
          title: `${c.tool} with ${c.label} returned ${JSON.stringify(error ?? content)}`,
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
