import { lenientWarning } from "../lenient.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";
import { sleep } from "../http.ts";
import { callTool, isToolError, requireMcp } from "../mcp/client.ts";
import { dataOf, type Untrusted } from "../typed.ts";
import type {
  AssistantChatMessageStatus,
  McpAskResult,
  McpGetMessageResult,
  McpRenderResult,
} from "../../../generated/client/types.gen.ts";
import { fixtureDataset } from "./support/util.ts";
import { payloadOf } from "./support/mcp.ts";

/** The largest assistant-turn charge the kit commits to (tokens settle after the reply). */
export const ASK_BUDGET_USD = 0.5;

/**
 * svc__ask answers at once with {chat_id, message_id, status: working};
 * svc__get_message is polled to completed/failed with stop_reason null only
 * while working and blocks only once settled; every render: true block renders,
 * a render: false block carries its text; the turn is visible over REST too.
 */
export default defineCheck({
  id: "mcp-ask-flow",
  phase: "mcp",
  rule: "svc__ask returns {chat_id, message_id, status: working}; svc__get_message reaches completed or failed with stop_reason null exactly while working and blocks empty while working; render: false blocks carry text, render: true blocks render through svc__render; the chat is readable over REST",
  section: "Endpoints › MCP tool surface (ask, get_message, render); States › Assistant turn (ask message)",
  severity: "critical",
  asserts: {
    ask: seed("mcp.ask", words("{chat_id, message_id, status: working} immediately")),
    poll: seed(
      "mcp.get-message",
      words("status (working, completed or failed)"),
      field("stop_reason"),
      field("blocks"),
    ),
    "stop-reason": seed("assistant-turn.mcp-stop-reason", words("null while working and non-null once finished")),
    blocks: seed("assistant-turn.mcp-blocks-once-settled", words("blocks arrive only once the turn settles")),
    "block-text": seed("mcp.blocks", words("A render: false block already carries its markdown text")),
    render: seed("mcp.blocks", words("a render: true block needs render")),
    // non-null once finished is the seed's; that it is a string is the contract's
    "stop-string": decided("D-MCP-STOP-REASON"),
    // the seed never says an MCP turn is a REST chat message
    "rest-chat": decided("D-MCP-ASK-CHAT"),
    // warned through the lenient registry, never failed
    "block-coupling": decided("D-MCP-BLOCK"),
    "render-format": decided("D-MCP-RENDER"),
    "ask-auth": decided("D-MCP-ASK-AUTH"),
  },
  async run(ctx) {
    await requireMcp(ctx);
    ctx.charge(ASK_BUDGET_USD, "svc__ask: one assistant turn (token charge)");
    const ds = await fixtureDataset(ctx);
    const ask = await callTool(ctx, "svc__ask", {
      prompt: "How many posts does this dataset hold? Answer in one sentence.",
      dataset_ids: [ds.id],
    });
    const a = payloadOf<McpAskResult>(ask);
    // D-MCP-ASK-AUTH (lenient): a server that refuses x-api-key for svc__ask gets a warning, not a failure; the flow cannot go on
    if (ask.toolError && ask.toolError.status === 401) {
      ctx.warn(lenientWarning("D-MCP-ASK-AUTH"), ask.ex);
      return ctx.notExercised("svc__ask refused x-api-key (D-MCP-ASK-AUTH): the turn was not started");
    }
    if (
      !ctx.expect(
        !ask.problem &&
          !ask.isError &&
          typeof a?.chat_id === "string" &&
          typeof a.message_id === "string" &&
          a.status === "working",
        {
          judges: "ask",
          title: `svc__ask ${ask.problem ?? (ask.isError ? `returned ${JSON.stringify(ask.toolError)}` : "did not answer {chat_id, message_id, status: working}")}`,
          received: ask.payload ?? { status: ask.ex.status },
          expected: { chat_id: "ch_…", message_id: "msg_…", status: "working" },
        },
        ask.ex,
      ) ||
      typeof a?.chat_id !== "string" ||
      typeof a.message_id !== "string"
    )
      return;
    const turn = { chat_id: a.chat_id, message_id: a.message_id };
    const deadline = Date.now() + ctx.settings.runTimeoutMs;
    let sawWorking = false;
    let last: Untrusted<McpGetMessageResult> | undefined;
    for (;;) {
      const poll = await callTool(ctx, "svc__get_message", turn);
      last = payloadOf<McpGetMessageResult>(poll);
      if (
        !ctx.expect(
          !poll.problem &&
            !poll.isError &&
            ["working", "completed", "failed"].some((s) => s === last?.status) &&
            Array.isArray(last?.blocks),
          {
            judges: "poll",
            title: `svc__get_message ${poll.problem ?? JSON.stringify(poll.toolError ?? poll.payload)}`,
            received: poll.payload ?? { status: poll.ex.status },
            expected: { status: "working | completed | failed", stop_reason: "null | string", blocks: [] },
          },
          poll.ex,
        ) ||
        !last ||
        !Array.isArray(last.blocks)
      )
        return;
      if (last.status === "working") {
        sawWorking = true;
        ctx.expect(
          last.stop_reason === null,
          {
            judges: "stop-reason",
            title: `a working turn has stop_reason ${JSON.stringify(last.stop_reason)}`,
            received: { stop_reason: last.stop_reason },
            expected: { stop_reason: null },
          },
          poll.ex,
        );
        ctx.expect(
          last.blocks.length === 0,
          {
            judges: "blocks",
            title: `a working turn has ${last.blocks.length} block(s)`,
            received: { blocks: last.blocks.length },
            expected: { blocks: 0 },
          },
          poll.ex,
        );
        if (Date.now() > deadline) ctx.skip(`the turn did not settle within ${ctx.settings.runTimeoutMs / 1000}s`);
        await sleep(300);
        continue;
      }
      if (
        ctx.expect(
          last.stop_reason !== null && last.stop_reason !== undefined,
          {
            judges: "stop-reason",
            title: `a ${last.status} turn has stop_reason ${JSON.stringify(last.stop_reason)}`,
            received: last.stop_reason,
            expected: "non-null once finished",
          },
          poll.ex,
        )
      )
        ctx.expect(
          typeof last.stop_reason === "string",
          {
            judges: "stop-string",
            title: `a ${last.status} turn has stop_reason ${JSON.stringify(last.stop_reason)}, not a string`,
            received: last.stop_reason,
            expected: "a string",
          },
          poll.ex,
        );
      break;
    }
    if (!sawWorking)
      ctx.notExercised("the turn had settled by the first svc__get_message: its working state was not seen");
    if (last.status !== "completed") return ctx.notExercised(`the turn ended ${last.status}: no blocks to render`);
    ctx.expect(last.blocks.length > 0, {
      judges: "blocks",
      title: "a completed turn has no blocks",
      received: last.blocks,
      expected: "at least one block",
    });
    for (const b of last.blocks) {
      if (b.render === false) {
        ctx.expect(typeof b.text === "string", {
          judges: "block-text",
          title: `render: false block ${b.block_id} has no text`,
          received: b,
          expected: { render: false, text: "<markdown>" },
        });
        const r = await callTool(ctx, "svc__render", { message_id: turn.message_id, block_id: b.block_id });
        if (!(r.isError && isToolError(r.toolError) && r.toolError.status === 404))
          ctx.warn(
            lenientWarning(
              "D-MCP-RENDER",
              `svc__render of render: false block ${b.block_id} did not return ToolError not_found/404`,
            ),
            r.ex,
          );
      } else {
        if (b.type !== "openui" || b.text !== undefined)
          ctx.warn(
            lenientWarning(
              "D-MCP-BLOCK",
              `render: true block ${b.block_id} is ${b.type}${b.text !== undefined ? " with text" : ""}`,
            ),
          );
        const r = await callTool(ctx, "svc__render", { message_id: turn.message_id, block_id: b.block_id });
        ctx.expect(
          !r.problem && !r.isError && r.payload !== undefined,
          {
            judges: "render",
            title: `svc__render of block ${b.block_id} ${r.problem ?? JSON.stringify(r.toolError)}`,
            received: r.result ?? { status: r.ex.status },
            expected: { block_id: b.block_id, content: "<widget payload>" },
          },
          r.ex,
        );
        const rendered = payloadOf<McpRenderResult>(r);
        if (r.payload && (typeof rendered?.content !== "string" || rendered.block_id !== b.block_id))
          ctx.warn(
            lenientWarning("D-MCP-RENDER", `svc__render of block ${b.block_id} is not {block_id, content: string}`),
            r.ex,
          );
      }
    }
    if (ctx.contract.op("GET /v1/chats/{chat_id}/messages/{message_id}")) {
      const rest = await ctx.req({
        method: "GET",
        path: `/v1/chats/${encodeURIComponent(turn.chat_id)}/messages/${encodeURIComponent(turn.message_id)}`,
      });
      const message = dataOf<AssistantChatMessageStatus>(rest);
      ctx.expect(
        rest.status === 200 && message?.status === last.status,
        {
          judges: "rest-chat",
          title: `the MCP turn reads over REST as ${rest.status} ${message?.status ?? ""}`,
          received: { status: rest.status, data: message },
          expected: { status: 200, data: { status: last.status } },
        },
        rest,
      );
    }
  },
});
