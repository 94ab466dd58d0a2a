// The run's side of the hooks: which checks are done, and the progress figure
// after each check starts and ends. Every finished result goes to `results`
// here, in the order the checks finish.
import type { HttpClient } from "../http.ts";
import type { Check, CheckResult } from "../types.ts";
import type { RunHooks } from "./hooks.ts";

export class RunProgress {
  private readonly finished = new Set<string>();

  constructor(
    private readonly ids: string[],
    private readonly results: CheckResult[],
    private readonly client: HttpClient,
    private readonly hooks: RunHooks,
    private readonly started: number,
  ) {}

  /** A check begins; `announce` also reports it as the current one. */
  begin(check: Check, announce: boolean): void {
    this.hooks.onCheckStart?.(check);
    if (announce) this.report(check.id);
  }

  end(check: Check, result: CheckResult): void {
    this.results.push(result);
    this.finished.add(check.id);
    this.hooks.onCheckEnd?.(check, result);
    this.report();
  }

  private report(current?: string): void {
    this.hooks.onProgress?.({
      done: this.finished.size,
      total: this.ids.length,
      current,
      requests: this.client.requestCount,
      elapsedMs: Date.now() - this.started,
      rate: this.client.limiter("main").limit,
      remaining: this.ids.filter((id) => !this.finished.has(id) && id !== current),
    });
  }
}
