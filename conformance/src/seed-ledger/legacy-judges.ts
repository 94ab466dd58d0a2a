// The rows each not yet converted check judges, as the ledger listed them
// before rows stopped naming their checks. A check that declares its
// assertions (`asserts`) judges exactly the rows they name and has no entry
// here; this table shrinks to nothing as the checks are converted, and
// test/grounding.test.ts keeps the two apart.
export const LEGACY_JUDGES: Record<string, string[]> = {};
