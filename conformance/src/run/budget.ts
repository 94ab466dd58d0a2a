// The budget guard: every chargeable request first commits what it may cost,
// and the run refuses (skips the check) once --budget would be exceeded. A
// request that turned out to charge nothing releases its commitment. Each
// commitment is recorded under the check that made it (the keyed lane runs
// one check at a time; RunProgress says which), and under the shared
// scenario (ctx.shared) it was made in, if any: a scenario is paid by the
// first check that needs it, so the cost table keeps it apart and a plan for
// any selection of checks adds each scenario they use once. Negative cases
// (requests a conformant deployment refuses) also fit in their own room: a
// deployment that accepts them, as it may where the seed leaves a bound
// open, keeps their commitment, and that must not starve the checks the
// plan was sized for.
import { Decimal } from "decimal.js";
import { SkipError } from "../skip.ts";

/** One commitment as the guard saw it. */
export interface Commitment {
  check: string;
  /** the shared scenario it was made in (run/session.ts tells the guard which one is running) */
  scenario?: string;
  usd: Decimal;
  what: string;
  /** how many exchanges the run had recorded when it was made: the chargeable request is the check's next one */
  at: number;
  released: boolean;
  /** a negative case (held until the deployment refuses it) */
  negative?: boolean;
  /** order of the guard's events (commitments and releases), to replay what was held at once */
  order: number;
  releasedOrder?: number;
}

export class Budget {
  private spent = new Decimal(0);
  private negativeHeld = new Decimal(0);
  private current = "setup";
  private events = 0;
  private running: string[] = [];
  readonly commitments: Commitment[] = [];
  /** the shared scenarios each check used (started or awaited) */
  readonly uses = new Map<string, Set<string>>();

  /**
   * `limitUsd` undefined: no limit, only the running total. `position` tells
   * how far the run's traffic has got (the HTTP client's exchange count).
   */
  constructor(
    private readonly limitUsd: number | undefined,
    private readonly position: () => number = () => 0,
    /** the most negative cases may keep committed at once (undefined: only the limit) */
    private readonly negativeRoomUsd?: number,
  ) {}

  /** The check whose commitments follow. */
  enter(check: string): void {
    this.current = check;
  }

  /** The current check needs the shared scenario `name` (started by it or by an earlier check). */
  use(name: string): void {
    const set = this.uses.get(this.current) ?? new Set<string>();
    set.add(name);
    this.uses.set(this.current, set);
  }

  /** The scenario `name` runs until `done` settles: commitments made meanwhile are its own. */
  scenario(name: string, done: Promise<unknown>): void {
    this.use(name);
    this.running.push(name);
    const end = () => {
      this.running = this.running.filter((n) => n !== name);
    };
    done.then(end, end);
  }

  /** Charge `usd` for `what` against the budget; the returned function releases it (once). */
  charge(usd: number | string, what: string, o: { negative?: boolean } = {}): () => void {
    const amount = new Decimal(usd);
    if (this.limitUsd !== undefined && this.spent.plus(amount).greaterThan(this.limitUsd)) {
      throw new SkipError(
        `budget guard: ${what} may cost $${amount.toFixed()} and $${this.spent.toFixed()} of $${this.limitUsd} is committed`,
      );
    }
    const negative = o.negative === true;
    if (
      negative &&
      this.negativeRoomUsd !== undefined &&
      this.negativeHeld.plus(amount).greaterThan(this.negativeRoomUsd)
    ) {
      throw new SkipError(
        `budget guard: ${what} may cost $${amount.toFixed()} and negative cases the deployment accepted keep $${this.negativeHeld.toFixed()} of their room of $${this.negativeRoomUsd} committed`,
      );
    }
    this.spent = this.spent.plus(amount);
    if (negative) this.negativeHeld = this.negativeHeld.plus(amount);
    const c: Commitment = {
      check: this.current,
      scenario: this.running.at(-1),
      usd: amount,
      what,
      ...(negative ? { negative } : {}),
      at: this.position(),
      released: false,
      order: this.events++,
    };
    this.commitments.push(c);
    return () => {
      if (c.released) return;
      this.spent = this.spent.minus(amount);
      if (negative) this.negativeHeld = this.negativeHeld.minus(amount);
      c.released = true;
      c.releasedOrder = this.events++;
    };
  }

  /** What is committed now, in dollars (exact decimal text). */
  spentUsd(): string {
    return this.spent.toFixed();
  }

  /** The limit, if any. */
  limit(): number | undefined {
    return this.limitUsd;
  }

  /** What one check committed and did not release. */
  committedBy(check: string): Decimal {
    return this.commitments
      .filter((c) => c.check === check && !c.released)
      .reduce((sum, c) => sum.plus(c.usd), new Decimal(0));
  }
}
