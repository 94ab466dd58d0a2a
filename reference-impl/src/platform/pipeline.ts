// Async job runner on the clock. A job is a list of steps; each waits
// `stepDelayMs` of clock time, then runs. A throwing step stops the job and
// hands the error to `onFailure`. Delay 0 still goes through the clock, so a
// ManualClock test decides when work happens.
import type { Clock } from "./clock.ts";

/**
 * Work written as a generator that `yield`s between bounded pieces (a few
 * hundred posts, one k-means iteration), so a long step does not hold the
 * event loop: another account's request runs in between ("no
 * tenant stalls another"). Its return value is the step's result.
 */
export type Sliced<T = unknown> = Generator<unknown, T, unknown>;

/**
 * A piece a library cannot cut (e.g. one k-means fit): sliced work yields
 * it and receives its result. `drainSliced` awaits `offThread` (a worker
 * thread), `drainNow` calls `inThread`; both must give the same answer.
 */
export interface OffThreadPiece<T = unknown> {
  offThread: () => Promise<T>;
  inThread: () => T;
}

function isOffThread(value: unknown): value is OffThreadPiece {
  return typeof value === "object" && value !== null && typeof (value as OffThreadPiece).offThread === "function";
}

/** Inside sliced work: `const result = yield* runOffThread({offThread, inThread})`. */
export function* runOffThread<T>(piece: OffThreadPiece<T>): Generator<OffThreadPiece<T>, T, unknown> {
  return (yield piece) as T;
}

/** Longest stretch a sliced step runs before it lets the event loop in, in ms of real time. */
export const SLICE_BUDGET_MS = 8;

export function isSliced(value: unknown): value is Sliced {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Sliced).next === "function" &&
    typeof (value as Sliced)[Symbol.iterator] === "function"
  );
}

/** Run sliced work to its end at once (fixtures seeded before the server listens, plain function callers). */
export function drainNow<T>(work: Sliced<T>): T {
  let input: unknown;
  for (;;) {
    const r = work.next(input);
    if (r.done) return r.value;
    input = isOffThread(r.value) ? r.value.inThread() : undefined;
  }
}

/** Counts the pieces sliced work was cut into, so a test can see that a big input is not one chunk. */
export const sliceCounter = { pieces: 0 };

/**
 * One budget of SLICE_BUDGET_MS per event-loop iteration for all sliced
 * work together. With one budget per piece of work, four runs
 * landing at once each took their 8 ms in the same check phase, and a
 * request arriving meanwhile waited for all of them (40-60 ms stretches
 * while a million posts loaded). Now the work waiting for a turn queues,
 * and each iteration of the loop resumes the first in line, which runs
 * until the budget is spent and then queues again at the back: first come,
 * first served, and between two iterations the loop reads sockets and
 * fires timers.
 */
let windowStart = Number.NEGATIVE_INFINITY;
const waiting: (() => void)[] = [];
let windowScheduled = false;

function openWindow(): void {
  windowScheduled = false;
  windowStart = performance.now();
  waiting.shift()?.();
  if (waiting.length > 0) scheduleWindow();
}

function scheduleWindow(): void {
  if (windowScheduled) return;
  windowScheduled = true;
  // `setImmediate`, not the Clock: a ManualClock task waiting on another
  // clock task would never be run (runAll awaits the first), and pieces must
  // not wait STEP_DELAY_MS.
  setImmediate(openWindow);
}

/** Whether the current iteration's budget for sliced work is spent. */
export function sliceBudgetSpent(): boolean {
  return performance.now() - windowStart >= SLICE_BUDGET_MS;
}

/** Wait, in line, for a later iteration of the event loop with a fresh budget. */
export function nextSliceTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    scheduleWindow();
  });
}

/**
 * Run sliced work, giving the event loop a turn whenever the shared budget
 * of the current iteration is spent (see `nextSliceTurn`). The first piece
 * runs at once, so work started in a turn sees the state of that turn.
 * Where the pauses fall depends on the machine's speed; what is computed
 * does not (the generator decides the pieces).
 */
export async function drainSliced<T>(work: Sliced<T>): Promise<T> {
  let input: unknown;
  for (;;) {
    const r = work.next(input);
    if (r.done) return r.value;
    sliceCounter.pieces++;
    input = undefined;
    if (isOffThread(r.value)) {
      input = await r.value.offThread();
    } else if (sliceBudgetSpent()) {
      await nextSliceTurn();
    }
  }
}

export interface PipelineStep {
  name: string;
  /** May return sliced work (a generator): `start` drains it with event-loop turns, `runNow` at once. */
  run: () => unknown | Promise<unknown>;
}

export interface Job {
  steps: PipelineStep[];
  onFailure: (error: unknown, failedStep: string) => unknown | Promise<unknown>;
}

export interface PipelineOptions {
  /** Clock-time delay before each step, in ms (0 = immediate). */
  stepDelayMs: number;
}

export class Pipeline {
  private inFlight = 0;
  constructor(
    private readonly clock: Clock,
    readonly options: PipelineOptions,
  ) {}

  get running(): number {
    return this.inFlight;
  }

  /**
   * Run a job's steps now, synchronously, without the clock (used to seed
   * fixtures before the server listens). Steps must be synchronous.
   */
  runNow(job: Job): void {
    for (const step of job.steps) {
      try {
        const result = step.run();
        if (isSliced(result)) drainNow(result);
      } catch (error) {
        void job.onFailure(error, step.name);
        return;
      }
    }
  }

  start(job: Job): void {
    this.inFlight++;
    const runStep = async (index: number): Promise<void> => {
      const step = job.steps[index];
      if (!step) {
        this.inFlight--;
        return;
      }
      try {
        const result = step.run();
        await (isSliced(result) ? drainSliced(result) : result);
      } catch (error) {
        this.inFlight--;
        await job.onFailure(error, step.name);
        return;
      }
      this.clock.schedule(this.options.stepDelayMs, () => runStep(index + 1));
    };
    this.clock.schedule(this.options.stepDelayMs, () => runStep(0));
  }
}
