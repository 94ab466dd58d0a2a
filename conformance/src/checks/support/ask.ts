// One assistant turn shared by the ask and chat checks: POST /v1/ask over a
// dataset with posts, polled to its end through the chat message read.
import type { AssistantAskAccepted, AssistantChatMessageStatus } from "../../../../generated/client/types.gen.ts";
import type { CheckContext } from "../../types.ts";
import type { Exchange } from "../../http.ts";
import { dataOf, type Untrusted } from "../../typed.ts";
import { setupNotAccepted } from "./util.ts";
import { pollUntil } from "./groups.ts";
import { audienceSource } from "./audiences.ts";
import { cpSource } from "./custom-parameters.ts";
import { ASK_BUDGET_USD } from "../mcp-ask-flow.ts";

export const messagePath = (chat: string, msg: string) =>
  `/v1/chats/${encodeURIComponent(chat)}/messages/${encodeURIComponent(msg)}`;

export interface Turn {
  create: Exchange;
  chatId?: string;
  messageId?: string;
  datasetId: string;
  final?: Untrusted<AssistantChatMessageStatus>;
  finalEx?: Exchange;
  polls: number;
}

export function askTurn(ctx: CheckContext): Promise<Turn> {
  return ctx.shared("ask-turn", async () => {
    // a dataset with posts the answer can cite (the custom parameter source outlives the audience one)
    const src = ctx.contract.op("POST /v1/custom_parameters") ? await cpSource(ctx) : await audienceSource(ctx);
    ctx.charge(ASK_BUDGET_USD, "one assistant turn (token charge)");
    const create = await ctx.req({
      method: "POST",
      path: "/v1/ask",
      body: {
        message: "Which posts in this dataset talk about latte art? Cite the posts you use.",
        context: { dataset_ids: [src.id] },
      },
    });
    const d = dataOf<AssistantAskAccepted>(create);
    const chatId = d?.chat_id;
    const messageId = d?.message_id;
    // accepted with any 2xx: the status itself is ask-202-polls-to-completion's to judge
    if (create.status < 200 || create.status >= 300 || typeof chatId !== "string" || typeof messageId !== "string")
      return { create, datasetId: src.id, polls: 0 };
    const obs = await pollUntil<AssistantChatMessageStatus>(
      ctx,
      messagePath(chatId, messageId),
      (m) => m?.status === "completed" || m?.status === "failed",
    );
    return {
      create,
      chatId,
      messageId,
      datasetId: src.id,
      final: obs.at(-1)!.d,
      finalEx: obs.at(-1)!.ex,
      polls: obs.length,
    };
  });
}

/** Stop the check (not exercised) when the shared turn did not start. */
export function requireTurn(ctx: CheckContext, t: Turn): asserts t is Turn & { chatId: string; messageId: string } {
  if (t.chatId && t.messageId) return;
  setupNotAccepted(ctx, "POST /v1/ask", t.create);
}
