// /v1/me, /v1/me/usage_history and /v1/prices, all read from the ledger.
import { Hono } from "hono";
import type { AccountMe, AccountPrices, AccountUsageHistoryRow } from "../../../generated/client/types.gen.ts";
import { zAccountUsageHistoryQuery } from "../../../generated/client/zod.gen.ts";
import type { Services } from "../domain/services.ts";
import { CATALOG_VERSION, CATEGORIES, PLANS, UNIT_RATIOS, type Category } from "../platform/billing/plans.ts";
import { toDollars } from "../platform/billing/money.ts";
import type { UsageRow } from "../platform/billing/ledger.ts";
import { unixSeconds } from "../platform/clock.ts";
import { list, ok } from "../platform/envelope.ts";
import type { AppEnv } from "../platform/env.ts";
import { paginate, type SortKey } from "../platform/pagination.ts";
import { validQuery } from "../platform/validation.ts";

function usageRowView(r: UsageRow): AccountUsageHistoryRow {
  return {
    id: r.id,
    category: r.category,
    created_at: unixSeconds(r.created_ms),
    quantity: toDollars(r.amount),
    quantity_credits: toDollars(r.units),
    credit_rate_usd: toDollars(r.rate),
    billing_catalog_version: CATALOG_VERSION,
    credit_value_basis: "snapshot",
  };
}

const usageKey = (r: UsageRow): SortKey => [r.id, String(r.id).padStart(12, "0")];

export function accountResource(services: Services) {
  const app = new Hono<AppEnv>();
  const { ledger } = services;

  app.get("/me", (c) => {
    const { account, seat } = c.get("principal");
    const plan = PLANS[account.plan];
    const period = ledger.period(account.id);
    const rate = ledger.rate(account.id);
    const me: AccountMe = {
      id: seat.user_id,
      account_id: account.id,
      email: seat.email,
      name: seat.name,
      team_name: account.team_name,
      created_at: seat.created_at,
      members: [
        ...account.seats.map((s) => ({ type: "member" as const, user_id: s.user_id, email: s.email, name: s.name })),
        ...account.invitations.map((email) => ({ type: "invitation" as const, email })),
      ],
      teams: [{ account_id: account.id, name: account.team_name }],
      plan: { name: plan.display_name, type: plan.name, features: plan.features, limits: plan.limits },
      usage: {
        balance: toDollars(ledger.balance(account.id)),
        balance_used: toDollars(period.used),
        balance_total: toDollars(period.total),
        currency: "usd",
        credits_used: toDollars(period.used.div(rate)),
        credits_total: toDollars(period.total.div(rate)),
        renews_at: unixSeconds(period.renewsAtMs),
      },
    };
    return c.json(ok(me));
  });

  app.get("/me/usage_history", validQuery(zAccountUsageHistoryQuery, "Account_usageHistory"), (c) => {
    const { account } = c.get("principal");
    const q = c.req.valid("query");
    const page = paginate(ledger.rows(account.id), usageKey, { limit: q.limit, order: "desc", cursor: q.cursor, scope: { r: "usage_history" } });
    return c.json(list({ ...page, items: page.items.map(usageRowView) }));
  });

  app.get("/prices", (c) => {
    const { account } = c.get("principal");
    const rate = ledger.rate(account.id);
    const prices = {} as Record<Category, number>;
    const credits = {} as Record<Category, string>;
    for (const category of CATEGORIES) {
      prices[category] = toDollars(rate.mul(UNIT_RATIOS[category]));
      credits[category] = UNIT_RATIOS[category].toFixed(6);
    }
    const body: AccountPrices = {
      currency: "usd",
      rate: toDollars(rate),
      prices,
      prices_credits: credits,
      billing: { unit: "dollar", catalog_version: CATALOG_VERSION, precision: 6 },
    };
    return c.json(ok(body));
  });

  return app;
}
