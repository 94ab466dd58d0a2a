import { defineCheck } from "../define-check.ts";
import { seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { askTurn, messagePath, requireTurn } from "./support/ask.ts";

/** Chats are private to the seat that created them: another seat of the same account, or another account, gets 404 everywhere. */
export default defineCheck({
  id: "chats-private-to-seat",
  phase: "groups",
  rule: "A chat created by one seat answers 404 chat_not_found to another seat of the same account and to another account on GET chat, GET messages, GET message and POST /v1/ask continuing it",
  section: "Endpoints › Ask and chats (rule 5: chats are private to the creating seat); Authentication › REST (3)",
  severity: "critical",
  rules: {
    seed: "Chats are private to the creating seat: another seat, including the owner, receives 404.",
  },
  decisions: ["D-ASK-UNKNOWN-CHAT"],
  keys: ["second"],
  requires: ["POST /v1/ask", "GET /v1/chats/{chat_id}", "GET /v1/chats/{chat_id}/messages"],
  async run(ctx) {
    const t = await askTurn(ctx);
    requireTurn(ctx, t);
    const chat = `/v1/chats/${encodeURIComponent(t.chatId)}`;
    const roles = (["second", "foreign"] as const).filter((k) => ctx.hasKey(k));
    for (const key of roles) {
      const calls: Array<[string, string, unknown?]> = [
        ["GET", chat],
        ["GET", `${chat}/messages?order=desc`],
        ["GET", messagePath(t.chatId, t.messageId)],
        ["POST", "/v1/ask", { message: "What did I ask before?", chat_id: t.chatId }],
      ];
      for (const [method, path, body] of calls) {
        const ex = await ctx.req({ method, path, body, key });
        ctx.expect(
          ex.status === 404 && errorCode(ex) === "chat_not_found",
          {
            title: `${key === "second" ? "another seat" : "another account"} got ${ex.status} on ${method} ${path.split("?")[0]}`,
            received: seen(ex),
            expected: { status: 404, error_code: "chat_not_found" },
          },
          ex,
        );
      }
    }
    const own = await ctx.req({ method: "GET", path: chat });
    ctx.expect(
      own.status === 200,
      {
        title: `the creating seat reads its chat as ${own.status}`,
        received: seen(own),
        expected: { status: 200 },
      },
      own,
    );
  },
});
