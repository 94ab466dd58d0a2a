// How a caller follows a run (the CLI's progress line and console, tests):
// hooks called around the preflight and every check, and the progress figure.
import type { ActiveCheck, Check, CheckResult } from "../types.ts";
import type { CheckSpend } from "./spend.ts";

export interface Progress {
  /** checks finished, of total */
  done: number;
  total: number;
  current?: string;
  requests: number;
  elapsedMs: number;
  /** the advertised RateLimit-Limit of the main key (requests per second) */
  rate: number;
  /** ids of the checks still to run */
  remaining: string[];
}

export interface RunHooks {
  /** after the preflight, before the first check */
  onStart?(): void;
  /** progress after every check start and end */
  onProgress?(p: Progress): void;
  /** stop after the current request (Ctrl-C); cleanup still runs */
  signal?: AbortSignal;
  onCheckStart?(check: Check): void;
  /**
   * Awaited before an active check that applies runs (the CLI's --hooks
   * beforeCheck); a string returned skips the check with that reason.
   */
  beforeCheck?(check: ActiveCheck): Promise<string | undefined | void>;
  /** Awaited after an active check that applies ran (or was skipped by beforeCheck), before it is reported. */
  afterCheck?(check: ActiveCheck, result: CheckResult): Promise<void>;
  /** a check ended; `spend` when it committed money (committed and settled dollars) */
  onCheckEnd?(check: Check, result: CheckResult, spend?: CheckSpend): void;
  log?(line: string): void;
  checks?: Check[];
}
