import type { AccountMe, CommonInsufficientCreditsDetail } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { bodyOf, dataOf } from "../typed.ts";
import { dec } from "./support/billing.ts";

/** Every balance the deployment reports is >= 0. */
export default defineCheck({
  id: "billing-balance-never-negative",
  rule: "usage.balance in every GET /v1/me response, and 402 detail.available, are never negative",
  section: "Limits › Charges (requests are never partially charged; reservation before work)",
  severity: "critical",
  rules: { seed: "Requests are never partially charged." },
  mock: true,
  inspect(ex, ctx) {
    let v: unknown;
    if (ex.status === 200 && ex.op?.key === "GET /v1/me") v = dataOf<AccountMe>(ex)?.usage?.balance;
    else if (ex.status === 402) v = bodyOf<{ detail: CommonInsufficientCreditsDetail }>(ex)?.detail?.available;
    else return;
    const d = dec(v);
    if (d && d.isNegative())
      return ctx.fail(ex, {
        title: "a negative balance was reported",
        received: v,
        expected: ">= 0",
      });
    ctx.pass(ex);
  },
});
