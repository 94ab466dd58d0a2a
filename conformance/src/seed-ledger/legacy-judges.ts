// The rows each not yet converted check judges, as the ledger listed them
// before rows stopped naming their checks. A check that declares its
// assertions (`asserts`) judges exactly the rows they name and has no entry
// here; this table shrinks to nothing as the checks are converted, and
// test/grounding.test.ts keeps the two apart.
export const LEGACY_JUDGES: Record<string, string[]> = {
  "deleted-gone-everywhere": [
    "dataset.soft-deleted-hidden",
    "datasets.read.200",
    "datasets.update.semantics",
    "datasets.delete.204",
    "datasets.runs.list.404",
    "audience-datasets.list",
    "audience-datasets.read",
    "audience-datasets.update.404",
    "audience-datasets.delete",
    "custom-parameters.read.404",
    "custom-parameters.update.errors",
  ],
};
