// The shape of the cost table (request-budget.ts, which
// `conformance/scripts/measure-requests.ts --write` generates): what one
// check, and one shared scenario, costs in a run.
import type { PriceCategory } from "./groups/types.ts";

export interface CheckCost {
  /** requests the check sends in one run */
  requests: number;
  /** its requests grow with the advertised rate limit (a planned burst): measured at MEASURED_RPS */
  scalesWithRate?: boolean;
  /** what it keeps committed (a conformant deployment may charge it), in units of each price category */
  units?: Partial<Record<PriceCategory, number>>;
  /** what it keeps committed in dollars that are not priced per unit */
  usd?: number;
  /** what it holds at once at most, when more than what it keeps (a run committed at its worst case, then resized) */
  peak?: { units?: Partial<Record<PriceCategory, number>>; usd?: number };
  /** its largest commitment held only until the deployment refused the request (a negative case) */
  refused?: { units?: Partial<Record<PriceCategory, number>>; usd?: number };
  /** the shared scenarios (ctx.shared) it needs that commit money: paid once per run, by the first check that needs one */
  scenarios?: string[];
}

/** What a shared scenario keeps committed, and holds at once at most. */
export interface ScenarioCost {
  units?: Partial<Record<PriceCategory, number>>;
  usd?: number;
  peak?: { units?: Partial<Record<PriceCategory, number>>; usd?: number };
}
