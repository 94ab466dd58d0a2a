// Async job runner on the clock. A job is a list of steps; each waits
// `stepDelayMs` of clock time, then runs. A throwing step stops the job and
// hands the error to `onFailure`. Delay 0 still goes through the clock, so a
// ManualClock test decides when work happens.
import type { Clock } from "./clock.ts";

export interface PipelineStep {
  name: string;
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
        step.run();
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
        await step.run();
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
