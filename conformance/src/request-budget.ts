// What each check costs, measured against the reference (whole contract,
// standard profile, 50 requests/second, the reference's step delay of 50 ms):
// the requests it sends, and what it commits through the budget guard, in
// units of each price category of GET /v1/prices (a dataset run of 20
// mentions commits 20 "mention" units) plus dollars that are not priced per
// unit (the assistant's token charge guard): what it keeps committed (a
// conformant deployment may charge it), and apart, the largest commitment it
// holds only until the deployment refuses a request (a negative case: money
// at risk only if the deployment wrongly accepts it). `--plan` prices both
// at a deployment's own prices; the default budget is what the selected
// checks keep committed, plus a margin; the progress line estimates the time
// left from the requests. `npx tsx conformance/scripts/measure-requests.ts --write`
// rewrites this file; conformance/test/cost-table.test.ts fails when a fresh
// run drifts from it beyond the noise of a run.
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
  /** its largest commitment held only until the deployment refused the request (a negative case) */
  refused?: { units?: Partial<Record<PriceCategory, number>>; usd?: number };
}

/** The reference's rate limit per key when the table was measured (conformance/test/cost-table.test.ts runs at it). */
export const MEASURED_RPS = 50;

export const COST_PER_CHECK: Record<string, CheckCost> = {
  "served-groups": { requests: 14 },
  "auth-invalid-key-401": { requests: 49 },
  "auth-missing-key-401": { requests: 49 },
  "body-limit-413": { requests: 1 },
  "content-type-415": { requests: 1 },
  "date-range-order-422": { requests: 4, refused: { units: { mention: 20 } } },
  "impossible-date-422": { requests: 3, refused: { units: { mention: 20 } } },
  "invalid-request-rejected": {
    requests: 419,
    refused: { units: { audience_profile: 66.667, post_processing: 400, mention: 1000000, preview_generation: 200 } },
  },
  "malformed-json-rejected": { requests: 17 },
  "me-credit-fields-not-aliased": { requests: 2 },
  "openapi-document-published": { requests: 2 },
  "reads-free": { requests: 9 },
  "transport-inputs-documented": { requests: 3 },
  "unknown-id-codes": { requests: 5 },
  "created-readable-at-once": { requests: 12 },
  "credit-prices-removed-404": { requests: 1 },
  "dataset-mentions-pool": { requests: 14, units: { mention: 21 }, refused: { units: { mention: 20 } } },
  "dataset-new-only-fields": { requests: 2 },
  "dataset-run-body-defaults": { requests: 11, units: { mention: 220 } },
  "dataset-run-defaults-equivalent": { requests: 11, units: { mention: 200 } },
  "deleted-gone-everywhere": { requests: 28 },
  "patch-semantics": { requests: 8 },
  "valid-request-accepted": { requests: 10 },
  "mentions-default-limit-equivalent": { requests: 4 },
  "mentions-filters-applied": { requests: 23, usd: 0.1424, refused: { units: { mention: 20 } } },
  "mentions-sort-applied": { requests: 21 },
  "pagination-default-limit-equivalent": { requests: 34 },
  "pagination-default-order": { requests: 19 },
  "pagination-end-cursor-null": { requests: 9 },
  "pagination-full-walk": { requests: 20 },
  "pagination-garbage-cursor-400": { requests: 11, usd: 0.5 },
  "pagination-limit-respected": { requests: 11 },
  "pagination-order-default-equivalent": { requests: 51, units: { mention: 220 } },
  "pagination-padding-optional": { requests: 4 },
  "pagination-runs-default-page": { requests: 3 },
  "pagination-sort-change-cursor-400": { requests: 3 },
  "usage-history-newest-first-shared": { requests: 15 },
  "billing-402-refused-charges-nothing": { requests: 9 },
  "billing-refund-on-failure": { requests: 11, usd: 0.0356, refused: { units: { mention: 20 } } },
  "billing-reservation-at-create": { requests: 11, usd: 0.0712, refused: { units: { mention: 20 } } },
  "me-usage-adds-up": { requests: 3 },
  "plan-table-rates": { requests: 2 },
  "prices-match-unit-ratios": { requests: 1 },
  "run-state-machine": { requests: 14, units: { mention: 1 }, usd: 0.0356, refused: { units: { mention: 20 } } },
  "valid-run-body-accepted": { requests: 6, units: { mention: 60 } },
  "ask-202-polls-to-completion": { requests: 4 },
  "ask-402-creates-nothing": { requests: 6, refused: { usd: 0.01 } },
  "ask-citation-invariants": { requests: 22, units: { mention: 62 }, refused: { units: { mention: 20 } } },
  "audience-dataset-runs-any-source": {
    requests: 19,
    units: { mention: 6, audience_profile: 4 },
    refused: { units: { mention: 20 } },
  },
  "audience-plan-400": { requests: 2 },
  "audience-profile-billing": { requests: 12, units: { audience_profile: 4 } },
  "audience-run-402": { requests: 4 },
  "audience-run-409-in-flight": {
    requests: 10,
    units: { audience_profile: 2 },
    refused: { units: { audience_profile: 1 } },
  },
  "audience-run-codes-in-order": {
    requests: 18,
    units: { mention: 2, audience_profile: 0.667 },
    refused: { units: { mention: 20 } },
  },
  "audience-run-default-profile-count": { requests: 9, refused: { units: { audience_profile: 300 } } },
  "audience-run-state-machine": { requests: 10, units: { audience_profile: 2 } },
  "audience-profiles-omit-spans-all": { requests: 5 },
  "audience-profiles-after-source-delete": { requests: 4 },
  "chat-after-ask-shapes": { requests: 3 },
  "chat-messages-query-rejected": { requests: 6 },
  "chats-private-to-seat": { requests: 9 },
  "chat-continue-same-chat": { requests: 5, usd: 0.5 },
  "custom-parameter-delete-frees-name": { requests: 5 },
  "custom-parameter-name-rules": { requests: 8 },
  "custom-parameter-preview-free": { requests: 6 },
  "custom-parameter-run-409-in-flight": {
    requests: 7,
    units: { post_processing: 4 },
    refused: { units: { post_processing: 4 } },
  },
  "custom-parameter-run-codes": { requests: 8 },
  "custom-parameter-run-counters": { requests: 11, units: { post_processing: 4 } },
  "custom-parameter-run-state-machine": { requests: 13, units: { post_processing: 40 } },
  "custom-parameter-values-via-parameter-ids": { requests: 2 },
  "dataset-mentions-consistent": { requests: 2 },
  "pattern-assignments-real-items": {
    requests: 25,
    units: { mention: 2, post_processing: 11 },
    refused: { units: { mention: 20 } },
  },
  "pattern-detection-codes": { requests: 5 },
  "pattern-detection-run-state-machine": { requests: 10, units: { post_processing: 8 } },
  "pattern-item-post-count": { requests: 5 },
  "preview-402-before-work": { requests: 5 },
  "preview-charge-per-source": { requests: 5, units: { preview_generation: 2 } },
  "preview-future-window": { requests: 2, units: { preview_generation: 2 } },
  "preview-reread-free": { requests: 5 },
  "preview-url-charge-per-returning-url": { requests: 5, units: { preview_generation: 3 } },
  "profiles-default-limit-equivalent": { requests: 4 },
  "rename-updates-name": { requests: 6 },
  "tracking-agent-deleted-hidden": { requests: 15 },
  "tracking-agent-feed-newest-first": { requests: 6 },
  "tracking-agent-no-queries-400": { requests: 5 },
  "tracking-agent-patch": { requests: 7 },
  "tracking-agent-pause-resume": { requests: 10 },
  "tracking-agent-limit-reached": { requests: 9 },
  "usage-history-default-limit-equivalent": { requests: 4 },
  "foreign-id-404-indistinguishable": { requests: 49, refused: { units: { mention: 20 } } },
  "lists-never-leak-foreign": { requests: 7 },
  "second-seat-shares-account": { requests: 2 },
  "rate-limit-burst-429": { requests: 261, scalesWithRate: true },
  "mcp-ask-flow": { requests: 6, usd: 0.5 },
  "mcp-auth-order": { requests: 6 },
  "mcp-bad-arguments-tool-error": { requests: 11 },
  "mcp-list-cursor-sort": { requests: 4 },
  "mcp-list-cursor-walk": { requests: 38 },
  "mcp-read-tools-free": { requests: 33 },
  "mcp-rest-agreement": { requests: 24 },
  "mcp-tool-catalogue": { requests: 2 },
  "mcp-tool-error-shape": { requests: 14 },
  "mcp-trailing-slash-307": { requests: 1 },
  "mcp-unauthenticated-401": { requests: 6 },
  "mcp-rate-limit-shared": { requests: 55, scalesWithRate: true },
};

/** Requests still to come for these checks (unknown checks count 5). */
export function expectedRequests(ids: string[]): number {
  return ids.reduce((n, id) => n + (COST_PER_CHECK[id]?.requests ?? 5), 0);
}
