import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import { is2xx, seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { askTurn, messagePath, requireTurn } from "./support/ask.ts";

/**
 * Chats are private to the seat that created them: another seat of the same
 * account, or another account, gets 404 on every route of the chat. The code
 * is the seed's where the route names one (chat_not_found on the chat and its
 * message list); on the message read it is D-MESSAGE-404's (a warning), on an
 * ask continuing the chat D-ASK-UNKNOWN-CHAT's.
 */
export default defineCheck({
  id: "chats-private-to-seat",
  phase: "groups",
  rule: "A chat created by one seat answers 404 chat_not_found to another seat of the same account and to another account on GET chat, GET messages, GET message and POST /v1/ask continuing it",
  section: "Endpoints › Ask and chats (rule 5: chats are private to the creating seat); Authentication › REST (3)",
  severity: "critical",
  asserts: {
    private: seed(
      ["chats.private-to-seat", "service.scope.foreign-404"],
      status(404),
      words("another seat, including the owner, receives 404"),
      words("A resource of another account"),
    ),
    code: seed(["chats.read", "chats.messages.not-found"], code("chat_not_found")),
    askCode: decided("D-ASK-UNKNOWN-CHAT", code("chat_not_found")),
    own: seed("chats.read", words("| Chat |")),
    // the code of another seat's message read: a warning
    messageCode: decided("D-MESSAGE-404"),
  },
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
        const who = key === "second" ? "another seat" : "another account";
        const route = `${method} ${path.split("?")[0]}`;
        if (
          !ctx.expect(
            ex.status === 404,
            {
              judges: "private",
              title: `${who} got ${ex.status} on ${route}`,
              received: seen(ex),
              expected: { status: 404 },
            },
            ex,
          )
        )
          continue;
        // the code: the seed's on the chat and its list, the contract's on the message read and on ask
        if (path === messagePath(t.chatId, t.messageId)) ctx.lenient("D-MESSAGE-404", ex);
        else
          ctx.expect(
            errorCode(ex) === "chat_not_found",
            {
              judges: method === "POST" ? "askCode" : "code",
              title: `${who} got 404 ${errorCode(ex) ?? ""} on ${route}`.trimEnd(),
              received: seen(ex),
              expected: { status: 404, error_code: "chat_not_found" },
            },
            ex,
          );
      }
    }
    const own = await ctx.req({ method: "GET", path: chat });
    ctx.expect(
      is2xx(own),
      {
        judges: "own",
        title: `the creating seat reads its chat as ${own.status}`,
        received: seen(own),
        expected: { status: 200 },
      },
      own,
    );
  },
});
