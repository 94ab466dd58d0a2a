// Requests each check typically sends (measured against the reference, whole
// contract, standard profile; `npx tsx conformance/scripts/measure-requests.ts`
// rewrites it). Used only for the progress estimate and the README's budget
// table: a deployment team can add up the checks it selects.
export const REQUESTS_PER_CHECK: Record<string, number> = {
  "auth-missing-key-401": 12,
  "auth-invalid-key-401": 12,
  "invalid-request-rejected": 92,
  "malformed-json-rejected": 4,
  "date-range-order-422": 2,
  "valid-request-accepted": 10,
  "created-readable-at-once": 3,
  "deleted-gone-everywhere": 7,
  "patch-semantics": 5,
  "credit-prices-removed-404": 1,
  "pagination-full-walk": 12,
  "pagination-default-order": 3,
  "pagination-end-cursor-null": 2,
  "pagination-limit-respected": 6,
  "pagination-padding-optional": 3,
  "pagination-garbage-cursor-400": 3,
  "pagination-sort-change-cursor-400": 4,
  "billing-reservation-at-create": 8,
  "billing-refund-on-failure": 8,
  "billing-402-refused-charges-nothing": 9,
  "run-state-machine": 10,
  "valid-run-body-accepted": 6,
  "foreign-id-404-indistinguishable": 14,
  "lists-never-leak-foreign": 7,
  "second-seat-shares-account": 2,
  "rate-limit-burst-429": 14,
};

/** Requests still to come for these checks (unknown checks count 5). */
export function expectedRequests(ids: string[]): number {
  return ids.reduce((n, id) => n + (REQUESTS_PER_CHECK[id] ?? 5), 0);
}
