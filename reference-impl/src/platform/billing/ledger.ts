// The account ledger. Chargeable work reserves its upper bound before it
// starts (check-and-debit in one synchronous step, so concurrent requests in
// this single-threaded server can never overdraw), then settles to actuals
// (refunding the rest) or releases the whole reservation. Work priced after
// the fact (assistant tokens) is charged with chargeAfter. Usage history rows
// are written here and nowhere else, numbered per account.
import type { Clock } from "../clock.ts";
import { InsufficientCreditsError, type ErrorCode } from "../errors.ts";
import { shortfallForced } from "../faults.ts";
import { money, toDecimalString, ZERO, type Money } from "./money.ts";
import { CATALOG_VERSION, PLANS, UNIT_RATIOS, type Category, type PlanName } from "./plans.ts";

export interface UsageRow {
  /** Per-account sequence: ids reveal nothing about other accounts. */
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
  /** Results reserved (the upper bound of the work). */
  readonly quantity: number;
  readonly amount: Money;
  readonly rate: Money;
  state: "held" | "settled" | "released";
}

/** One piece of an all-or-nothing reservation. */
export interface ReservationPart {
  category: Category;
  quantity: number;
}

interface AccountBook {
  plan: PlanName;
  balance: Money;
  held: Money;
  periodStartMs: number;
  periodCharged: Money;
  periodTotal: Money;
  rows: UsageRow[];
  nextRow: number;
}

export const TOP_UP_URL = "https://app.example.com/settings/billing";

export class Ledger {
  private readonly books = new Map<string, AccountBook>();
  private nextReservation = 1;

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
      nextRow: 1,
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

  /**
   * Reserve the price of `quantity` results or throw the 402 `errorCode`.
   * Synchronous by design: check and debit happen in one turn of the event
   * loop, so concurrent requests can never overdraw.
   */
  reserve(accountId: string, category: Category, quantity: number, errorCode: ErrorCode): Reservation {
    return this.reserveAll(accountId, [{ category, quantity }], errorCode)[0]!;
  }

  /**
   * Reserve several pieces of work all-or-nothing (an agent cycle over several
   * datasets): either every part is held, or a 402 names the whole sum and
   * nothing is held.
   */
  reserveAll(accountId: string, parts: readonly ReservationPart[], errorCode: ErrorCode): Reservation[] {
    const b = this.book(accountId);
    const amounts = parts.map((p) => {
      if (!Number.isFinite(p.quantity) || p.quantity < 0) throw new Error(`bad reservation quantity ${p.quantity}`);
      return this.quote(accountId, p.category, p.quantity);
    });
    const total = amounts.reduce((sum, a) => sum.add(a), ZERO);
    // An injected 402 (Prefer: fault=402) fails here with the real amounts, before anything is held.
    if (b.balance.lt(total) || shortfallForced()) throw this.shortfall(errorCode, total, b.balance);
    b.balance = b.balance.sub(total);
    b.held = b.held.add(total);
    const rate = PLANS[b.plan].rate;
    return parts.map((p, i) => ({
      id: this.nextReservation++,
      accountId,
      category: p.category,
      quantity: p.quantity,
      amount: amounts[i]!,
      rate,
      state: "held" as const,
    }));
  }

  /** Throw the 402 unless the balance holds at least `minimum` dollars. */
  requireBalance(accountId: string, minimum: Money, errorCode: ErrorCode): void {
    const b = this.book(accountId);
    if (b.balance.lt(minimum) || b.balance.isZero() || shortfallForced())
      throw this.shortfall(errorCode, minimum, b.balance);
  }

  private shortfall(errorCode: ErrorCode, required: Money, available: Money): InsufficientCreditsError {
    return new InsufficientCreditsError(errorCode, {
      message: `This request needs $${toDecimalString(required)} reserved; the balance is $${toDecimalString(available)}.`,
      required: toDecimalString(required),
      available: toDecimalString(available),
      top_up_url: TOP_UP_URL,
    });
  }

  /**
   * Charge the price of `delivered` results (at most the reservation), refund
   * the rest and write one usage row.
   */
  settle(reservation: Reservation, delivered: number): UsageRow | undefined {
    const quantity = Math.max(0, Math.min(delivered, reservation.quantity));
    return this.settleAmount(reservation, reservation.rate.mul(UNIT_RATIOS[reservation.category]).mul(quantity));
  }

  /** Charge `actual` dollars (clamped to the reservation), refund the rest. */
  settleAmount(reservation: Reservation, actual: Money): UsageRow | undefined {
    if (reservation.state !== "held") throw new Error(`reservation ${reservation.id} is ${reservation.state}`);
    const b = this.book(reservation.accountId);
    const charged = actual.gt(reservation.amount) ? reservation.amount : actual.isNegative() ? ZERO : actual;
    b.held = b.held.sub(reservation.amount);
    b.balance = b.balance.add(reservation.amount.sub(charged));
    reservation.state = "settled";
    return this.record(b, reservation.accountId, reservation.category, charged, reservation.rate);
  }

  /** Refund the whole reservation. */
  release(reservation: Reservation): void {
    if (reservation.state !== "held") throw new Error(`reservation ${reservation.id} is ${reservation.state}`);
    const b = this.book(reservation.accountId);
    b.held = b.held.sub(reservation.amount);
    b.balance = b.balance.add(reservation.amount);
    reservation.state = "released";
  }

  /**
   * A charge settled after the fact, with no reservation (the assistant's
   * token charge). It never overdraws: at most the balance is taken. Returns
   * the row written, if any.
   */
  chargeAfter(accountId: string, category: Category, amount: Money): UsageRow | undefined {
    const b = this.book(accountId);
    const wanted = amount.isNegative() ? ZERO : amount;
    const charged = wanted.gt(b.balance) ? b.balance : wanted;
    b.balance = b.balance.sub(charged);
    return this.record(b, accountId, category, charged, PLANS[b.plan].rate);
  }

  private record(
    b: AccountBook,
    accountId: string,
    category: Category,
    charged: Money,
    rate: Money,
  ): UsageRow | undefined {
    b.periodCharged = b.periodCharged.add(charged);
    if (charged.isZero()) return undefined;
    const row: UsageRow = {
      id: b.nextRow++,
      account_id: accountId,
      category,
      created_ms: this.clock.now(),
      amount: charged,
      units: charged.div(rate),
      rate,
    };
    b.rows.push(row);
    return row;
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

  /** Every book as plain data with decimal strings (state snapshots, --state). */
  snapshot(): LedgerImage {
    const s = (m: Money) => m.toString();
    return {
      nextReservation: this.nextReservation,
      books: [...this.books].map(([accountId, b]) => ({
        accountId,
        plan: b.plan,
        balance: s(b.balance),
        held: s(b.held),
        periodStartMs: b.periodStartMs,
        periodCharged: s(b.periodCharged),
        periodTotal: s(b.periodTotal),
        nextRow: b.nextRow,
        rows: b.rows.map((r) => ({ ...r, amount: s(r.amount), units: s(r.units), rate: s(r.rate) })),
      })),
    };
  }

  /**
   * Load books saved by `snapshot`. Nothing is in flight after a restart, so
   * whatever was held for work under way goes back to the balance (the runs
   * it was held for are failed with a full refund: persistence/restore.ts).
   */
  restore(image: LedgerImage): void {
    this.books.clear();
    this.nextReservation = image.nextReservation;
    for (const b of image.books) {
      this.books.set(b.accountId, {
        plan: b.plan,
        balance: money(b.balance).add(money(b.held)),
        held: ZERO,
        periodStartMs: b.periodStartMs,
        periodCharged: money(b.periodCharged),
        periodTotal: money(b.periodTotal),
        nextRow: b.nextRow,
        rows: b.rows.map((r) => ({ ...r, amount: money(r.amount), units: money(r.units), rate: money(r.rate) })),
      });
    }
  }
}

type Stringed<T> = { [K in keyof T]: T[K] extends Money ? string : T[K] };

/** The ledger as plain data (Ledger.snapshot / restore). */
export interface LedgerImage {
  nextReservation: number;
  books: (Stringed<Omit<AccountBook, "rows">> & { accountId: string; rows: Stringed<UsageRow>[] })[];
}
