// Time goes through a Clock so the pipeline and the rate limiter can run on a
// ManualClock in tests: time only moves when a test advances it.
export type Cancel = () => void;

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Run `task` after `delayMs` milliseconds of this clock's time. */
  schedule(delayMs: number, task: () => unknown): Cancel;
}

export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
  schedule(delayMs: number, task: () => unknown): Cancel {
    const handle = setTimeout(() => void task(), Math.max(0, delayMs));
    return () => clearTimeout(handle);
  }
}

interface Timer {
  at: number;
  seq: number;
  task: () => unknown;
}

export class ManualClock implements Clock {
  private current: number;
  private seq = 0;
  private timers: Timer[] = [];

  constructor(start: number | Date = Date.UTC(2026, 10, 2, 9, 0, 0)) {
    this.current = typeof start === "number" ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  schedule(delayMs: number, task: () => unknown): Cancel {
    const timer: Timer = { at: this.current + Math.max(0, delayMs), seq: this.seq++, task };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Pending timers. */
  get pending(): number {
    return this.timers.length;
  }

  /**
   * Move time forward by `ms`, running every timer that falls due in order
   * (including timers scheduled by the tasks themselves) and awaiting each.
   */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.current = Math.max(this.current, next.at);
      await next.task();
    }
    this.current = target;
  }

  /** Run timers until none is left (bounded), advancing time to each. */
  async runAll(maxSteps = 100_000): Promise<void> {
    for (let i = 0; i < maxSteps && this.timers.length > 0; i++) {
      const next = this.nextDue(Number.POSITIVE_INFINITY)!;
      this.timers = this.timers.filter((t) => t !== next);
      this.current = Math.max(this.current, next.at);
      await next.task();
    }
  }

  private nextDue(limit: number): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) {
      if (t.at > limit) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    return best;
  }
}

export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** Recently formatted instants: rows are read far more often than written (throughput). */
const isoMemo = new Map<number, string>();
const ISO_MEMO_SIZE = 4096;

export function isoTimestamp(ms: number): string {
  let iso = isoMemo.get(ms);
  if (iso === undefined) {
    iso = new Date(ms).toISOString();
    if (isoMemo.size >= ISO_MEMO_SIZE) isoMemo.clear();
    isoMemo.set(ms, iso);
  }
  return iso;
}
