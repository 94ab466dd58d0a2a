// Which checks judge a ledger row and which mutation faults prove it, derived
// from the checks' declared assertions (a seed assertion names its rows) and
// from the faults (each names the rows it breaks). Nothing here is typed by
// hand. The faults live outside the published package, so
// their part is written to proofs.ts by conformance/scripts/update-seed-ledger.ts
// and the ledger's test keeps it fresh.
import { rowsOfAsserts } from "../grounding/assertions.ts";
import { allChecks } from "../registry.ts";
import { PROOFS } from "./proofs.ts";
import type { Judge } from "./types.ts";

/** Row id → the checks whose assertions judge it. */
function checksByRow(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (row: string, check: string) => {
    const list = out.get(row) ?? [];
    if (!list.includes(check)) list.push(check);
    out.set(row, list);
  };
  for (const c of allChecks) if (c.asserts) for (const row of rowsOfAsserts(c.asserts)) add(row, c.id);
  return out;
}

let cached: Map<string, string[]> | undefined;

/** The checks that judge a row, each with the faults (proofs.ts) that break the row and that it catches. */
export function judgesOf(row: string): Judge[] {
  cached ??= checksByRow();
  return (cached.get(row) ?? []).map((check) => ({
    check,
    faults: (PROOFS[row] ?? []).filter((p) => p.check === check).map((p) => p.fault),
  }));
}

/** Whether some check judges the row. */
export const isJudgedRow = (row: string): boolean => judgesOf(row).length > 0;
