import type { AssistantAskAccepted, AssistantChat, AssistantChatMessage } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, field, status, value, words } from "../grounding/facts.ts";
import { dataOf } from "../typed.ts";
import { is2xx, listItemsOf, seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { askTurn, messagePath, requireTurn } from "./support/ask.ts";

/**
 * POST /v1/ask answers 202 {chat_id, message_id, status: working} with no
 * text; the message is polled to completed or failed, and a completed one
 * carries markdown text and references[]; the chat the ask created reads
 * back and lists both turns. What the seed leaves open is judged as the
 * contract's: the polled message's role (D-MESSAGE-POLL), the order the
 * list gives (D-CHAT-ORDER), an unknown chat_id on ask (D-ASK-UNKNOWN-CHAT).
 */
export default defineCheck({
  id: "ask-202-polls-to-completion",
  phase: "groups",
  rule: "POST /v1/ask answers 202 {chat_id, message_id, status: working} without reply text; GET the chat message moves working → completed | failed and a completed one carries markdown text and references[] (role assistant: D-MESSAGE-POLL); the chat the ask created reads back and lists the user and the assistant message (user first with order=asc: D-CHAT-ORDER); an unknown message id is 404; an unknown chat_id on ask is 404 chat_not_found (D-ASK-UNKNOWN-CHAT)",
  section: "Endpoints › Ask and chats; States › Assistant turn; Resources › Chat and message",
  severity: "critical",
  asserts: {
    accepted: seed(
      "ask.202",
      status(202),
      field("chat_id"),
      field("message_id"),
      value("working"),
      words("no reply text"),
    ),
    states: seed(
      "assistant-turn.states",
      value("working"),
      value("completed"),
      value("failed"),
      words("polling the message until"),
    ),
    completed: seed(
      ["assistant-turn.states", "chat-message.assistant-references"],
      words("carries markdown `text` and `references[]`"),
      words("assistant messages carry `references[]`"),
    ),
    role: decided("D-MESSAGE-POLL"),
    chat: seed(
      ["chats.created-by-ask", "chats.read"],
      words("Chats are created implicitly by `POST /v1/ask`"),
      words("| Chat |"),
    ),
    messages: seed("chat-message.fields", value("user"), value("assistant")),
    order: decided("D-CHAT-ORDER"),
    unknownMessage: seed("service.scope.foreign-404", status(404), words("one that does not exist, yields 404")),
    unknownChat: decided("D-ASK-UNKNOWN-CHAT", status(404), code("chat_not_found")),
    // the code of an unknown message: a warning
    unknownMessageCode: decided("D-MESSAGE-404"),
  },
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
      t.create.status === 202 && c?.status === "working" && c.text === undefined,
      {
        judges: "accepted",
        title: `ask answered ${t.create.status}, not 202 {chat_id, message_id, status: working} without text`,
        received: seen(t.create),
        expected: { status: 202, data: { chat_id: t.chatId, message_id: t.messageId, status: "working" } },
      },
      t.create,
    );
    const f = t.final;
    if (
      !ctx.expect(
        f?.status === "completed" || f?.status === "failed",
        {
          judges: "states",
          title: `the message ended ${JSON.stringify(f?.status)}`,
          received: f,
          expected: { status: "completed | failed" },
        },
        t.finalEx,
      )
    )
      return;
    if (f?.status === "completed") {
      const lacking = [
        ...(typeof f.text === "string" && f.text.length > 0 ? [] : ["text"]),
        ...(Array.isArray(f.references) ? [] : ["references[]"]),
      ];
      ctx.expect(
        lacking.length === 0,
        {
          judges: "completed",
          title: `a completed message lacks ${lacking.join(", ")}`,
          received: f,
          expected: { status: "completed", text: "<markdown>", references: [] },
        },
        t.finalEx,
      );
      ctx.expect(
        f.role === "assistant",
        {
          judges: "role",
          title: `a completed message reads role ${JSON.stringify(f.role)}`,
          received: f.role,
          expected: "assistant",
        },
        t.finalEx,
      );
    } else ctx.notExercised("the assistant turn failed: a completed message's text and references are not judged");
    const chat = await ctx.req({ method: "GET", path: `/v1/chats/${encodeURIComponent(t.chatId)}` });
    ctx.expect(
      is2xx(chat) && dataOf<AssistantChat>(chat)?.id === t.chatId,
      {
        judges: "chat",
        title: `the chat the ask created reads ${chat.status}`,
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
    if (
      ctx.expect(
        is2xx(list) && roles.includes("user") && roles.includes("assistant") && ids.includes(t.messageId),
        {
          judges: "messages",
          title: `the chat lists roles ${JSON.stringify(roles)}`,
          received: seen(list),
          expected: "the user message and the assistant message (role user, role assistant)",
        },
        list,
      )
    )
      ctx.expect(
        roles[0] === "user",
        {
          judges: "order",
          title: `with order=asc the chat lists roles ${JSON.stringify(roles)}`,
          received: roles,
          expected: "the user message first",
        },
        list,
      );
    const missingMsg = await ctx.req({ method: "GET", path: messagePath(t.chatId, "msg_slkmissing0000000") });
    // strict on 404 (an id that does not exist); the code is D-MESSAGE-404's, lenient through the registry
    if (missingMsg.status === 404) ctx.lenient("D-MESSAGE-404", missingMsg);
    ctx.expect(
      missingMsg.status === 404,
      {
        judges: "unknownMessage",
        title: `an unknown message id answered ${missingMsg.status}`,
        received: seen(missingMsg),
        expected: { status: 404 },
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
        judges: "unknownChat",
        title: `ask with an unknown chat_id answered ${unknownChat.status} ${errorCode(unknownChat) ?? ""}`.trimEnd(),
        received: seen(unknownChat),
        expected: { status: 404, error_code: "chat_not_found" },
      },
      unknownChat,
    );
  },
});
