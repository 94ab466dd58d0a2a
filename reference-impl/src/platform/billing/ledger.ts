// The account ledger. Chargeable work reserves its upper bound before it
// starts (check-and-debit in one synchronous step, so concurrent requests in
// this single-threaded server can never overdraw), then settles to actuals
// (refunding the rest) or releases the whole reservation. Usage history rows
// are written here and nowhere else.
import type { Clock } from "../clock.ts";
import { InsufficientCreditsError, type ErrorCode } from "../errors.ts";
import { money, toDecimalString, ZERO, type Money } from "./money.ts";
import { CATALOG_VERSION, PLANS, UNIT_RATIOS, type Category, type PlanName } from "./plans.ts";

export interface UsageRow {
  id: number;
  account_id: string;
  category: Category;
  created_ms: number;
  /** Dollars charged (non-negative). */
  amount: Money;
  /** Units charged (credits at the plan's rate). */
  units: Money;
  rate: Money;
}

export interface Reservation {
  readonly id: number;
  readonly accountId: string;
  readonly category: Category;
  readonly amount: Money;
  readonly rate: Money;
  state: "held" | "settled" | "released";
}

interface AccountBook {
  plan: PlanName;
  balance: Money;
  held: Money;
  periodStartMs: number;
  periodCharged: Money;
  periodTotal: Money;
  rows: UsageRow[];
}

export const TOP_UP_URL = "https://app.example.com/settings/billing";

export class Ledger {
  private readonly books = new Map<string, AccountBook>();
  private nextReservation = 1;
  private nextRow = 1;

  constructor(private readonly clock: Clock) {}

  open(accountId: string, plan: PlanName, balance: Money, periodTotal: Money = PLANS[plan].monthly_price): void {
    this.books.set(accountId, {
      plan,
      balance,
      held: ZERO,
      periodStartMs: this.clock.now(),
      periodCharged: ZERO,
      periodTotal,
      rows: [],
    });
  }

  private book(accountId: string): AccountBook {
    const b = this.books.get(accountId);
    if (!b) throw new Error(`no ledger for account ${accountId}`);
    return b;
  }

  balance(accountId: string): Money {
    return this.book(accountId).balance;
  }

  held(accountId: string): Money {
    return this.book(accountId).held;
  }

  plan(accountId: string): PlanName {
    return this.book(accountId).plan;
  }

  rate(accountId: string): Money {
    return PLANS[this.book(accountId).plan].rate;
  }

  unitPrice(accountId: string, category: Category): Money {
    return this.rate(accountId).mul(UNIT_RATIOS[category]);
  }

  period(accountId: string): { used: Money; total: Money; renewsAtMs: number } {
    const b = this.book(accountId);
    return { used: b.periodCharged, total: b.periodTotal, renewsAtMs: b.periodStartMs + 30 * 86_400_000 };
  }

  /** Price of `quantity` results of a category for this account. */
  quote(accountId: string, category: Category, quantity: number): Money {
    return this.unitPrice(accountId, category).mul(quantity);
  }

  /** Reserve `amount` or throw a 402 with `errorCode`. Synchronous by design. */
  reserve(accountId: string, category: Category, amount: Money, errorCode: ErrorCode): Reservation {
    const b = this.book(accountId);
    if (amount.isNegative()) throw new Error("negative reservation");
    if (b.balance.lt(amount)) {
      throw new InsufficientCreditsError(errorCode, {
        message: `This request needs $${toDecimalString(amount)} reserved; the balance is $${toDecimalString(b.balance)}.`,
        required: toDecimalString(amount),
        available: toDecimalString(b.balance),
        top_up_url: TOP_UP_URL,
      });
    }
    b.balance = b.balance.sub(amount);
    b.held = b.held.add(amount);
    return {
      id: this.nextReservation++,
      accountId,
      category,
      amount,
      rate: PLANS[b.plan].rate,
      state: "held",
    };
  }

  /** Charge `actual` (at most the reservation), refund the rest, write one usage row. */
  settle(reservation: Reservation, actual: Money): UsageRow | undefined {
    if (reservation.state !== "held") throw new Error(`reservation ${reservation.id} is ${reservation.state}`);
    const b = this.book(reservation.accountId);
    const charged = actual.gt(reservation.amount) ? reservation.amount : actual.isNegative() ? ZERO : actual;
    b.held = b.held.sub(reservation.amount);
    b.balance = b.balance.add(reservation.amount.sub(charged));
    b.periodCharged = b.periodCharged.add(charged);
    reservation.state = "settled";
    if (charged.isZero()) return undefined;
    const row: UsageRow = {
      id: this.nextRow++,
      account_id: reservation.accountId,
      category: reservation.category,
      created_ms: this.clock.now(),
      amount: charged,
      units: charged.div(reservation.rate),
      rate: reservation.rate,
    };
    b.rows.push(row);
    return row;
  }

  /** Refund the whole reservation. */
  release(reservation: Reservation): void {
    if (reservation.state !== "held") throw new Error(`reservation ${reservation.id} is ${reservation.state}`);
    const b = this.book(reservation.accountId);
    b.held = b.held.sub(reservation.amount);
    b.balance = b.balance.add(reservation.amount);
    reservation.state = "released";
  }

  /** Usage rows of the account, oldest first (ids ascend with time). */
  rows(accountId: string): readonly UsageRow[] {
    return this.book(accountId).rows;
  }

  /** Sum of every settled charge. */
  charged(accountId: string): Money {
    return this.book(accountId).rows.reduce((sum, r) => sum.add(r.amount), money(0));
  }

  static catalogVersion = CATALOG_VERSION;
}
