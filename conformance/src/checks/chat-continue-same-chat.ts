import type { AssistantAskAccepted, AssistantChatMessageStatus } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";
import { dataOf } from "../typed.ts";
import { is2xx, listItemsOf, seen } from "./support/util.ts";
import { pollUntil } from "./support/groups.ts";
import { askTurn, messagePath, requireTurn } from "./support/ask.ts";
import { ASK_BUDGET_USD } from "./mcp-ask-flow.ts";

/**
 * POST /v1/ask with an own chat_id continues that chat: it is accepted with
 * the same chat_id and a new message id, and the new message is read under
 * that chat and listed in it. (The accepted status itself is judged by
 * ask-202-polls-to-completion.)
 */
export default defineCheck({
  id: "chat-continue-same-chat",
  phase: "groups",
  rule: "A second POST /v1/ask passing the chat_id of the seat's own settled chat is accepted with that chat_id and a new message_id; the new message is read under that chat and listed in its messages",
  section: "Endpoints › Ask and chats (rule 1: continue a chat by passing its chat_id)",
  severity: "major",
  asserts: {
    continued: seed("chats.continue", words("Continue a chat by passing its"), field("chat_id")),
  },
  after: ["chats-private-to-seat"],
  requires: ["POST /v1/ask", "GET /v1/chats/{chat_id}/messages/{message_id}", "GET /v1/chats/{chat_id}/messages"],
  async run(ctx) {
    const t = await askTurn(ctx);
    requireTurn(ctx, t);
    ctx.charge(ASK_BUDGET_USD, "a second assistant turn (token charge)");
    const next = await ctx.req({
      method: "POST",
      path: "/v1/ask",
      body: { message: "Which of those posts has the most likes?", chat_id: t.chatId },
    });
    // a spent balance refuses the turn before it starts: a legitimate answer, not this rule's
    if (next.status === 402) ctx.skip("the second turn was refused 402 (the balance cannot pay another turn)");
    const d = dataOf<AssistantAskAccepted>(next);
    const msg = d?.message_id;
    if (
      !ctx.expect(
        is2xx(next) && d?.chat_id === t.chatId && typeof msg === "string" && msg !== t.messageId,
        {
          judges: "continued",
          title: `continuing a chat answered ${next.status} with chat_id ${JSON.stringify(d?.chat_id)}`,
          received: seen(next),
          expected: { status: 202, data: { chat_id: t.chatId, message_id: "<a new message id>", status: "working" } },
        },
        next,
      ) ||
      typeof msg !== "string"
    )
      return;
    const obs = await pollUntil<AssistantChatMessageStatus>(
      ctx,
      messagePath(t.chatId, msg),
      (m) => m?.status === "completed" || m?.status === "failed",
    );
    const first = obs[0]!.ex;
    ctx.expect(
      first.status === 200,
      {
        judges: "continued",
        title: `the continued turn's message read under its chat answered ${first.status}`,
        received: seen(first),
        expected: { status: 200 },
      },
      first,
    );
    const list = await ctx.req({
      method: "GET",
      path: `/v1/chats/${encodeURIComponent(t.chatId)}/messages?order=desc&limit=100`,
    });
    const ids = listItemsOf<{ id: string }>(list).map((m) => m?.id);
    ctx.expect(
      list.status === 200 && ids.includes(msg),
      {
        judges: "continued",
        title: "the continued turn's message is not listed in the chat's messages",
        received: { status: list.status, ids },
        expected: { includes: msg },
      },
      list,
    );
  },
});
