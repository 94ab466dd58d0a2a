// One run lifecycle for every kind of asynchronous, chargeable work (dataset,
// audience, pattern detection, custom parameter and agent runs). A group
// declares its RunKind (its state names, whether steps are listed, its price
// category and 402 code) and its steps; the lifecycle owns the rest:
//   reserve (402 before anything exists) -> pending -> working -> each step
//   stamps {name, completed_at} -> completed, settled to what was delivered;
//   or, when a step throws, failed with error_message and the whole
//   reservation released.
import type { Ledger, Reservation } from "../billing/ledger.ts";
import type { Category } from "../billing/plans.ts";
import { unixSeconds, type Clock } from "../clock.ts";
import type { ErrorCode } from "../errors.ts";
import { injectedRunFailure } from "../faults.ts";
import { isSliced, type Pipeline, type PipelineStep, type Sliced } from "../pipeline.ts";

export type Phase = "pending" | "working" | "completed" | "failed";

export interface StepStamp {
  name: string;
  completed_at: number;
}

/** The status envelope every run kind shares; `type` is the kind's own state name. */
export interface RunStatus<S extends string = string> {
  type: S;
  steps?: StepStamp[];
  error_message?: string;
}

/** What the lifecycle needs of a stored run row. */
export interface LifecycleRow<S extends string = string> {
  status: RunStatus<S>;
  updated_ms: number;
}

/** The seed's four run states, used as they are by dataset, audience and pattern detection runs. */
export const SEED_RUN_STATES = {
  pending: "pending",
  working: "working",
  completed: "completed",
  failed: "failed",
} as const;

export interface RunKind<S extends string = string> {
  /** For messages and logs, e.g. "dataset run". */
  label: string;
  /** The group's state name for each phase (custom parameter runs say `processing` for pending and working). */
  states: Record<Phase, S>;
  /** Whether the envelope lists `steps` (always present, empty while pending). */
  recordsSteps: boolean;
  category: Category;
  insufficientCode: ErrorCode;
}

export interface RunStep {
  name: string;
  /** Stamp `{name, completed_at}` on the status when the step ends (default true). */
  record?: boolean;
  /** May return sliced work (a generator, see pipeline.ts) so a long step lets other requests in. */
  run: () => unknown | Promise<unknown>;
}

export interface RunPlan<S extends string> {
  kind: RunKind<S>;
  row: LifecycleRow<S>;
  /** Taken with `reserve`/`ledger.reserveAll` before the row was created. */
  reservation: Reservation;
  steps: RunStep[];
  /** Results delivered, read once the last step ends; settles the reservation. */
  delivered: () => number;
  onCompleted?: () => unknown;
  onFailed?: (error: unknown) => unknown;
  /** Run every step synchronously now (fixtures seeded before the server listens). */
  inline?: boolean;
}

export class RunLifecycle {
  constructor(
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    private readonly pipeline: Pipeline,
  ) {}

  /** Reserve `quantity` results of the kind's category, or throw its 402. */
  reserve(kind: RunKind, accountId: string, quantity: number): Reservation {
    return this.ledger.reserve(accountId, kind.category, quantity, kind.insufficientCode);
  }

  initialStatus<S extends string>(kind: RunKind<S>): RunStatus<S> {
    return kind.recordsSteps ? { type: kind.states.pending, steps: [] } : { type: kind.states.pending };
  }

  isInFlight<S extends string>(kind: RunKind<S>, row: LifecycleRow<S>): boolean {
    const t = row.status.type;
    return t !== kind.states.completed && t !== kind.states.failed;
  }

  phaseOf<S extends string>(kind: RunKind<S>, row: LifecycleRow<S>): Phase {
    const t = row.status.type;
    if (t === kind.states.completed) return "completed";
    if (t === kind.states.failed) return "failed";
    return row.status.steps?.length || t === kind.states.working ? "working" : "pending";
  }

  /** Fail a run from outside its steps (e.g. its parent was deleted). */
  fail<S extends string>(plan: Pick<RunPlan<S>, "kind" | "row" | "reservation">, message: string): void {
    if (!this.isInFlight(plan.kind, plan.row)) return;
    if (plan.reservation.state === "held") this.ledger.release(plan.reservation);
    this.setStatus(plan.kind, plan.row, plan.kind.states.failed, message);
  }

  start<S extends string>(plan: RunPlan<S>): void {
    const { kind, row } = plan;
    // An injected run failure (Prefer: fault=run-failed) makes the first step
    // throw: the run fails like any other, reservation refunded in full.
    const injectedFailure = injectedRunFailure();
    // Completion rides on the last step (no extra clock delay after it).
    // Synchronous steps stay synchronous, so inline (fixture) runs finish
    // before createApp returns and their errors reach onFailure.
    const last = plan.steps.length - 1;
    const steps: PipelineStep[] = [
      {
        name: "start",
        run: () => {
          if (!this.guard(plan)) return;
          this.setStatus(kind, row, kind.states.working);
          if (last < 0) return this.complete(plan);
        },
      },
      ...plan.steps.map((step, i) => ({
        name: step.name,
        run: () => {
          if (!this.guard(plan)) return;
          if (injectedFailure !== undefined && i === 0) throw new Error(injectedFailure);
          const after = () => {
            if (step.record ?? true) this.stamp(kind, row, step.name);
            if (i === last) return this.complete(plan);
          };
          const result = step.run();
          if (isSliced(result)) return this.guarded(plan, result, after);
          return result instanceof Promise ? result.then(after) : after();
        },
      })),
    ];
    const job = {
      steps,
      onFailure: async (error: unknown) => {
        if (plan.reservation.state === "held") this.ledger.release(plan.reservation);
        this.setStatus(
          kind,
          row,
          kind.states.failed,
          error instanceof Error ? error.message : `The ${kind.label} failed.`,
        );
        await plan.onFailed?.(error);
      },
    };
    if (plan.inline) this.pipeline.runNow(job);
    else this.pipeline.start(job);
  }

  /**
   * Sliced step work, stopped between pieces when the run was failed from
   * outside meanwhile (e.g. its parent deleted), then the step's ending.
   */
  private *guarded<S extends string>(plan: RunPlan<S>, work: Sliced, after: () => unknown): Sliced {
    let input: unknown;
    for (;;) {
      const r = work.next(input);
      if (r.done) break;
      // Pieces run off the thread hand their result back in.
      input = yield r.value;
      if (!this.guard(plan)) return;
    }
    return after();
  }

  /** A run failed from outside (fail()) must not go on. */
  private guard<S extends string>(plan: RunPlan<S>): boolean {
    return this.isInFlight(plan.kind, plan.row);
  }

  private complete<S extends string>(plan: RunPlan<S>): unknown {
    if (!this.guard(plan)) return;
    this.ledger.settle(plan.reservation, plan.delivered());
    this.setStatus(plan.kind, plan.row, plan.kind.states.completed);
    return plan.onCompleted?.();
  }

  private stamp<S extends string>(kind: RunKind<S>, row: LifecycleRow<S>, name: string): void {
    if (!kind.recordsSteps) return;
    const steps = [...(row.status.steps ?? []), { name, completed_at: unixSeconds(this.clock.now()) }];
    row.status = { type: kind.states.working, steps };
    row.updated_ms = this.clock.now();
  }

  private setStatus<S extends string>(kind: RunKind<S>, row: LifecycleRow<S>, type: S, errorMessage?: string): true {
    const status: RunStatus<S> = { type };
    if (kind.recordsSteps) status.steps = row.status.steps ?? [];
    if (errorMessage !== undefined) status.error_message = errorMessage;
    row.status = status;
    row.updated_ms = this.clock.now();
    return true;
  }
}
