// The deviations file: differences from the contract a team has decided to
// live with for a while (after Schemathesis' baseline files and the MCP
// conformance package's expected-failures list). Each entry names a contract
// decision (`D-…`) or a check id, optionally one operation, with a reason and
// an expiry date. A finding an entry covers is reported as an accepted
// deviation, not a failure; an entry that covers nothing any more fails the
// run as stale; an expired entry, and one whose reason is still the
// placeholder --write-deviations wrote, are refused before the run starts.
import { readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { CHECK_ASSERTS, decisionTable } from "./attribution.ts";
import { STATUS_DECISIONS } from "./status-decisions.ts";
import { decisionsOfAsserts } from "./grounding/assertions.ts";
import type { CheckResult, DeviationEntry, Failure } from "./types.ts";

// the entry's shape lives in types.ts (Settings carries the loaded entries), re-exported for the callers
export type { DeviationEntry } from "./types.ts";

export class DeviationsError extends Error {}

const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "expires must be a date YYYY-MM-DD")
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    "expires is not a real day",
  );
const Entry = z
  .object({
    decision: z
      .string()
      .regex(/^D-[A-Z0-9-]+$/, "decision must be a D- id")
      .optional(),
    check: z.string().min(1).optional(),
    operation: z.string().min(1).optional(),
    reason: z.string().trim().min(1, "reason is required"),
    expires: Day,
  })
  .strict()
  .refine((e) => !!e.decision !== !!e.check, "name exactly one of decision or check");
const File = z
  .object({ $schema: z.string().optional(), $comment: z.string().optional(), deviations: z.array(Entry) })
  .strict();

export const today = (now = new Date()) => now.toISOString().slice(0, 10);

/** The reason --write-deviations writes: a placeholder the team must replace with its own. */
const PLACEHOLDER = "TODO:";
const isPlaceholder = (reason: string) => /^\s*TODO\b/i.test(reason);

/** Read and validate a deviations file; every problem is one line (DeviationsError), never a stack. */
export function loadDeviations(path: string, knownChecks: string[], now = new Date()): DeviationEntry[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new DeviationsError(
      `deviations ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new DeviationsError(`deviations ${path}: not valid JSON (${(e as Error).message})`);
  }
  const parsed = File.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new DeviationsError(
      `deviations ${path}: ${issue.path.length ? issue.path.join(".") + ": " : ""}${issue.message}`,
    );
  }
  const decisions = decisionTable();
  const placeholders = parsed.data.deviations
    .map((e, i) => ({ e, i }))
    .filter(({ e }) => isPlaceholder(e.reason))
    .map(({ e, i }) => `  entry ${i + 1} (${e.decision ?? e.check}): ${e.reason}`);
  // every such entry at once, one line each: a file written by --write-deviations usually has several
  if (placeholders.length)
    throw new DeviationsError(
      [
        `deviations ${path}: ${placeholders.length} entr${placeholders.length === 1 ? "y still gives" : "ies still give"} the placeholder reason written by --write-deviations; write why your deployment decides otherwise:`,
        ...placeholders,
      ].join("\n"),
    );
  parsed.data.deviations.forEach((e, i) => {
    const at = `deviations ${path}: entry ${i + 1}`;
    if (e.decision && decisions.size && !decisions.has(e.decision))
      throw new DeviationsError(`${at}: unknown decision ${e.decision} (not a row of spec/DECISIONS.md)`);
    if (e.check && !knownChecks.includes(e.check))
      throw new DeviationsError(`${at}: unknown check ${e.check} (see --list)`);
    if (e.expires < today(now))
      throw new DeviationsError(
        `${at} (${e.decision ?? e.check}) expired on ${e.expires}: renew it with a new date and reason, or remove it`,
      );
  });
  return parsed.data.deviations;
}

export function entryMatches(e: DeviationEntry, f: Failure): boolean {
  if (e.operation && e.operation !== f.operation) return false;
  if (e.check) return f.check === e.check;
  return f.attribution?.kind === "decision" && f.attribution.decision === e.decision;
}

export interface DeviationUse {
  entry: number;
  label: string;
  matched: number;
  /** matched nothing although a check it concerns ran */
  stale: boolean;
  /** matched nothing and no check it concerns ran (not judged) */
  unexercised: boolean;
}

/** Whether any check that can report this entry's difference ran (not skipped). */
function concerned(e: DeviationEntry, ran: Set<string>): boolean {
  if (e.check) return ran.has(e.check);
  // a success status the contract chose shows in any check that calls the operation
  if (STATUS_DECISIONS.some((s) => s.decision === e.decision)) return ran.size > 0;
  // a check reports the decisions its assertions name
  return [...ran].some((id) =>
    CHECK_ASSERTS[id] ? decisionsOfAsserts(CHECK_ASSERTS[id]).includes(e.decision!) : false,
  );
}

export function judgeEntries(entries: DeviationEntry[], counts: number[], results: CheckResult[]): DeviationUse[] {
  const ran = new Set(results.filter((r) => r.outcome !== "skip").map((r) => r.id));
  return entries.map((e, i) => {
    const matched = counts[i] ?? 0;
    const relevant = concerned(e, ran);
    return {
      entry: i + 1,
      label: `${e.decision ?? e.check}${e.operation ? ` on ${e.operation}` : ""}`,
      matched,
      stale: matched === 0 && relevant,
      unexercised: matched === 0 && !relevant,
    };
  });
}

/** A starting deviations file: one entry per contract decision that failed today, expiring in 90 days. */
export function writeDeviations(path: string, failures: Failure[], now = new Date()): DeviationEntry[] {
  const by = new Map<string, Failure[]>();
  for (const f of failures)
    if (f.attribution?.kind === "decision" && f.attribution.decision)
      by.set(f.attribution.decision, [...(by.get(f.attribution.decision) ?? []), f]);
  const expires = today(new Date(now.getTime() + 90 * 86_400_000));
  const deviations: DeviationEntry[] = [...by.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([decision, fs]) => ({
      decision,
      reason: `${PLACEHOLDER} why this deployment decides ${decision} otherwise (${fs.length} finding(s) in ${[...new Set(fs.map((f) => f.check))].join(", ")})`,
      expires,
    }));
  const file = {
    $comment:
      "sl-conformance deviations: accepted differences from contract decisions. Give each a real reason; an entry that stops matching fails the run as stale, an expired one is refused.",
    deviations,
  };
  writeFileSync(path, JSON.stringify(file, null, 2) + "\n");
  return deviations;
}
