// The run's side of the hooks: which checks are done, the progress figure
// after each check starts and ends, and the awaited steps around an active
// check (the caller's before/after hooks). Every finished result goes to
// `results` here, in the order the checks finish.
import type { ActiveCheck, Check, CheckResult } from "../types.ts";
import type { RunHooks } from "./hooks.ts";
import type { RunSession } from "./session.ts";

export class RunProgress {
  private readonly finished = new Set<string>();

  constructor(
    private readonly ids: string[],
    private readonly results: CheckResult[],
    private readonly session: RunSession,
    private readonly hooks: RunHooks,
    private readonly started: number,
  ) {}

  /** A check begins; `announce` also reports it as the current one. */
  begin(check: Check, announce: boolean): void {
    // the keyed lane runs one check at a time: what it commits is this check's (the anonymous lane never charges)
    if (check.kind === "active" && check.lane !== "anonymous") this.session.budget.enter(check.id);
    this.hooks.onCheckStart?.(check);
    if (announce) this.report(check.id);
  }

  /** Before an applicable active check runs: the caller's hook; a reason returned skips the check. */
  async before(check: ActiveCheck): Promise<string | undefined> {
    // the opening balance, before the first keyed check (a readonly or mock run reads none)
    if (check.lane !== "anonymous") await this.session.spend.open();
    try {
      return (await this.hooks.beforeCheck?.(check)) ?? undefined;
    } catch (e) {
      return `beforeCheck hook failed: ${(e as Error)?.message ?? String(e)}`;
    }
  }

  /** After it ran: what it settled (chargeable checks), then the caller's hook; a hook that throws is a warning. */
  async after(check: ActiveCheck, result: CheckResult): Promise<void> {
    await this.session.spend.afterCheck(check.id);
    try {
      await this.hooks.afterCheck?.(check, result);
    } catch (e) {
      result.warnings.push(`afterCheck hook failed: ${(e as Error)?.message ?? String(e)}`);
    }
  }

  end(check: Check, result: CheckResult): void {
    this.results.push(result);
    this.finished.add(check.id);
    this.hooks.onCheckEnd?.(check, result, this.session.spend.of(check.id));
    this.report();
  }

  private report(current?: string): void {
    const { client } = this.session;
    this.hooks.onProgress?.({
      done: this.finished.size,
      total: this.ids.length,
      current,
      requests: client.requestCount,
      elapsedMs: Date.now() - this.started,
      rate: client.limiter("main").limit,
      remaining: this.ids.filter((id) => !this.finished.has(id) && id !== current),
    });
  }
}
