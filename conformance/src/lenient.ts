// The one registry of lenient rules. A row of spec/DECISIONS.md whose Kit
// column says "lenient" tolerates a departure with a warning; every check asks
// this registry (never its own copy of the rule), so one check cannot accept
// what another fails. Keyed by decision id; G2 adds the groups' lenient rows here.
import type { Exchange } from "./http.ts";

export interface LenientRule {
  /** what the deployment does that the contract tolerates */
  tolerates: string;
  /** whether this exchange shows the tolerated departure (response-level rules); absent for rules a check applies by id */
  applies?(ex: Exchange): boolean;
}

const body = (ex: Exchange): any => (typeof ex.json === "object" && ex.json !== null ? ex.json : undefined);

export const LENIENT = {
  "D-STATUS-STRING": {
    tolerates: '2xx body with status "info" instead of "success"',
    applies: (ex: Exchange) => ex.status >= 200 && ex.status < 300 && body(ex)?.status === "info",
  },
  "D-UNPROCESSABLE": {
    tolerates: "422 error envelope with error_code unprocessable_entity instead of the validation body {detail: [{loc, msg, type}]}",
    applies: (ex: Exchange) => ex.status === 422 && body(ex)?.error_code === "unprocessable_entity",
  },
  "D-ID-PREFIX": {
    tolerates: "an id without its documented prefix (ids are opaque)",
  },
  "D-RATE-WINDOW": {
    tolerates: "a window algorithm other than one fixed second per key (a burst that straddles a window boundary may see more than RateLimit-Limit successes once)",
  },
  "D-MENTIONS-SORT-DEFAULT": {
    tolerates: "a mention search without sort returning an order other than date desc",
  },
  "D-CITE-ESCAPE": {
    tolerates: "a bracketed number in an assistant or agent text that no post reference cites (a stray number not escaped as [N\\])",
  },
  "D-RUN-404": {
    tolerates: "a dataset run read answering 404 with an error_code other than dataset_not_found (an exchange cannot tell an unknown run from an unknown dataset, so any 404 of that read is tolerated)",
    applies: (ex: Exchange) => ex.status === 404 && ex.op?.key === "GET /v1/datasets/{dataset_id}/runs/{run_id}" && typeof body(ex)?.error_code === "string" && body(ex).error_code !== "dataset_not_found",
  },
  "D-PREVIEW-FUTURE": {
    tolerates: "a prompt preview with date_since after today refused with 422 at a loc other than [body, date_since], or a window that only ends after today refused",
  },
  "D-TA-NEXT-RUN": {
    tolerates: "an active agent's next_run_at that is not after its created_at (the second a cycle is due is computed by the deployment; its type and its null while paused are held strictly)",
  },
} satisfies Record<string, LenientRule>;

export type LenientId = keyof typeof LENIENT;

/** The response-level lenient rules this exchange falls under. */
export function lenientMatches(ex: Exchange): LenientId[] {
  return (Object.entries(LENIENT) as Array<[LenientId, LenientRule]>).filter(([, r]) => r.applies?.(ex)).map(([id]) => id);
}

/** The wording every check uses for a tolerated departure. */
export function lenientWarning(id: LenientId, where?: string): string {
  return `${id} (lenient): ${LENIENT[id].tolerates}${where ? ` — ${where}` : ""}`;
}

/** A body with the tolerated departures undone, for checks that validate the rest of it (e.g. schema checks). */
export function normalised(ex: Exchange): unknown {
  const b = body(ex);
  if (!b) return ex.json;
  let out = b;
  if (LENIENT["D-STATUS-STRING"].applies(ex)) out = { ...out, status: "success" };
  if (LENIENT["D-RUN-404"].applies(ex)) out = { ...out, error_code: "dataset_not_found" };
  return out;
}
