// Progress while the kit runs: check n/N, requests so far, elapsed time and an
// estimate of what is left at the deployment's advertised rate. Written to
// stderr on one rewritten line, and only for a person watching: quiet when CI
// is set, when stderr is not a TTY, or with -q.
import type { Progress } from "../runner.ts";
import { COST_PER_CHECK } from "../request-budget.ts";

export function progressEnabled(quiet: boolean, env = process.env, tty = !!process.stderr.isTTY): boolean {
  return !quiet && tty && !env.CI;
}

const fmt = (ms: number) =>
  ms >= 60_000
    ? `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")}s`
    : `${Math.round(ms / 1000)}s`;

/** One progress line (no newline). */
export function progressText(p: Progress): string {
  // the checks still to come, by the cost table (a check it does not know counts 5)
  const left = p.remaining.reduce((n, id) => n + (COST_PER_CHECK[id]?.requests ?? 5), 0);
  const eta = p.rate > 0 ? (left / p.rate) * 1000 : 0;
  return `[${p.done}/${p.total}] ${p.current ?? ""} · ${p.requests} requests · ${fmt(p.elapsedMs)} elapsed · ~${fmt(eta)} left at ${p.rate} req/s`;
}

export function progressWriter(out: NodeJS.WriteStream = process.stderr): (p: Progress) => void {
  return (p) => out.write(`\r\u001b[2K${progressText(p)}`);
}
