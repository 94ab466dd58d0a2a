// The budget guard: every chargeable request first commits what it may cost,
// and the run refuses (skips the check) once --budget would be exceeded. A
// request that turned out to charge nothing releases its commitment.
import { Decimal } from "decimal.js";
import { SkipError } from "../skip.ts";

export class Budget {
  private spent = new Decimal(0);

  /** `limitUsd` undefined: no limit, only the running total. */
  constructor(private readonly limitUsd: number | undefined) {}

  /** Charge `usd` for `what` against the budget; the returned function releases it (once). */
  charge(usd: number | string, what: string): () => void {
    const amount = new Decimal(usd);
    if (this.limitUsd !== undefined && this.spent.plus(amount).greaterThan(this.limitUsd)) {
      throw new SkipError(
        `budget guard: ${what} may cost $${amount.toFixed()} and $${this.spent.toFixed()} of $${this.limitUsd} is committed`,
      );
    }
    this.spent = this.spent.plus(amount);
    let released = false;
    return () => {
      if (!released) this.spent = this.spent.minus(amount);
      released = true;
    };
  }

  /** What is committed now, in dollars (exact decimal text). */
  spentUsd(): string {
    return this.spent.toFixed();
  }
}
