// Simulated network latency for the reference server as a development backend
// (D-REF-LATENCY). A delay is drawn from a seeded distribution per request, in the
// order requests arrive, and applied only after the answer is decided: the
// handler runs at full speed, then the finished response waits on a timer.
// Nothing holds the event loop, so a slow first tenant never slows a second
// one (bench/latency-tenants.ts measures that).
import type { MiddlewareHandler } from "hono";
import { Random } from "./random.ts";
import type { AppEnv } from "./env.ts";
import { preferences } from "./prefer.ts";

/** Upper bound of any delay, drawn or asked for (ms). */
export const MAX_DELAY_MS = 60_000;

export type LatencySpec =
  | { kind: "fixed"; ms: number }
  | { kind: "range"; min: number; max: number }
  | { kind: "lognormal"; median: number; sigma: number };

/**
 * Parse `--latency`: `50` (fixed), `50-400` (uniform range) or
 * `lognormal:120,0.5` (median ms, sigma of the log). Returns an error line
 * naming what is accepted when the text is none of these.
 */
export function parseLatency(text: string): { ok: true; spec: LatencySpec } | { ok: false; error: string } {
  const t = text.trim();
  const accepted = "expected N (ms), MIN-MAX (ms) or lognormal:MEDIAN,SIGMA (e.g. 50, 50-400, lognormal:120,0.5)";
  const whole = (s: string) => (/^\d+$/.test(s) ? Number(s) : NaN);
  let spec: LatencySpec | undefined;
  let m: RegExpMatchArray | null;
  if (/^\d+$/.test(t)) spec = { kind: "fixed", ms: whole(t) };
  else if ((m = t.match(/^(\d+)-(\d+)$/))) spec = { kind: "range", min: whole(m[1]!), max: whole(m[2]!) };
  else if ((m = t.match(/^lognormal:(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)$/)))
    spec = { kind: "lognormal", median: Number(m[1]), sigma: Number(m[2]) };
  if (!spec) return { ok: false, error: `"${text}": ${accepted}` };
  if (spec.kind === "fixed" && spec.ms > MAX_DELAY_MS)
    return { ok: false, error: `"${text}": at most ${MAX_DELAY_MS} ms` };
  if (spec.kind === "range" && (spec.min > spec.max || spec.max > MAX_DELAY_MS)) {
    return { ok: false, error: `"${text}": MIN must not exceed MAX, and MAX is at most ${MAX_DELAY_MS} ms` };
  }
  if (spec.kind === "lognormal" && (spec.median <= 0 || spec.median > MAX_DELAY_MS || spec.sigma > 5)) {
    return { ok: false, error: `"${text}": MEDIAN must be 1-${MAX_DELAY_MS} ms and SIGMA at most 5` };
  }
  return { ok: true, spec };
}

/** A seeded source of delays: the same seed gives the same sequence. */
export class LatencyDraw {
  private readonly random: Random;
  constructor(
    private readonly spec: LatencySpec | undefined,
    seed: number,
  ) {
    this.random = new Random(seed);
  }

  next(): number {
    const s = this.spec;
    if (!s) return 0;
    if (s.kind === "fixed") return s.ms;
    if (s.kind === "range") return this.random.int(s.min, s.max);
    // Box-Muller on two seeded uniforms; the median of exp(N(ln m, sigma)) is m.
    const u1 = Math.max(this.random.float(), Number.EPSILON);
    const u2 = this.random.float();
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    return Math.min(MAX_DELAY_MS, Math.round(s.median * Math.exp(s.sigma * z)));
  }
}

export interface LatencyOptions {
  spec?: LatencySpec;
  seed: number;
  /** Honour `Prefer: delay=N` on a request (off unless enabled: PREFER_DELAY). */
  preferDelay?: boolean;
}

/**
 * Middleware delaying the finished answer. Mounted on /v1/* only, so /health,
 * /openapi.json and the docs always answer at once. A request asking
 * `Prefer: delay=N` (when enabled) waits N ms instead of a drawn delay.
 */
export function latency(options: LatencyOptions): MiddlewareHandler<AppEnv> {
  const draw = new LatencyDraw(options.spec, options.seed);
  return async function simulateLatency(c, next) {
    // Drawn on arrival, so the sequence follows request order whatever the handlers' speed.
    let delay = draw.next();
    if (options.preferDelay) {
      const asked = preferences(c).delay;
      if (asked !== undefined && /^\d+$/.test(asked)) delay = Math.min(MAX_DELAY_MS, Number(asked));
    }
    await next();
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  };
}
