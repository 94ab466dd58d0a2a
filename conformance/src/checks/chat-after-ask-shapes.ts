import type { AssistantChatMessage } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { bodyOf, isObject, type Untrusted } from "../typed.ts";
import { listItemsOf } from "./support/util.ts";
import { askTurn } from "./support/ask.ts";
import { usageRows } from "./support/billing.ts";

const CHAT_KEYS = ["created_at", "id", "name", "tracking_agent_id"];

/** After one assistant turn: the chat carries only its four fields, the user message carries context, and no new usage row is ai_assistant. */
export default defineCheck({
  id: "chat-after-ask-shapes",
  phase: "groups",
  rule: "After POST /v1/ask: GET /v1/chats/{id} carries no field besides id, name, tracking_agent_id, created_at; the chat's user message carries context; no usage row written since the chat began has category ai_assistant",
  section: "Resources › Chat and message; Resources › Usage history row (category vocabulary)",
  severity: "minor",
  rules: {
    seed: "Chat: `id`, `name` (string or null; the assistant names it after a few turns), `tracking_agent_id` (string or null; set for a tracking agent's dedicated dialogue), `created_at`. Heavier in-app fields are absent. … User messages carry `context`; … `ai_assistant` appears only on old rows.",
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
    ctx.expect(
      extra.length === 0,
      {
        title: `the chat carries ${extra.join(", ")} besides id, name, tracking_agent_id and created_at`,
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
        title: `${assistant.length} usage row(s) written since the assistant turn have category ai_assistant`,
        received: assistant,
        expected: "ai_assistant only on rows older than this run",
      },
      ex,
    );
  },
});
