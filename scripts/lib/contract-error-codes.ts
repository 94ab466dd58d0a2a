// Error codes across two releases. The seed makes `error_code` values stable
// identifiers (Versioning 6), so the diff asks the documents which codes they
// name, which codes a new error response brings, and which codes are gone.
import { allowedStrings, asNode, at, deref, isNode, type Node } from "./contract-document.ts";
import type { Finding } from "./contract-diff-types.ts";

/** Error codes an (error) response can carry: the `error_code` enums under it, through $refs. */
export function errorCodesUnder(doc: Node, node: unknown): Set<string> {
  const codes = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (n: unknown, depth: number): void => {
    if (!isNode(n) || depth > 12 || seen.has(n)) return;
    seen.add(n);
    if (typeof n.$ref === "string") return visit(deref(doc, n), depth + 1);
    const ec = at(n, "properties", "error_code");
    if (ec) for (const code of allowedStrings(deref(doc, ec))) codes.add(code);
    for (const v of Object.values(n)) visit(v, depth + 1);
  };
  visit(node, 0);
  return codes;
}

export interface NamedCodes {
  /** The codes of the catalogue: the `*ErrorCode` components. */
  catalogue: Set<string>;
  /** The codes of every `error_code` property in the document. */
  bodies: Set<string>;
}

/** The error codes a document names: in its catalogue and in every `error_code` property. */
export function codesIn(doc: Node): NamedCodes {
  const catalogue = new Set<string>();
  const bodies = new Set<string>();
  for (const [name, schema] of Object.entries(asNode(at(doc, "components", "schemas"))))
    if (/(^|\.)ErrorCode$/.test(name)) for (const code of allowedStrings(schema)) catalogue.add(code);
  const visit = (node: unknown): void => {
    if (!isNode(node)) return;
    const ec = at(node, "properties", "error_code");
    if (ec) for (const code of allowedStrings(deref(doc, ec))) bodies.add(code);
    for (const v of Object.values(node)) visit(v);
  };
  visit(doc);
  return { catalogue, bodies };
}

/** Every code either list names. */
export function allCodes(codes: NamedCodes): Set<string> {
  return new Set([...codes.catalogue, ...codes.bodies]);
}

/** Codes of `a` that `b` does not name, in order. */
function missing(a: NamedCodes, b: NamedCodes): string[] {
  const minus = (x: Set<string>, y: Set<string>) => [...x].filter((c) => !y.has(c));
  return [...new Set([...minus(a.catalogue, b.catalogue), ...minus(a.bodies, b.bodies)])].sort();
}

/**
 * Decision D-DIFF-ERROR-CODES: error_code values are stable identifiers
 * (seed, Versioning 6): a code that is gone from the whole document is an
 * error whatever group used it (a code that one operation stops listing is a
 * breaking change of that operation, judged by its group, elsewhere).
 * Returns the gone codes, and one error finding for each.
 */
export function removedCodes(before: NamedCodes, after: NamedCodes): { gone: string[]; findings: Finding[] } {
  const gone = missing(before, after);
  const fresh = missing(after, before);
  const findings = gone.map((code): Finding => ({
    severity: "error",
    kind: "breaking",
    rule: "error-code-removed",
    subject: `error_code \`${code}\``,
    change: fresh.length
      ? `removed (renamed? new codes: ${fresh.map((c) => `\`${c}\``).join(", ")})`
      : "removed from the contract",
    operations: [],
    groups: ["every group"],
    reason: "error_code values are stable identifiers (seed, Versioning 6)",
  }));
  return { gone, findings };
}
