// Model-based test of the dataset run state machine. The model is simpler
// than the system: for each run the kit started it remembers only the last
// observed status type, steps, counts and updated_at, and checks every new
// observation against the allowed transitions
//   pending → working → completed | failed   (and pending → failed)
// terminal states never change, steps only grow and their timestamps never
// go back, counts never shrink and stay consistent.
import type { CheckContext } from "../types.ts";
import type { Exchange } from "../http.ts";

export type RunState = "pending" | "working" | "completed" | "failed";
const NEXT: Record<RunState, RunState[]> = {
  pending: ["pending", "working", "completed", "failed"], // a poll may miss the short working phase
  working: ["working", "completed", "failed"],
  completed: ["completed"],
  failed: ["failed"],
};
export const isTerminal = (s: RunState) => s === "completed" || s === "failed";

export interface Seen {
  type: RunState;
  steps: Array<{ name: string; completed_at: number }>;
  counts: { mentions_count: number; new_mentions_count: number; images_count: number; videos_count: number };
  updated_at?: string;
  created_at?: string;
}

export class RunModel {
  readonly runs = new Map<string, Seen>();
  started = 0;
  constructor(readonly maxStarts: number) {}
  ids(): string[] {
    return [...this.runs.keys()];
  }
  anyActive(): boolean {
    return [...this.runs.values()].some((r) => !isTerminal(r.type));
  }
}

export class ModelViolation extends Error {
  constructor(
    readonly title: string,
    readonly received: unknown,
    readonly expected: unknown,
    readonly ex?: Exchange,
  ) {
    super(`${title}: received ${JSON.stringify(received)}, documented ${JSON.stringify(expected)}`);
  }
}

export interface RealSystem {
  ctx: CheckContext;
  datasetId: string;
  runPath(id: string): string;
  last?: Exchange;
}

const COUNT_KEYS = ["mentions_count", "new_mentions_count", "images_count", "videos_count"] as const;

/** Compare one observation of a run with the model and advance the model. */
export function observe(model: RunModel, id: string, run: any, ex: Exchange): void {
  const type = run?.status?.type as RunState;
  if (!(type in NEXT)) throw new ModelViolation("run-state-machine: unknown status type", run?.status, "pending | working | completed | failed", ex);
  const steps: Seen["steps"] = Array.isArray(run?.status?.steps) ? run.status.steps.map((s: any) => ({ name: s?.name, completed_at: Number(s?.completed_at) })) : [];
  const counts = Object.fromEntries(COUNT_KEYS.map((k) => [k, Number(run?.[k] ?? 0)])) as Seen["counts"];
  const prev = model.runs.get(id);
  if (prev && !NEXT[prev.type].includes(type)) throw new ModelViolation(`run-state-machine: illegal transition ${prev.type} → ${type}`, { from: prev.type, to: type }, { from: prev.type, to: NEXT[prev.type] }, ex);
  if (type === "failed" && !(typeof run?.status?.error_message === "string" && run.status.error_message.length > 0)) throw new ModelViolation("run-state-machine: failed without error_message", run?.status, { type: "failed", error_message: "<text>" }, ex);
  for (let i = 1; i < steps.length; i++) if (steps[i].completed_at < steps[i - 1].completed_at) throw new ModelViolation("run-state-machine: step timestamps go back within one status", steps, "completed_at non-decreasing", ex);
  const created = run?.created_at ? Math.floor(Date.parse(run.created_at) / 1000) : undefined;
  if (created !== undefined && steps.some((s) => s.completed_at < created - 1)) throw new ModelViolation("run-state-machine: a step completed before the run was created", { created_at: run.created_at, steps }, "completed_at >= created_at", ex);
  if (type === "pending" && COUNT_KEYS.some((k) => counts[k] !== 0)) throw new ModelViolation("run-state-machine: a pending run already counts mentions", counts, "all counts 0 while pending", ex);
  if (counts.new_mentions_count > counts.mentions_count || counts.images_count > counts.mentions_count || counts.videos_count > counts.mentions_count) throw new ModelViolation("run-state-machine: inconsistent counts", counts, "new, images and videos counts <= mentions_count", ex);
  const requested = Number(run?.params?.count);
  if (Number.isFinite(requested) && counts.mentions_count > requested) throw new ModelViolation("run-state-machine: more mentions than requested", { mentions_count: counts.mentions_count, count: requested }, "mentions_count <= params.count", ex);
  if (prev) {
    const prefixKept = prev.steps.every((s, i) => steps[i]?.name === s.name && steps[i]?.completed_at === s.completed_at);
    if (!prefixKept) throw new ModelViolation("run-state-machine: recorded steps changed or went back", { before: prev.steps, now: steps }, "earlier steps kept with the same completed_at", ex);
    const shrunk = COUNT_KEYS.filter((k) => counts[k] < prev.counts[k]);
    if (shrunk.length) throw new ModelViolation(`run-state-machine: ${shrunk.join(", ")} decreased`, counts, prev.counts, ex);
    if (isTerminal(prev.type) && (COUNT_KEYS.some((k) => counts[k] !== prev.counts[k]) || steps.length !== prev.steps.length)) throw new ModelViolation("run-state-machine: a terminal run changed", { counts, steps }, { counts: prev.counts, steps: prev.steps }, ex);
    if (prev.updated_at && run?.updated_at && Date.parse(run.updated_at) < Date.parse(prev.updated_at)) throw new ModelViolation("run-state-machine: updated_at went back", run.updated_at, `>= ${prev.updated_at}`, ex);
  }
  model.runs.set(id, { type, steps, counts, updated_at: run?.updated_at, created_at: run?.created_at });
}
