// Differential comparison: two runs of the same generated sequence (same
// seed, same checks), one against the deployment and one against the
// reference, put side by side step by step. Ids differ between the two, so
// each side's ids (and cursors, and the run id in names) become placeholders
// numbered in order of first appearance; repeated polls collapse into one
// step; the two step lists are aligned per check with an LCS (jsdiff's
// diffArrays), and aligned steps are compared on status, error code,
// response shape, run states and charges.
import { diffArrays } from "diff";
import { Decimal } from "decimal.js";
import type { Exchange } from "../http.ts";
import { errorCodeOf, shapeDiff } from "./shape.ts";

export interface Step {
  check: string;
  /** `POST /v1/datasets [main] {"name":"slk-<run>-x"}` with ids as placeholders */
  key: string;
  /** how many consecutive exchanges this step stands for (polls) */
  count: number;
  /** the last exchange of the step (what the sequence went on from) */
  last: Exchange;
  /** the last answer's body, maps keyed by ids folded (what shapes compare) */
  body: unknown;
  /** run states seen across the step, in order, without repeats */
  states: string[];
  /** change of the key's balance since its previous GET /v1/me (dollars), on account reads */
  charge?: string;
}

export interface StepDiff {
  check: string;
  step: string;
  /** `both`, or the side that alone sent this step */
  on: "both" | "deployment" | "reference";
  differences: string[];
  deployment?: { status: number; code?: string; count: number; curl?: string };
  reference?: { status: number; code?: string; count: number };
}

export interface DifferentialResult {
  /** aligned steps compared (both sides) */
  compared: number;
  /** steps with at least one difference */
  diffs: StepDiff[];
  /** per side: exchanges left out of the comparison (timing-driven bursts, 429s retried) */
  leftOut: { deployment: number; reference: number };
}

/** Exchanges whose number or outcome depends on timing, not on the deployment's rules. */
export function comparable(ex: Exchange): boolean {
  return !ex.meta.burst && !ex.meta.planned429 && !ex.meta.retried && ex.check !== "(cleanup)";
}

/**
 * Ids (and cursors) a side's answers handed out, named in the order the
 * kit first *sends* them: lists of pre-existing data may differ between the
 * two deployments, but the ids the sequence goes on to use line up.
 */
class Placeholders {
  private seen = new Set<string>();
  private used = new Map<string, string>();
  private runForms: string[];
  constructor(runId: string) {
    const random = runId.split("-").pop() ?? runId;
    const rev = (x: string) => [...x].reverse().join("");
    this.runForms = [runId, rev(runId), random, rev(random)].filter((x) => x.length >= 6);
  }
  learn(v: unknown, key = ""): void {
    if (typeof v === "string") {
      // a cursor is sent back with or without its = padding (the seed allows both)
      if (/(^|_)ids?$|^cursor$/.test(key) && v.length >= 3) this.seen.add(v.replace(/=+$/, ""));
      return;
    }
    if (Array.isArray(v)) for (const x of v) this.learn(x, key);
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) this.learn(x, k);
  }
  apply(s: string): string {
    // names carry the run id (a long name keeps only its random part; a rename may reverse it)
    let out = s;
    for (const form of this.runForms) out = out.split(form).join("<run>");
    return out.replace(/[A-Za-z0-9_\-~]+/g, (tok) => {
      if (!this.seen.has(tok)) return tok;
      let name = this.used.get(tok);
      if (!name) this.used.set(tok, (name = `<id${this.used.size + 1}>`));
      return name;
    });
  }
  /** Maps keyed by ids (`pattern_assignments`, `parameters`) compared by their values: the keys are data. */
  keysAsData(v: unknown): unknown {
    if (Array.isArray(v)) return v.map((x) => this.keysAsData(x));
    if (!v || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    const keyed: unknown[] = [];
    for (const [k, x] of Object.entries(v)) {
      if (this.seen.has(k) || /^[a-z]{1,4}_[A-Za-z0-9]{8,}$/.test(k)) keyed.push(this.keysAsData(x));
      else out[k] = this.keysAsData(x);
    }
    if (keyed.length) out["<id-keyed>"] = keyed;
    return out;
  }
}

/** JSON-RPC ids count every MCP request the process sent: not part of what a step asks. */
function withoutRpcId(body: string): string {
  try {
    const { id: _id, ...rest } = JSON.parse(body) as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return body;
  }
}

const stateOf = (json: unknown): string | undefined => {
  const d = (json as { data?: { status?: unknown } } | undefined)?.data;
  const s = d?.status;
  if (typeof s === "string" && d && "id" in d) return s;
  const t = (s as { type?: unknown } | undefined)?.type;
  return typeof t === "string" ? t : undefined;
};

const balanceOf = (ex: Exchange): string | undefined => {
  if (ex.method !== "GET" || ex.path.split("?")[0] !== "/v1/me" || ex.status !== 200) return undefined;
  const b = (ex.json as { data?: { usage?: { balance?: unknown } } } | undefined)?.data?.usage?.balance;
  return typeof b === "number" || typeof b === "string" ? String(b) : undefined;
};

/** One side's steps per check, ids replaced by placeholders, repeats collapsed. */
export function stepsOf(exchanges: Exchange[], runId: string): { byCheck: Map<string, Step[]>; leftOut: number } {
  const ph = new Placeholders(runId);
  const byCheck = new Map<string, Step[]>();
  const lastBalance = new Map<string, string>();
  let leftOut = 0;
  for (const ex of exchanges) {
    if (!comparable(ex)) {
      leftOut++;
      ph.learn(ex.json);
      continue;
    }
    const body = ex.requestBody ? ` ${ph.apply(ex.meta.mcp ? withoutRpcId(ex.requestBody) : ex.requestBody)}` : "";
    // a page walk is one step: how many pages it takes depends on the data each side holds
    // names made unique with a clock reading (`aud-sm-0-10291`) differ by run, not by rule
    const key = `${ex.method} ${ph.apply(ex.path)} [${ex.keyRole}]${body}`
      .replace(/(cursor=|"cursor":")<id\d+>/g, "$1<cursor>")
      .replace(/(slk-<run>-[^"]*?)\d{4,}/g, "$1<n>");
    ph.learn(ex.json);
    const steps = byCheck.get(ex.check) ?? [];
    byCheck.set(ex.check, steps);
    const state = stateOf(ex.json);
    const bal = balanceOf(ex);
    let charge: string | undefined;
    if (bal !== undefined) {
      const prev = lastBalance.get(ex.keyRole);
      if (prev !== undefined) charge = new Decimal(bal).minus(prev).toFixed();
      lastBalance.set(ex.keyRole, bal);
    }
    const prev = steps.at(-1);
    // a poll repeated: one step, its states accumulated (how many polls it takes is timing)
    if (prev && prev.key === key && (ex.method === "GET" || key.includes("<cursor>")) && bal === undefined) {
      prev.count++;
      prev.last = ex;
      prev.body = ph.keysAsData(ex.json);
      if (state && prev.states.at(-1) !== state) prev.states.push(state);
      continue;
    }
    steps.push({
      check: ex.check,
      key,
      count: 1,
      last: ex,
      body: ph.keysAsData(ex.json),
      states: state ? [state] : [],
      charge,
    });
  }
  return { byCheck, leftOut };
}

/** What differs between two aligned steps. */
export function compareSteps(d: Step, r: Step): string[] {
  const out: string[] = [];
  const a = d.last;
  const b = r.last;
  if (a.status !== b.status) out.push(`status: deployment ${a.status}, reference ${b.status}`);
  const ca = errorCodeOf(a.json);
  const cb = errorCodeOf(b.json);
  if (ca !== cb) out.push(`error_code: deployment ${ca ?? "(none)"}, reference ${cb ?? "(none)"}`);
  if (a.status === b.status) {
    if ((a.jsonError === undefined) !== (b.jsonError === undefined))
      out.push(`body: deployment ${a.jsonError ? "not JSON" : "JSON"}, reference ${b.jsonError ? "not JSON" : "JSON"}`);
    else
      for (const s of shapeDiff(r.body, d.body))
        out.push(`shape: ${s.replace(/: (.+) → (.+)$/, ": reference $1, deployment $2")}`);
  }
  // states: which ones a run passes through is timing (a poll may miss `pending`); where a
  // poll loop ended is not, and a state one side never uses at all is reported once per run (stateVocabulary)
  if (d.count > 1 && r.count > 1 && d.states.length && r.states.length && d.states.at(-1) !== r.states.at(-1))
    out.push(`last state: deployment ${d.states.at(-1)}, reference ${r.states.at(-1)}`);
  if (d.charge !== undefined && r.charge !== undefined && !new Decimal(d.charge).equals(r.charge))
    out.push(`charge since the previous GET /v1/me: deployment ${d.charge}, reference ${r.charge}`);
  return out;
}

const brief = (s: Step) => ({ status: s.last.status, code: errorCodeOf(s.last.json), count: s.count });

/** Align both sides check by check and list every step that differs. */
export function differential(
  deployment: { exchanges: Exchange[]; runId: string },
  reference: { exchanges: Exchange[]; runId: string },
  curl?: (ex: Exchange) => string,
): DifferentialResult {
  const D = stepsOf(deployment.exchanges, deployment.runId);
  const R = stepsOf(reference.exchanges, reference.runId);
  const diffs: StepDiff[] = [];
  let compared = 0;
  const checks = [...new Set([...D.byCheck.keys(), ...R.byCheck.keys()])];
  for (const check of checks) {
    const ds = D.byCheck.get(check) ?? [];
    const rs = R.byCheck.get(check) ?? [];
    let i = 0;
    let j = 0;
    for (const part of diffArrays(
      ds.map((s) => s.key),
      rs.map((s) => s.key),
    )) {
      const n = part.count ?? part.value.length;
      if (part.removed) {
        for (const s of ds.slice(i, i + n))
          diffs.push({
            check,
            step: s.key,
            on: "deployment",
            differences: [
              `sent only against the deployment (answered ${s.last.status}${errorCodeOf(s.last.json) ? ` ${errorCodeOf(s.last.json)}` : ""})`,
            ],
            deployment: { ...brief(s), curl: curl?.(s.last) },
          });
        i += n;
      } else if (part.added) {
        for (const s of rs.slice(j, j + n))
          diffs.push({
            check,
            step: s.key,
            on: "reference",
            differences: [
              `sent only against the reference (answered ${s.last.status}${errorCodeOf(s.last.json) ? ` ${errorCodeOf(s.last.json)}` : ""})`,
            ],
            reference: brief(s),
          });
        j += n;
      } else {
        for (let k = 0; k < n; k++) {
          const d = ds[i + k];
          const r = rs[j + k];
          compared++;
          const differences = compareSteps(d, r);
          if (differences.length)
            diffs.push({
              check,
              step: d.key,
              on: "both",
              differences,
              deployment: { ...brief(d), curl: curl?.(d.last) },
              reference: brief(r),
            });
        }
        i += n;
        j += n;
      }
    }
  }
  // a state name one side uses and the other never does (`processing` for `working`) is one finding for the whole
  // run: when both sides have one of their own (a rename), or when one side shows its own in 3 steps or more (a
  // regular state, not a glimpse of a fast transition the other side's polls happened to miss)
  const vocabulary = (m: Map<string, Step[]>) => {
    const n = new Map<string, number>();
    for (const st of [...m.values()].flat()) for (const x of new Set(st.states)) n.set(x, (n.get(x) ?? 0) + 1);
    return n;
  };
  const vd = vocabulary(D.byCheck);
  const vr = vocabulary(R.byCheck);
  const onlyD = [...vd.keys()].filter((x) => !vr.has(x));
  const onlyR = [...vr.keys()].filter((x) => !vd.has(x));
  const regular = (xs: string[], v: Map<string, number>) => xs.some((x) => (v.get(x) ?? 0) >= 3);
  if ((onlyD.length && onlyR.length) || regular(onlyD, vd) || regular(onlyR, vr))
    diffs.push({
      check: "(all checks)",
      step: "run states seen",
      on: "both",
      differences: [
        `states: only the deployment uses ${onlyD.join(", ") || "(none)"}; only the reference uses ${onlyR.join(", ") || "(none)"}`,
      ],
    });
  return { compared, diffs, leftOut: { deployment: D.leftOut, reference: R.leftOut } };
}
