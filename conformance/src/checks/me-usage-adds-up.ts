import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";
import type { KeyRole } from "../http.ts";
import { dataOf, isObject } from "../typed.ts";
import type { AccountMe } from "../../../generated/client/types.gen.ts";
import { seen } from "./support/util.ts";
import { dec } from "./support/billing.ts";

/** The dollar amounts of `usage` the seed names. */
const AMOUNTS = ["balance", "balance_used", "balance_total"] as const;

/**
 * GET /v1/me's usage carries the seed's dollar fields (balance, balance_used,
 * balance_total, currency), each amount a number or a decimal string; that
 * balance + balance_used equals balance_total exactly is D-ME-USAGE's (the
 * seed does not relate them), judged on its own, on every configured
 * account. How a held reservation is shown is lenient and not judged here.
 */
export default defineCheck({
  id: "me-usage-adds-up",
  phase: "billing",
  rule: "GET /v1/me: usage carries balance, balance_used, balance_total (US-dollar amounts) and currency; balance + balance_used == balance_total exactly (decimal arithmetic, D-ME-USAGE), for the main key and, when configured, the foreign and poor keys",
  section: "Resources › Account (`/v1/me`) (usage: balance_used and balance_total cover the current billing period)",
  severity: "major",
  asserts: {
    fields: seed(
      "me.usage",
      field("balance"),
      field("balance_used"),
      field("balance_total"),
      field("currency"),
      words("in US dollars"),
    ),
    sum: decided("D-ME-USAGE", field("balance"), field("balance_used"), field("balance_total")),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me"],
  async run(ctx) {
    const roles: KeyRole[] = ["main", "foreign", "poor"];
    for (const key of roles.filter((k) => ctx.settings.keys[k])) {
      const ex = await ctx.req({ method: "GET", path: "/v1/me", key });
      if (ex.status !== 200) {
        ctx.notExercised(`GET /v1/me (${key}) answered ${ex.status}`);
        continue;
      }
      const u = dataOf<AccountMe>(ex)?.usage;
      const usage = isObject(u) ? u : undefined;
      const amounts = AMOUNTS.map((f) => dec(usage?.[f]));
      const bad = [...AMOUNTS.filter((_, i) => !amounts[i]), ...(usage && "currency" in usage ? [] : ["currency"])];
      if (
        !ctx.expect(
          bad.length === 0,
          {
            judges: "fields",
            title: `GET /v1/me (${key}) usage has no dollar amount or field ${bad.join(", ")}`,
            received: seen(ex),
            expected: { data: { usage: { balance: "…", balance_used: "…", balance_total: "…", currency: "…" } } },
          },
          ex,
        )
      )
        continue;
      const [balance, used, total] = amounts;
      if (!balance || !used || !total) continue;
      const sum = balance.plus(used);
      ctx.expect(
        sum.equals(total),
        {
          judges: "sum",
          title: `(${key}) balance ${String(u?.balance)} + balance_used ${String(u?.balance_used)} = ${sum.toFixed()}, not balance_total ${String(u?.balance_total)}`,
          received: u,
          expected: { balance_total: sum.toFixed() },
        },
        ex,
      );
    }
  },
});
