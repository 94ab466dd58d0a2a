import type {
  AssistantAskAccepted,
  AssistantInsufficientCreditsAskError,
} from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { bodyOf } from "../typed.ts";
import { seen } from "./support/util.ts";
import { usageRows } from "./support/billing.ts";
import { balanceOf, errorCode, priceOf } from "./support/groups.ts";

/** The 402 body, with the accepted answer's `data` a refused ask must not carry. */
type RefusedAsk = AssistantInsufficientCreditsAskError & { data: AssistantAskAccepted };

/** With a spent balance ask is refused before any turn starts: 402 insufficient_credits_ask, no chat, no charge. */
export default defineCheck({
  id: "ask-402-creates-nothing",
  phase: "groups",
  rule: "When the --poor-key balance cannot pay one block of inference (below one post_processing price), POST /v1/ask gets 402 insufficient_credits_ask with the 402 body; no chat is created and balance and usage history are unchanged",
  section: "Endpoints › Ask and chats (402 before any turn starts; nothing created or charged); Limits › Charges (4)",
  severity: "critical",
  rules: {
    seed: "402 `insufficient_credits_ask` (before any turn starts; nothing created or charged)",
  },
  decisions: ["D-MONEY-STRING"],
  keys: ["poor"],
  requires: ["POST /v1/ask", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    ctx.mutates("a refused ask on the poor account");
    const block = await priceOf(ctx, "post_processing", "poor");
    const { balance: before } = await balanceOf(ctx, "poor");
    if (before.gte(block))
      ctx.skip(
        `the --poor-key balance ($${before.toFixed()}) is not spent: it pays an inference block ($${block.toFixed()})`,
      );
    const { rows: rowsBefore } = await usageRows(ctx, "poor");
    const ex = await ctx.req({
      method: "POST",
      path: "/v1/ask",
      key: "poor",
      body: { message: "Summarise my datasets." },
    });
    const b = bodyOf<RefusedAsk>(ex);
    ctx.expect(
      ex.status === 402 && errorCode(ex) === "insufficient_credits_ask" && typeof b?.detail?.available === "string",
      {
        title: `ask with a spent balance answered ${ex.status} ${errorCode(ex) ?? ""}`,
        received: seen(ex),
        expected: { status: 402, error_code: "insufficient_credits_ask" },
      },
      ex,
    );
    const { balance: after, ex: me } = await balanceOf(ctx, "poor");
    const { rows: rowsAfter } = await usageRows(ctx, "poor");
    ctx.expect(
      after.equals(before) && rowsAfter.length === rowsBefore.length && b?.data?.chat_id === undefined,
      {
        title: "a refused ask charged, wrote usage or returned a chat",
        received: { balance: after.toFixed(), rows: rowsAfter.length },
        expected: { balance: before.toFixed(), rows: rowsBefore.length },
      },
      me,
    );
  },
});
