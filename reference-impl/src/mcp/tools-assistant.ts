// The assistant group's MCP tools: ask, read (long-poll) a turn, render a
// block. The only tools that start work; every other tool only reads.
import { zAskAskBody } from "../../../generated/client/zod.gen.ts";
import { parseWith } from "../platform/validation.ts";
import type { ToolHandlers } from "./tool-context.ts";

export const ASSISTANT_TOOLS: ToolHandlers<"svc__ask" | "svc__get_message" | "svc__render"> = {
  svc__ask: ({ services, caller }, a) => {
    // The same turn as POST /v1/ask: the prompt is the message, the context flattened.
    const context =
      a.dataset_ids !== undefined || a.post_refs !== undefined
        ? { dataset_ids: a.dataset_ids, post_refs: a.post_refs }
        : undefined;
    const body = parseWith(zAskAskBody, "body", { message: a.prompt, chat_id: a.chat_id, context });
    return services.assistant.ask(caller, body);
  },

  svc__get_message: async ({ services, caller, signal, longPollMs }, a) => {
    const view = await services.assistant.waitForMessage(caller, a.chat_id, a.message_id, {
      timeoutMs: longPollMs,
      signal,
    });
    return services.assistant.mcpMessage(a.chat_id, view);
  },

  svc__render: ({ services, caller }, a) => services.assistant.renderBlock(caller, a.message_id, a.block_id),
};
