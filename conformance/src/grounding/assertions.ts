// What each assertion of a check judges, declared as data beside the check:
// a seed rule (rows of the seed-rule ledger, with the facts it takes from
// them), a contract decision (a D- row of spec/DECISIONS.md), or the marks of
// the contract (the @seed/@decided provenance of the constraint a schema
// check found broken). Every failure a converted check records names one of
// its assertions (`judges`), so a finding is attributed by what it asserted,
// never by its title, and a decision mismatch elsewhere in the check cannot
// demote a stated fact (test/grounding.test.ts is the gate).
import type { Fact } from "./facts.ts";

/** A rule the seed states: ledger rows (conformance/src/seed-ledger/rules.ts) whose quotes carry every fact. */
export interface SeedAssertion {
  kind: "seed";
  rows: string[];
  facts: Fact[];
}

/** A point the seed leaves open, decided by the contract: a row of spec/DECISIONS.md. */
export interface DecidedAssertion {
  kind: "decision";
  decision: string;
  facts: Fact[];
}

/**
 * The constraint's own provenance decides (response and request schema
 * checks): the failure carries the mark it broke (`Failure.decision` or
 * `Failure.seedQuote`), and the provenance gate (scripts/provenance-gate.ts)
 * grounds every @seed mark's facts in its quote.
 */
export interface MarksAssertion {
  kind: "marks";
  /** the decisions the marks this check reads can name (derived from the contract where possible) */
  decisions: string[];
  /** the seed-ledger rows the marks this check reads quote (derived from the contract: contract.ts schemaRows) */
  rows?: string[];
}

export type Assertion = SeedAssertion | DecidedAssertion | MarksAssertion;
export type Asserts = Record<string, Assertion>;

/** A seed rule: one ledger row id (or several, when the rule is stated across sentences) and the facts taken from them. */
export function seed(rows: string | string[], ...facts: Fact[]): SeedAssertion {
  return { kind: "seed", rows: Array.isArray(rows) ? rows : [rows], facts };
}

/** A contract decision, with the facts it fixes (descriptive: decisions are not grounded in the seed). */
export function decided(decision: string, ...facts: Fact[]): DecidedAssertion {
  return { kind: "decision", decision, facts };
}

/** The constraint's provenance marks decide; `decisions` lists what they can name, `rows` the ledger rows their quotes carry. */
export function marks(decisions: string[], rows: string[] = []): MarksAssertion {
  return { kind: "marks", decisions: [...new Set(decisions)], rows: [...new Set(rows)] };
}

/** The decisions a check's assertions name (its `decisions` list is derived from this, never restated). */
export function decisionsOfAsserts(asserts: Asserts): string[] {
  const out = new Set<string>();
  for (const a of Object.values(asserts)) {
    if (a.kind === "decision") out.add(a.decision);
    if (a.kind === "marks") for (const d of a.decisions) out.add(d);
  }
  return [...out];
}

/** The ledger rows a check's assertions judge. */
export function rowsOfAsserts(asserts: Asserts): string[] {
  return [
    ...new Set(
      Object.values(asserts).flatMap((a) => (a.kind === "seed" ? a.rows : a.kind === "marks" ? (a.rows ?? []) : [])),
    ),
  ];
}
