import { Decimal } from "decimal.js";
import type { AccountPrices, AssistantAskAccepted } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import { bodyOf, dataOf, isObject } from "../typed.ts";
import { is2xx, seen } from "./support/util.ts";
import { dec } from "./support/decimal.ts";
import { expect402Body, usageRows, PAYMENT_REQUIRED_ASSERTS } from "./support/billing.ts";
import { balanceOf, errorCode } from "./support/groups.ts";

/** The accepted answer's `data`, which a refused ask must not carry. */
type RefusedAsk = { data: AssistantAskAccepted };

/**
 * With a spent balance an ask is refused before any turn starts: 402
 * insufficient_credits_ask with the seed's 402 body, no chat, no charge. The
 * --poor-key account is asked whatever its balance; a refusal is judged as
 * such. An ask it accepts is a finding only when its balance is below every
 * price the deployment publishes (nothing it could be charged is affordable);
 * otherwise the balance is not shown to be spent and the rule is not exercised.
 */
export default defineCheck({
  id: "ask-402-creates-nothing",
  phase: "groups",
  rule: "POST /v1/ask with the --poor-key account gets 402 insufficient_credits_ask with the 402 body (detail {message, required, available, top_up_url} as decimal strings, required > available, transient false), no chat and no change to balance or usage history; an ask that account's balance cannot pay at any published price is never accepted",
  section:
    "Endpoints › Ask and chats (402 before any turn starts; nothing created or charged); Limits › Charges (4); Errors (402 body)",
  severity: "critical",
  asserts: {
    refused: seed("ask.402", status(402), code("insufficient_credits_ask"), words("A spent balance gives 402")),
    ...PAYMENT_REQUIRED_ASSERTS,
    nothing: seed("ask.402", words("before any turn starts; nothing created or charged")),
  },
  keys: ["poor"],
  requires: ["POST /v1/ask", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    ctx.mutates("an ask on the poor account");
    const prices = dataOf<AccountPrices>(
      await ctx.shared("prices-poor", () => ctx.req({ method: "GET", path: "/v1/prices", key: "poor" })),
    )?.prices;
    const cheapest = Object.values(isObject(prices) ? prices : {})
      .map(dec)
      .filter((p): p is Decimal => !!p && p.gt(0))
      .reduce<Decimal | undefined>((m, p) => (!m || p.lt(m) ? p : m), undefined);
    const { balance: before } = await balanceOf(ctx, "poor");
    const { rows: rowsBefore } = await usageRows(ctx, "poor");
    // accepted, the turn could cost the poor account at most what it holds
    const release = ctx.charge(
      Decimal.max(before, 0).toFixed(),
      "an ask on the poor account (refused if its balance is spent)",
    );
    const ex = await ctx.req({
      method: "POST",
      path: "/v1/ask",
      key: "poor",
      body: { message: "Summarise my datasets." },
    });
    if (!is2xx(ex)) release();
    if (is2xx(ex)) {
      const spent = cheapest ? before.lt(cheapest) : before.lte(0);
      if (!spent)
        return ctx.skip(
          `not exercised: the --poor-key account's ask was accepted and its balance ($${before.toFixed()}) is not below every published price${cheapest ? ` ($${cheapest.toFixed()})` : ""}: not a spent balance`,
        );
      return ctx.fail(
        {
          judges: "refused",
          title: `ask with a spent balance ($${before.toFixed()}, below every published price) answered ${ex.status}`,
          received: seen(ex),
          expected: { status: 402, error_code: "insufficient_credits_ask" },
        },
        ex,
      );
    }
    if (
      !ctx.expect(
        ex.status === 402 && errorCode(ex) === "insufficient_credits_ask",
        {
          judges: "refused",
          title: `ask with the poor account answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd(),
          received: seen(ex),
          expected: { status: 402, error_code: "insufficient_credits_ask" },
        },
        ex,
      )
    )
      return;
    expect402Body(ctx, ex);
    const { balance: after, ex: me } = await balanceOf(ctx, "poor");
    const { rows: rowsAfter } = await usageRows(ctx, "poor");
    ctx.expect(
      after.equals(before) &&
        rowsAfter.length === rowsBefore.length &&
        bodyOf<RefusedAsk>(ex)?.data?.chat_id === undefined,
      {
        judges: "nothing",
        title: "a refused ask charged, wrote usage or returned a chat",
        received: { balance: after.toFixed(), rows: rowsAfter.length, chat_id: bodyOf<RefusedAsk>(ex)?.data?.chat_id },
        expected: { balance: before.toFixed(), rows: rowsBefore.length },
      },
      me,
    );
  },
});
