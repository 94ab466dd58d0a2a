import type { AccountMe, CommonInsufficientCreditsDetail } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided } from "../grounding/assertions.ts";
import { bodyOf, dataOf } from "../typed.ts";
import { dec } from "./support/billing.ts";

/**
 * Every balance the deployment reports is >= 0. The seed refuses work the
 * balance cannot fund (402) but settles the assistant's token charge after
 * the reply and never states a floor: the floor is D-BALANCE-FLOOR's.
 */
export default defineCheck({
  id: "billing-balance-never-negative",
  rule: "usage.balance in every GET /v1/me response, and 402 detail.available, are never negative",
  section: "Limits › Charges (reservation before work); Errors (402); D-BALANCE-FLOOR",
  severity: "critical",
  asserts: { floor: decided("D-BALANCE-FLOOR") },
  mock: true,
  inspect(ex, ctx) {
    let v: unknown;
    if (ex.status === 200 && ex.op?.key === "GET /v1/me") v = dataOf<AccountMe>(ex)?.usage?.balance;
    else if (ex.status === 402) v = bodyOf<{ detail: CommonInsufficientCreditsDetail }>(ex)?.detail?.available;
    else return;
    const d = dec(v);
    if (d && d.isNegative())
      return ctx.fail(ex, {
        judges: "floor",
        title: "a negative balance was reported",
        received: v,
        expected: ">= 0",
      });
    ctx.pass(ex);
  },
});
