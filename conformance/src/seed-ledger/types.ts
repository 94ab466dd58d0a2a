// The shape of the seed-rule ledger (rules.ts): one row per rule the seed
// states, each with the seed's own words and, when no check judges it, the
// reason no check does, the reason a client cannot observe it, or the
// decision that settles a point the seed states two ways. Which checks judge
// a row is derived from the checks' assertions (judges.ts).

/** What kind of rule a row is (the families the seed's sentences fall into). */
export type RuleKind =
  | "default"
  | "bound"
  | "only"
  | "status"
  | "error"
  | "transition"
  | "charge"
  | "shape"
  | "auth"
  | "rate-limit"
  | "pagination"
  | "isolation"
  | "order"
  | "mcp"
  | "versioning";

/** A check whose assertions judge the row, and the mutation faults that break the row's rule and that the check catches. */
export interface Judge {
  check: string;
  faults: string[];
}

interface RowBase {
  /** stable id: section.subject.rule */
  id: string;
  kind: RuleKind;
  /** the seed's words (a verbatim substring of spec/seed.txt, whitespace flattened) */
  quote: string;
  /** other places where the seed states the same rule (verbatim as well) */
  also?: string[];
  /** the rule as a client can test it, when the quote says more than the row judges */
  rule?: string;
  /** a limit of the judgement a reader should know (when it is exercised, what it leaves out) */
  note?: string;
}

/** A rule to judge: some check's assertion names it (judges.ts derives which); its failure fails the run. */
export type RuleRow = RowBase;

/** A rule a client can observe that no check judges, with the reason. */
export interface UncoveredRow extends RowBase {
  uncovered: string;
  /** how a check could judge it cheaply (rows without it need more than one request or state the kit cannot build) */
  cheap?: string;
}

/** A sentence that states nothing a client can observe (server internals, instructions to clients, text about the document). */
export interface UnobservableRow extends RowBase {
  notObservable: string;
}

/**
 * A point the seed states two ways, or only hedges ("usually"): there is no
 * one seed rule to judge, so the contract decides it (`decision`, a row of
 * spec/DECISIONS.md) and the kit judges the decision. Not counted.
 */
export interface UnsettledRow extends RowBase {
  unsettled: string;
  decision: string;
}

export type LedgerRow = RuleRow | UncoveredRow | UnobservableRow | UnsettledRow;

/** A sentence that carries a rule marker but states no rule of its own, and why. */
export interface IgnoredSentence {
  quote: string;
  reason: string;
}

/** A row some check must judge: it carries none of the other verdicts. */
export const isRule = (r: LedgerRow): boolean => !("uncovered" in r || "notObservable" in r || "unsettled" in r);
export const isUncovered = (r: LedgerRow): r is UncoveredRow => "uncovered" in r;
export const isUnobservable = (r: LedgerRow): r is UnobservableRow => "notObservable" in r;
export const isUnsettled = (r: LedgerRow): r is UnsettledRow => "unsettled" in r;
