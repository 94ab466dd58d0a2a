// Classifies every difference between two OpenAPI 3.1 documents of this
// service, in three steps: both documents are normalised into the form the
// diff library compares well (contract-normalise.ts), each difference is
// classified by the seed's versioning rules as the operations that reach it
// see it (contract-classify.ts), and the changes become one finding per
// changed element with the severity its groups give it (contract-findings.ts).
// Removed error codes are judged over the whole document
// (contract-error-codes.ts).
import { GROUPS } from "./contract-policy.ts";
import { asNode, at, operationCount } from "./contract-document.ts";
import { normalise, withoutText } from "./contract-normalise.ts";
import { classify } from "./contract-classify.ts";
import { codesIn, removedCodes } from "./contract-error-codes.ts";
import { findingsOf, finish } from "./contract-findings.ts";
import type { DiffReport } from "./contract-diff-types.ts";

export type { DiffReport, Finding, Kind, Severity } from "./contract-diff-types.ts";

/** Compares two documents; `base` is the release a client was built against. */
export function diffContracts(baseDoc: object, currentDoc: object): DiffReport {
  const before = normalise(baseDoc);
  const after = normalise(currentDoc);
  const { annotations } = classify(before, after);
  const { changes } = classify(asNode(withoutText(before)), asNode(withoutText(after)));
  const removed = removedCodes(codesIn(before), codesIn(after));
  return finish({
    base: { version: String(at(baseDoc, "info", "version") ?? "?"), operations: operationCount(baseDoc) },
    current: { version: String(at(currentDoc, "info", "version") ?? "?"), operations: operationCount(currentDoc) },
    findings: [...removed.findings, ...findingsOf(changes, removed.gone)],
    annotations,
  });
}

/** Exit status of the gate: 1 when any finding is an error. */
export function gateStatus(report: DiffReport): 0 | 1 {
  return report.counts.error > 0 ? 1 : 0;
}

export { GROUPS };
