import type { AssistantAskAccepted, AssistantChat, AssistantChatMessage } from "../../../generated/client/types.gen.ts";
import { decision, defineCheck } from "../define-check.ts";
import { dataOf } from "../typed.ts";
import { listItemsOf, seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { askTurn, messagePath, requireTurn } from "./support/ask.ts";

/** POST /v1/ask answers 202 {chat_id, message_id, status: working} with no text; the message is polled to completed/failed; the chat holds both turns. */
export default defineCheck({
  id: "ask-202-polls-to-completion",
  phase: "groups",
  rule: "POST /v1/ask answers 202 {chat_id, message_id, status: working} without reply text; GET the chat message moves working → completed | failed and a completed one carries markdown text and references[]; the chat reads 200 and lists the user and assistant messages with order=asc; an unknown chat_id is 404 chat_not_found and creates nothing",
  section: "Endpoints › Ask and chats; States › Assistant turn",
  severity: "critical",
  rules: {
    seed: "202 `{chat_id, message_id, status: working}`; no reply text",
    decisions: [
      decision("D-ASK-UNKNOWN-CHAT", { title: /unknown chat_id/ }),
      decision("D-MESSAGE-404", { title: /unknown message/ }),
      decision("D-MESSAGE-POLL", { title: /D-MESSAGE-POLL/ }),
      // text and references[] are the seed's words; `role` on the polled message is the contract's
      decision("D-MESSAGE-POLL", { title: /^a completed message lacks role assistant\s*$/ }),
    ],
  },
  decisions: [
    "D-ASYNC-202",
    "D-MESSAGE-POLL",
    "D-MESSAGE-404",
    "D-ASK-UNKNOWN-CHAT",
    "D-CHAT-ORDER",
    "D-MESSAGE-CONTEXT",
  ],
  requires: [
    "POST /v1/ask",
    "GET /v1/chats/{chat_id}/messages/{message_id}",
    "GET /v1/chats/{chat_id}",
    "GET /v1/chats/{chat_id}/messages",
  ],
  async run(ctx) {
    const t = await askTurn(ctx);
    requireTurn(ctx, t);
    // the accepted answer as sent, with the reply text the seed says it must not carry yet
    const c = dataOf<AssistantAskAccepted & { text: unknown }>(t.create);
    ctx.expect(
      c?.status === "working" && c.text === undefined,
      {
        title: "the 202 answer is not {chat_id, message_id, status: working} without text",
        received: c,
        expected: { chat_id: t.chatId, message_id: t.messageId, status: "working" },
      },
      t.create,
    );
    const f = t.final;
    if (
      !ctx.expect(
        f?.status === "completed" || f?.status === "failed",
        {
          title: `the message ended ${f?.status}`,
          received: f,
          expected: { status: "completed | failed" },
        },
        t.finalEx,
      )
    )
      return;
    if (f?.status === "completed") {
      const lacking = [
        ...(f.role === "assistant" ? [] : ["role assistant"]),
        ...(typeof f.text === "string" && f.text.length > 0 ? [] : ["text"]),
        ...(Array.isArray(f.references) ? [] : ["references[]"]),
      ];
      ctx.expect(
        lacking.length === 0,
        {
          title: `a completed message lacks ${lacking.join(", ")}`,
          received: f,
          expected: { role: "assistant", status: "completed", text: "<markdown>", references: [] },
        },
        t.finalEx,
      );
    }
    const chat = await ctx.req({ method: "GET", path: `/v1/chats/${encodeURIComponent(t.chatId)}` });
    ctx.expect(
      chat.status === 200 && dataOf<AssistantChat>(chat)?.id === t.chatId,
      {
        title: `the chat reads ${chat.status}`,
        received: seen(chat),
        expected: { status: 200, data: { id: t.chatId } },
      },
      chat,
    );
    const list = await ctx.req({
      method: "GET",
      path: `/v1/chats/${encodeURIComponent(t.chatId)}/messages?order=asc&limit=25`,
    });
    const messages = listItemsOf<AssistantChatMessage>(list);
    const roles = messages.map((m) => m?.role);
    const ids = messages.map((m) => m?.id);
    ctx.expect(
      list.status === 200 && roles[0] === "user" && roles.includes("assistant") && ids.includes(t.messageId),
      {
        title: `the chat lists roles ${JSON.stringify(roles)}`,
        received: seen(list),
        expected: "user message first, then the assistant message (order=asc)",
      },
      list,
    );
    const missingMsg = await ctx.req({ method: "GET", path: messagePath(t.chatId, "msg_slkmissing0000000") });
    // strict on 404 (the seed: an id that does not exist yields 404); the code is D-MESSAGE-404's, lenient through the registry
    if (missingMsg.status === 404) ctx.lenient("D-MESSAGE-404", missingMsg);
    ctx.expect(
      missingMsg.status === 404,
      {
        title: `an unknown message id answered ${missingMsg.status}`,
        received: seen(missingMsg),
        expected: { status: 404, error_code: "chat_not_found" },
      },
      missingMsg,
    );
    const unknownChat = await ctx.req({
      method: "POST",
      path: "/v1/ask",
      body: { message: "Continue.", chat_id: "ch_slkmissing00000000" },
    });
    ctx.expect(
      unknownChat.status === 404 && errorCode(unknownChat) === "chat_not_found",
      {
        title: `ask with an unknown chat_id answered ${unknownChat.status} ${errorCode(unknownChat) ?? ""}`,
        received: seen(unknownChat),
        expected: { status: 404, error_code: "chat_not_found" },
      },
      unknownChat,
    );
  },
});
