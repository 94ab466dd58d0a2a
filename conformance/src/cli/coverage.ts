// --min-coverage: whether the run exercised enough of the contract.
import type { RunReport } from "../runner.ts";

/** --min-coverage: the share of documented operation × status pairs the run exercised. */
export function coverageVerdict(
  report: Pick<RunReport, "ledger">,
  min: number | undefined,
): { ok: boolean; pct: number; line: string } | undefined {
  if (min === undefined) return undefined;
  const { pairs, exercised } = report.ledger.summary();
  const pct = pairs ? (exercised / pairs) * 100 : 0;
  const ok = pct >= min;
  return {
    ok,
    pct,
    line: `coverage ${pct.toFixed(1)} % of ${pairs} operation × status pairs ${ok ? ">=" : "<"} --min-coverage ${min} %${ok ? "" : ": FAIL"}`,
  };
}
