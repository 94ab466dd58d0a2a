// The vocabulary of a contract diff: what a finding says, how a report counts
// findings, and the raw change the classifier hands to the step that turns
// changes into findings.
import type { Group } from "./contract-policy.ts";

export type Kind = "breaking" | "additive" | "compatible" | "unclassified";
export type Severity = "error" | "warning" | "info";

export interface Finding {
  severity: Severity;
  kind: Kind;
  /** What happened, as a short rule id: field-removed, bound-changed, error-code-removed… */
  rule: string;
  /** The element that changed: a component and the property path inside it, or an operation. */
  subject: string;
  /** The change in words (`maximum 1000 → 500`, `` `x_com` added ``). */
  change: string;
  /** Operations (`POST /v1/mentions`) or MCP components that reach the element. */
  operations: string[];
  /** Groups of the seed those operations belong to. */
  groups: string[];
  /** Why this severity: the policy that applied. */
  reason: string;
}

export interface DiffReport {
  base: { version: string; operations: number };
  current: { version: string; operations: number };
  findings: Finding[];
  /** Differences in descriptions, examples, summaries and other text only. */
  annotations: number;
  counts: Record<Severity, number> & Record<Kind, number>;
}

/** One change as one operation sees it, before changes are merged into findings and given a severity. */
export interface Change {
  kind: Kind;
  rule: string;
  subject: string;
  change: string;
  operation: string;
  group: Group;
  reason?: string;
  /** parent element + field name, for rename pairing */
  field?: { parent: string; name: string; action: string };
}
