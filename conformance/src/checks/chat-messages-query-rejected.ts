import { decision, defineCheck } from "../define-check.ts";
import { fillPath } from "./support/util.ts";
import { queryCases } from "./support/negative.ts";
import { askTurn } from "./support/ask.ts";
import { sendCase } from "./invalid-request-rejected.ts";

const LIST = "GET /v1/chats/{chat_id}/messages";

/**
 * The negative query sweep of invalid-request-rejected on the chat message list,
 * which that check cannot reach (a chat exists only after an assistant turn):
 * here the shared turn's chat. limit 0 and 101, a fraction, an unknown order…
 * each gets 422 with the validation body.
 */
export default defineCheck({
  id: "chat-messages-query-rejected",
  phase: "groups",
  rule: "GET /v1/chats/{chat_id}/messages with a query bound crossed (limit 0 or 101, a fraction, an unknown order) gets 422 with the validation body",
  section: "Endpoints › Ask and chats; Limits",
  severity: "major",
  rules: {
    refusals: true,
    seed: "`limit` (default 25, 1-100), `cursor`, `order` (`asc` or `desc`, default `desc`)",
    decisions: [
      decision("D-BOUND-STRINGS", { title: /cursor: maxLength/ }),
      // refused, but not with the validation body's 422
      decision("D-422", { status: (s) => s >= 400 && s < 500 && s !== 422 }),
    ],
  },
  decisions: ["D-422", "D-UNPROCESSABLE", "D-BOUND-STRINGS"],
  requires: ["POST /v1/ask", LIST],
  invalidRequests: true,
  async run(ctx) {
    const op = ctx.contract.op(LIST)!;
    const t = await askTurn(ctx);
    // ask-202-polls-to-completion judges a turn that does not start
    const chatId = t.chatId;
    if (!chatId) return ctx.skip(`no chat to read: POST /v1/ask answered ${t.create.status}`);
    const path = fillPath(op.path, { chat_id: chatId })!;
    const cases = queryCases(op);
    if (!cases.some((c) => c.query?.limit !== undefined))
      ctx.skip("the contract gives the message list no limit bounds");
    for (const c of cases) await sendCase(ctx, op, path, c, { replay: `case "${c.label}"` });
  },
});
