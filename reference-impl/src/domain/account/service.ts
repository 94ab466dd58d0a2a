// The caller's account: /v1/me (and svc__get_me), usage history and prices,
// all read from the directory and the ledger. Free; never charges.
import type { AccountMe, AccountPrices, AccountUsageHistoryRow } from "../../../../generated/client/types.gen.ts";
import type { Ledger, UsageRow } from "../../platform/billing/ledger.ts";
import { toDollars } from "../../platform/billing/money.ts";
import { CATALOG_VERSION, CATEGORIES, PLANS, UNIT_RATIOS, type Category } from "../../platform/billing/plans.ts";
import { unixSeconds } from "../../platform/clock.ts";
import type { Caller } from "../../platform/env.ts";
import { paginate, type PageResult, type SortKey } from "../../platform/pagination.ts";

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

/** `plan.type` names the billing kind (D-PLAN-TYPE): the trial, else a monthly subscription. */
function planType(plan: string): string {
  return plan === "trial" ? "trial" : "monthly";
}

/** What the account service needs from the composition root (compose.ts). */
export interface AccountNeeds {
  readonly ledger: Ledger;
}

export class AccountService {
  constructor(private readonly services: AccountNeeds) {}

  me(caller: Caller): AccountMe {
    const { account, seat } = caller;
    const { ledger } = this.services;
    const plan = PLANS[account.plan];
    const period = ledger.period(account.id);
    const rate = ledger.rate(account.id);
    // D-ME-USAGE: the three always add up. `balance` is what can be reserved
    // now; `balance_used` is the period's settled charges plus the
    // reservations held right now; `balance_total` is their sum (the opening
    // balance of the period plus top-ups). A reservation moves its amount from
    // `balance` to `balance_used`; its refund moves the unused part back.
    const balance = ledger.balance(account.id);
    const used = period.used.add(ledger.held(account.id));
    const total = balance.add(used);
    return {
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
      plan: { name: plan.display_name, type: planType(plan.name), features: plan.features, limits: plan.limits },
      usage: {
        balance: toDollars(balance),
        balance_used: toDollars(used),
        balance_total: toDollars(total),
        currency: "usd",
        credits_used: toDollars(used.div(rate)),
        credits_total: toDollars(total.div(rate)),
        renews_at: unixSeconds(period.renewsAtMs),
      },
    };
  }

  /** Account-wide (every seat sees the same feed), newest first (D-USAGE-ORDER). */
  usageHistory(caller: Caller, q: { limit: number; cursor?: string }): PageResult<AccountUsageHistoryRow> {
    const rows = this.services.ledger.rows(caller.account.id);
    const page = paginate(rows, usageKey, {
      limit: q.limit,
      order: "desc",
      cursor: q.cursor,
      scope: { r: "usage_history" },
    });
    return { ...page, items: page.items.map(usageRowView) };
  }

  prices(caller: Caller): AccountPrices {
    const rate = this.services.ledger.rate(caller.account.id);
    const prices = {} as Record<Category, number>;
    const credits = {} as Record<Category, string>;
    for (const category of CATEGORIES) {
      prices[category] = toDollars(rate.mul(UNIT_RATIOS[category]));
      credits[category] = UNIT_RATIOS[category].toFixed(6);
    }
    return {
      currency: "usd",
      rate: toDollars(rate),
      prices,
      prices_credits: credits,
      billing: { unit: "dollar", catalog_version: CATALOG_VERSION, precision: 6 },
    };
  }
}
