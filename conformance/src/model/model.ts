// Model-based test of a run state machine, for any run kind of the contract
// (dataset, audience, custom parameter, pattern detection and agent runs).
// The model is simpler than the system: for each run the kit started it
// remembers only the last observed state, steps, counts and updated_at, and
// checks every new observation against the transitions the kind allows
//   pending → working… → completed | failed   (a poll may skip any middle state)
// terminal states never change, steps only grow and their timestamps never
// go back, counts never shrink and stay consistent.
import type { CheckContext } from "../types.ts";
import type { Exchange } from "../http.ts";
import type { RunStates } from "../groups/types.ts";
import { isObject } from "../typed.ts";

/** A run as the deployment sent it: a JSON object of any run kind, none of its fields promised. */
export type RunBody = Record<string, unknown>;

/** What the model needs to know about one run kind (from its group descriptor). */
export interface RunKindModel {
  /** the check id violations are reported under */
  check: string;
  states: RunStates;
  /** the status sits at `status.type` or directly at `status` */
  statusAt: "status.type" | "status";
  /** counters that never shrink; `within` lists counters bounded by another (images ≤ mentions) */
  counts: string[];
  within?: Array<[string, string]>;
  /** the requested size, if the run echoes it (mentions_count ≤ params.count) */
  requested?: (run: RunBody | undefined) => number | undefined;
  /** counter that must not exceed `requested` */
  boundedCounter?: string;
  /** whether counters must be 0 while pending */
  zeroWhilePending?: boolean;
}

export interface Seen {
  type: string;
  /**
   * each step's name as sent (compared, never read as text) and its
   * completed_at in seconds, or null while the step has not completed (sent
   * as null or absent: never read as 0)
   */
  steps: Array<{ name: unknown; completed_at: number | null }>;
  counts: Record<string, number>;
  /** as sent: ISO text or Unix seconds */
  updated_at?: unknown;
}

export class RunModel {
  readonly runs = new Map<string, Seen>();
  started = 0;
  readonly next: Record<string, string[]>;
  constructor(
    readonly kind: RunKindModel,
    readonly maxStarts: number,
  ) {
    const { pending, working, completed, failed } = kind.states;
    const ends = [completed, failed];
    this.next = { [pending]: [pending, ...working, ...ends], [completed]: [completed], [failed]: [failed] };
    working.forEach((w, i) => (this.next[w] = [...working.slice(i), ...ends]));
  }
  ids(): string[] {
    return [...this.runs.keys()];
  }
  isTerminal(type: string): boolean {
    return type === this.kind.states.completed || type === this.kind.states.failed;
  }
  anyActive(): boolean {
    return [...this.runs.values()].some((r) => !this.isTerminal(r.type));
  }
}

/**
 * Which rule of the run machine a violation breaks, so a check can name its
 * own assertion for each (runStateMachine's `judges`): the status vocabulary,
 * a transition the states allow, a terminal run that changed, a failed run's
 * error_message, the steps and their timestamps, the counters, updated_at, the
 * start (accepted, in the first state), a read or list of a started run, and a
 * run that never ended within the kit's wait.
 */
export type ViolationRule =
  | "status"
  | "transition"
  | "terminal"
  | "failed-message"
  | "steps"
  | "counts"
  | "updated"
  | "start"
  | "start-state"
  | "read"
  | "list"
  | "finish";

export class ModelViolation extends Error {
  constructor(
    readonly title: string,
    readonly received: unknown,
    readonly expected: unknown,
    readonly ex?: Exchange,
    readonly rule?: ViolationRule,
  ) {
    super(`${title}: received ${JSON.stringify(received)}, documented ${JSON.stringify(expected)}`);
  }
}

/** The real system behind the commands: how to start a run of this kind and where to read it. */
export interface RealSystem {
  ctx: CheckContext;
  /** start one run (variant names what kind of input, e.g. "keyword" or "unretrievable"); answers the create exchange */
  start(variant: string, n: number): Promise<Exchange>;
  /** the run's id and body in a create answer (202 body, or `{run_id}`) */
  created(ex: Exchange): { id?: string; run?: RunBody };
  runPath(id: string): string;
  /** list path of the runs, if the kind has a list */
  listPath?: string;
  last?: Exchange;
}

const time = (v: unknown) => (typeof v === "number" ? v * 1000 : Date.parse(String(v)));

/** A step's completed_at in seconds, or null when the step has not completed (null or absent); any other value as Number reads it (NaN fails every comparison). */
const completedAt = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The data of a run read (`GET …/runs/{id}`), or undefined when the body holds no object there. */
export function runOf(json: unknown): RunBody | undefined {
  const data = isObject(json) ? json.data : undefined;
  return isObject(data) ? data : undefined;
}

/** Compare one observation of a run with the model and advance the model. */
export function observe(model: RunModel, id: string, body: unknown, ex: Exchange): void {
  const k = model.kind;
  const run = isObject(body) ? body : undefined;
  const status = isObject(run?.status) ? run.status : undefined;
  // whatever was sent: the check below turns anything that is not a state of the kind into a violation
  const type = (k.statusAt === "status" ? run?.status : status?.type) as string;
  if (!(type in model.next))
    throw new ModelViolation("unknown status", run?.status, Object.keys(model.next).join(" | "), ex, "status");
  const rawSteps = k.statusAt === "status.type" ? status?.steps : undefined;
  const steps: Seen["steps"] = Array.isArray(rawSteps)
    ? rawSteps.map((s: unknown) => {
        const step = isObject(s) ? s : undefined;
        return { name: step?.name, completed_at: completedAt(step?.completed_at) };
      })
    : [];
  const counts = Object.fromEntries(k.counts.map((c) => [c, Number(run?.[c] ?? 0)]));
  const prev = model.runs.get(id);
  if (prev && !model.next[prev.type].includes(type))
    throw new ModelViolation(
      `illegal transition ${prev.type} → ${type}`,
      { from: prev.type, to: type },
      { from: prev.type, to: model.next[prev.type] },
      ex,
      model.isTerminal(prev.type) ? "terminal" : "transition",
    );
  if (
    type === k.states.failed &&
    k.statusAt === "status.type" &&
    !(typeof status?.error_message === "string" && status.error_message.length > 0)
  )
    throw new ModelViolation(
      "failed without error_message",
      run?.status,
      { type: k.states.failed, error_message: "<text>" },
      ex,
      "failed-message",
    );
  // only completed steps are compared: a step not yet completed (completed_at null) has no time
  const done = steps.filter((s): s is { name: unknown; completed_at: number } => s.completed_at !== null);
  for (let i = 1; i < done.length; i++)
    if (done[i].completed_at < done[i - 1].completed_at)
      throw new ModelViolation(
        "step timestamps go back within one status",
        steps,
        "completed_at non-decreasing",
        ex,
        "steps",
      );
  const created = run?.created_at !== undefined ? Math.floor(time(run.created_at) / 1000) : undefined;
  if (created !== undefined && done.some((s) => s.completed_at < created - 1))
    throw new ModelViolation(
      "a step completed before the run was created",
      { created_at: run?.created_at, steps },
      "completed_at >= created_at",
      ex,
      "steps",
    );
  if (k.zeroWhilePending && type === k.states.pending && k.counts.some((c) => counts[c] !== 0))
    throw new ModelViolation(
      "a pending run already counts results",
      counts,
      "all counts 0 while pending",
      ex,
      "counts",
    );
  for (const [small, big] of k.within ?? [])
    if (counts[small] > counts[big])
      throw new ModelViolation("inconsistent counts", counts, `${small} <= ${big}`, ex, "counts");
  const requested = k.requested?.(run);
  if (k.boundedCounter && requested !== undefined && Number.isFinite(requested) && counts[k.boundedCounter] > requested)
    throw new ModelViolation(
      "more results than requested",
      { [k.boundedCounter]: counts[k.boundedCounter], requested },
      `${k.boundedCounter} <= requested`,
      ex,
      "counts",
    );
  if (prev) {
    // a step seen completed keeps its time; one seen not completed may complete later (null → a time), never go back
    const prefixKept = prev.steps.every(
      (s, i) => steps[i]?.name === s.name && (s.completed_at === null || steps[i]?.completed_at === s.completed_at),
    );
    if (!prefixKept)
      throw new ModelViolation(
        "recorded steps changed or went back",
        { before: prev.steps, now: steps },
        "earlier steps kept with the same completed_at",
        ex,
        "steps",
      );
    const shrunk = k.counts.filter((c) => counts[c] < prev.counts[c]);
    if (shrunk.length) throw new ModelViolation(`${shrunk.join(", ")} decreased`, counts, prev.counts, ex, "counts");
    if (
      model.isTerminal(prev.type) &&
      (k.counts.some((c) => counts[c] !== prev.counts[c]) || steps.length !== prev.steps.length)
    )
      throw new ModelViolation(
        "a terminal run changed",
        { counts, steps },
        { counts: prev.counts, steps: prev.steps },
        ex,
        "terminal",
      );
    if (prev.updated_at !== undefined && run?.updated_at !== undefined && time(run.updated_at) < time(prev.updated_at))
      throw new ModelViolation("updated_at went back", run.updated_at, `>= ${prev.updated_at}`, ex, "updated");
  }
  model.runs.set(id, { type, steps, counts, updated_at: run?.updated_at });
}
