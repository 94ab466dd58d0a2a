import { defineCheck } from "../define-check.ts";
import { decided, marks, seed } from "../grounding/assertions.ts";
import { bound, status, words } from "../grounding/facts.ts";
import type { CheckContext } from "../types.ts";
import { fillPath } from "./support/util.ts";
import { queryCases } from "./support/negative.ts";
import { askTurn } from "./support/ask.ts";
import { sendCase } from "./invalid-request-rejected.ts";

const LIST = "GET /v1/chats/{chat_id}/messages";

/**
 * The negative query sweep of invalid-request-rejected on the chat message list,
 * which that check cannot reach (a chat exists only after an assistant turn):
 * here the shared turn's chat. limit 0 and 101, a fraction, an unknown order…
 * each is refused with 422 and the validation body. A case the deployment
 * accepts breaks the constraint's own provenance (the seed's 1-100, or the
 * contract's decision); a refusal with another status than 422 is D-422's.
 */
export default defineCheck({
  id: "chat-messages-query-rejected",
  phase: "groups",
  rule: "GET /v1/chats/{chat_id}/messages with a query bound crossed (limit 0 or 101, a fraction, an unknown order) is refused; with 422 and the validation body (D-422)",
  section: "Endpoints › Ask and chats; Limits",
  severity: "major",
  asserts: {
    limit: seed("chats.messages.limit", words("`limit` (default 25, 1-100)"), bound(1), bound(100)),
    bounds: marks(["D-422", "D-UNPROCESSABLE", "D-BOUND-STRINGS"]),
    // a malformed query answered with a server fault
    serverFault: seed("endpoints.422-on-body-or-query", status(422), words("malformed body or query")),
    status: decided("D-422", status(422)),
  },
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
    // the sweep names what each finding breaks (invalid-request-rejected's assertions); here the seed's 1-100 on
    // `limit` is this list's own row, any other crossed constraint decides by its own mark
    let limitCase = false;
    const judgesOf = (f: { judges?: string; seedQuote?: string }) =>
      f.judges === "serverFault"
        ? "serverFault"
        : f.judges === "refusal"
          ? "status"
          : f.seedQuote && limitCase
            ? "limit"
            : "bounds";
    const judged: CheckContext = {
      ...ctx,
      expect: (cond, f, ex) => ctx.expect(cond, { ...f, judges: judgesOf(f) }, ex),
      fail: (f, ex) => ctx.fail({ ...f, judges: judgesOf(f) }, ex),
    };
    for (const c of cases) {
      limitCase = c.loc.includes("limit");
      await sendCase(judged, op, path, c, { replay: `case "${c.label}"` });
    }
  },
});
