// What the run really cost the account under test, next to what it
// committed. The balance of the main key's account (GET /v1/me, a free read)
// is read once before the first check that commits money and again after
// every check that committed some, so each such check is given the balance's
// fall since the reading before it. A run the check left in flight settles
// later and lands in the next reading (its reservation is already off the
// balance; a refund comes back then), so the figures per check are honest
// about when the money moved, and their sum is exact: the last reading waits,
// after the cleanup, until the balance holds still.
import type { Decimal } from "decimal.js";
import { dec } from "../checks/support/decimal.ts";
import type { HttpClient } from "../http.ts";
import { isObject } from "../typed.ts";
import type { Budget } from "./budget.ts";

/** The exchanges of these readings are recorded under this name (not a check). */
export const SPEND_READER = "kit-spend";

export interface CheckSpend {
  check: string;
  /** committed through the budget guard and not released */
  committedUsd: string;
  /** the balance's fall since the reading before this check (undefined: the balance could not be read) */
  settledUsd?: string;
}

export interface SpendReport {
  /** committed over the run (the budget guard's total) */
  committedUsd: string;
  /** the --budget limit the run ran under (undefined: none) */
  budgetUsd?: number;
  /** opening minus closing balance of the main account; undefined when no check committed money or a read failed */
  settledUsd?: string;
  byCheck: CheckSpend[];
  /** settled after the last check ended (runs still in flight, the cleanup) */
  afterChecksUsd?: string;
  /** every commitment the guard accepted, in order (`at`: the run's exchange count then; released: charged nothing) */
  commitments: Array<{
    check: string;
    scenario?: string;
    usd: string;
    what: string;
    at: number;
    released: boolean;
    order: number;
    releasedOrder?: number;
  }>;
  /** the shared scenarios each check used */
  uses: Record<string, string[]>;
  note?: string;
}

export class SpendTracker {
  private opening?: Decimal;
  private last?: Decimal;
  private readonly byCheck: CheckSpend[] = [];
  private tail?: Decimal;
  private failed = false;

  constructor(
    private readonly client: HttpClient,
    private readonly budget: Budget,
    /** false when the profile never charges (readonly) or the key cannot read /v1/me */
    private readonly enabled: boolean,
  ) {}

  /** The opening balance, read before the first keyed check of a chargeable profile. */
  async open(): Promise<void> {
    if (!this.enabled || this.opening !== undefined || this.failed) return;
    this.opening = this.last = await this.balance();
  }

  /** After a check: when it committed money, the balance again; the fall since the last reading is the check's. */
  async afterCheck(check: string): Promise<void> {
    const committed = this.budget.committedBy(check);
    if (!this.enabled || committed.isZero()) return;
    const now = this.failed ? undefined : await this.balance();
    const settled = this.last !== undefined && now !== undefined ? this.last.minus(now) : undefined;
    this.byCheck.push({ check, committedUsd: committed.toFixed(), settledUsd: settled?.toFixed() });
    if (now !== undefined) this.last = now;
  }

  /** After the cleanup: read until the balance holds still (bounded), the rest is settled after the checks. */
  async close(maxWaitMs = 20_000): Promise<void> {
    if (!this.enabled || this.last === undefined || this.failed || this.byCheck.length === 0) return;
    const until = Date.now() + maxWaitMs;
    let previous = await this.balance();
    while (previous !== undefined && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 2000));
      const now = await this.balance();
      if (now === undefined || now.equals(previous)) break;
      previous = now;
    }
    if (previous !== undefined) {
      this.tail = this.last.minus(previous);
      this.last = previous;
    }
  }

  /** What one check committed and settled (undefined: it committed nothing). */
  of(check: string): CheckSpend | undefined {
    return this.byCheck.find((c) => c.check === check);
  }

  report(): SpendReport {
    const settled = this.opening !== undefined && this.last !== undefined ? this.opening.minus(this.last) : undefined;
    return {
      committedUsd: this.budget.spentUsd(),
      budgetUsd: this.budget.limit(),
      settledUsd: this.failed || this.byCheck.length === 0 ? undefined : settled?.toFixed(),
      byCheck: this.byCheck,
      afterChecksUsd: this.tail?.toFixed(),
      commitments: this.budget.commitments.map((c) => ({ ...c, usd: c.usd.toFixed() })),
      uses: Object.fromEntries([...this.budget.uses].map(([check, names]) => [check, [...names].sort()])),
      note: this.failed
        ? "the balance could not be read (GET /v1/me gave no usage.balance): settled spend unknown"
        : undefined,
    };
  }

  private async balance(): Promise<Decimal | undefined> {
    try {
      const ex = await this.client.request({ method: "GET", path: "/v1/me", key: "main", check: SPEND_READER });
      const data = isObject(ex.json) ? ex.json.data : undefined;
      const usage = isObject(data) ? data.usage : undefined;
      const b = isObject(usage) ? dec(usage.balance) : undefined;
      if (b === undefined) this.failed = true;
      return b;
    } catch {
      this.failed = true;
      return undefined;
    }
  }
}
