import { decision, defineCheck } from "../define-check.ts";
import type { KeyRole } from "../http.ts";
import { dataOf } from "../typed.ts";
import type { AccountMe } from "../../../generated/client/types.gen.ts";
import { seen } from "./support/util.ts";
import { dec } from "./support/billing.ts";

/**
 * GET /v1/me: usage.balance + usage.balance_used equals usage.balance_total
 * exactly, on every configured account (D-ME-USAGE is strict on the sum; how
 * a held reservation is shown is lenient and not judged here).
 */
export default defineCheck({
  id: "me-usage-adds-up",
  phase: "billing",
  rule: "GET /v1/me: usage.balance + usage.balance_used == usage.balance_total exactly (decimal arithmetic), for the main key and, when configured, the foreign and poor keys",
  section: "Resources › Account (`/v1/me`) (usage: balance_used and balance_total cover the current billing period)",
  severity: "major",
  rules: { decisions: [decision("D-ME-USAGE")] },
  decisions: ["D-ME-USAGE"],
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me"],
  async run(ctx) {
    const roles: KeyRole[] = ["main", "foreign", "poor"];
    for (const key of roles.filter((k) => ctx.settings.keys[k])) {
      const ex = await ctx.req({ method: "GET", path: "/v1/me", key });
      const u = dataOf<AccountMe>(ex)?.usage;
      const [balance, used, total] = [dec(u?.balance), dec(u?.balance_used), dec(u?.balance_total)];
      if (
        !ctx.expect(
          ex.status === 200 && !!u && !!balance && !!used && !!total,
          {
            title: `GET /v1/me (${key}) gave no decimal usage.balance / balance_used / balance_total`,
            received: seen(ex),
            expected: { status: 200, data: { usage: { balance: "…", balance_used: "…", balance_total: "…" } } },
          },
          ex,
        ) ||
        !u ||
        !balance ||
        !used ||
        !total
      )
        continue;
      const sum = balance.plus(used);
      ctx.expect(
        sum.equals(total),
        {
          title: `(${key}) balance ${u.balance} + balance_used ${u.balance_used} = ${sum.toFixed()}, not balance_total ${u.balance_total}`,
          received: u,
          expected: { balance_total: sum.toFixed() },
        },
        ex,
      );
    }
  },
});
