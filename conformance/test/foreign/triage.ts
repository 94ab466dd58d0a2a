// The shape of a foreign implementation's triage file, and how a finding is
// matched against it.
import type { Failure } from "../../src/types.ts";

/** One real violation of the seed by a foreign implementation, as the kit reports it. */
export interface TriagedViolation {
  /** the check that reports it */
  check: string;
  /** the assertion the finding names (checks that declare their assertions) */
  judges?: string;
  /** the finding's operation (operationId), when it has one */
  operation?: string;
  /** the finding's title, without the `<check>: ` prefix */
  title: RegExp;
  /** what the deployment answered, as the finding reports it (JSON of `received`), when the title alone does not say which fact broke */
  received?: RegExp;
  /** the seed's words it breaks (verbatim in spec/seed.txt) */
  seed: string;
  /** what the implementation does instead */
  does: string;
}

/** Whether a seed-level failure is this triaged violation. */
export function covers(v: TriagedViolation, f: Failure): boolean {
  const title = f.title.startsWith(`${f.check}: `) ? f.title.slice(f.check.length + 2) : f.title;
  return (
    v.check === f.check &&
    (v.judges === undefined || v.judges === f.judges) &&
    (v.operation === undefined || v.operation === f.operation) &&
    v.title.test(title) &&
    (v.received === undefined || v.received.test(JSON.stringify(f.received ?? null)))
  );
}

/** One line naming a finding, for a test's diff. */
export function describeFinding(f: Failure): string {
  return `${f.title}${f.judges ? ` [${f.judges}]` : ""}${f.operation ? ` (${f.operation} → ${f.status})` : ""}`;
}
