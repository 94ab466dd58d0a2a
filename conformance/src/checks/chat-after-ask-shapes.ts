import type { AssistantChatMessage } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, value, words } from "../grounding/facts.ts";
import { bodyOf, isObject, type Untrusted } from "../typed.ts";
import { listItemsOf } from "./support/util.ts";
import { askTurn } from "./support/ask.ts";
import { usageRows } from "./support/billing.ts";

const CHAT_KEYS = ["created_at", "id", "name", "tracking_agent_id"];

/**
 * After one assistant turn: the chat carries no heavier field beside its four
 * (an object or array the seed does not list), the user message carries
 * context, and no new usage row is ai_assistant. A plain extra field (a
 * string, number, boolean or null) is no "heavier in-app field": that the
 * chat carries nothing but the four is the contract's (D-CHAT-FIELDS).
 */
export default defineCheck({
  id: "chat-after-ask-shapes",
  phase: "groups",
  rule: "After POST /v1/ask: GET /v1/chats/{id} carries no object or array field besides id, name, tracking_agent_id, created_at (no other field at all: D-CHAT-FIELDS); the chat's user message carries context; no usage row written since the chat began has category ai_assistant",
  section: "Resources › Chat and message; Resources › Usage history row (category vocabulary)",
  severity: "minor",
  asserts: {
    heavier: seed("chat.no-heavier-fields", words("Heavier in-app fields are absent")),
    onlyFour: decided("D-CHAT-FIELDS"),
    context: seed("chat-message.user-context", words("User messages carry"), field("context")),
    aiAssistant: seed(
      "usage-history.ai-assistant-old-rows-only",
      value("ai_assistant"),
      words("appears only on old rows"),
    ),
  },
  after: ["ask-*"],
  requires: ["POST /v1/ask", "GET /v1/chats/{chat_id}", "GET /v1/chats/{chat_id}/messages", "GET /v1/me/usage_history"],
  async run(ctx) {
    const t = await askTurn(ctx);
    if (!t.chatId || !t.messageId)
      return ctx.skip(`the shared assistant turn did not start (POST /v1/ask answered ${t.create.status})`);
    const chatPath = `/v1/chats/${encodeURIComponent(t.chatId)}`;
    const chat = await ctx.req({ method: "GET", path: chatPath });
    if (chat.status !== 200) ctx.skip(`GET ${chatPath.split("/").slice(0, 3).join("/")}/{id} answered ${chat.status}`);
    const data = bodyOf<{ data: unknown }>(chat)?.data;
    const keys = isObject(data) ? Object.keys(data).sort() : [];
    const extra = keys.filter((k) => !CHAT_KEYS.includes(k));
    // an object or array beside the four is a heavier field; any other extra is the contract's to refuse
    const heavy = extra.filter((k) => isObject(data) && typeof data[k] === "object" && data[k] !== null);
    ctx.expect(
      heavy.length === 0,
      {
        judges: "heavier",
        title: `the chat carries ${heavy.join(", ")} (objects or arrays) besides id, name, tracking_agent_id and created_at`,
        received: keys,
        expected: CHAT_KEYS,
      },
      chat,
    );
    ctx.expect(
      extra.length === heavy.length,
      {
        judges: "onlyFour",
        title: `the chat carries ${extra.filter((k) => !heavy.includes(k)).join(", ")} besides id, name, tracking_agent_id and created_at`,
        received: keys,
        expected: CHAT_KEYS,
      },
      chat,
    );
    const chatCreated = isObject(data) && typeof data.created_at === "number" ? data.created_at : undefined;

    const msgs = await ctx.req({ method: "GET", path: `${chatPath}/messages?order=asc&limit=100` });
    const users = listItemsOf<AssistantChatMessage & { context: unknown }>(msgs).filter(
      (m): m is Untrusted<AssistantChatMessage & { context: unknown }> => m?.role === "user",
    );
    if (msgs.status !== 200 || users.length === 0)
      ctx.notExercised(`the chat's messages answered ${msgs.status} with no user message`);
    else
      ctx.expect(
        users.every((m) => isObject(m.context)),
        {
          judges: "context",
          title: "a user message of the chat carries no context",
          received: users.map((m) => ({ id: m.id, context: m.context })),
          expected: "every user message carries context (an object)",
        },
        msgs,
      );

    // the turn's charge settles after the reply: rows written since the chat began (the deployment's clock) are new ones
    if (chatCreated === undefined)
      return ctx.notExercised("the chat has no integer created_at to date the usage rows by");
    const { rows, ex } = await usageRows(ctx);
    const recent = rows.filter((r) => typeof r?.created_at === "number" && r.created_at >= chatCreated);
    if (recent.length === 0) return ctx.notExercised("no usage row was written since the chat began");
    const assistant = recent.filter((r) => r?.category === "ai_assistant");
    ctx.expect(
      assistant.length === 0,
      {
        judges: "aiAssistant",
        title: `${assistant.length} usage row(s) written since the assistant turn have category ai_assistant`,
        received: assistant,
        expected: "ai_assistant only on rows older than this run",
      },
      ex,
    );
  },
});
