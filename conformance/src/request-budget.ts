// What each check costs, measured against the reference (whole contract,
// standard profile, 50 requests/second, the reference's step delay of 50 ms):
// the requests it sends, and what it commits through the budget guard, in
// units of each price category of GET /v1/prices (a dataset run of 20
// mentions commits 20 "mention" units) plus dollars that are not priced per
// unit (the assistant's token charge guard): what it keeps committed (a
// conformant deployment may charge it), apart the largest commitment it
// holds only until the deployment refuses a request (a negative case: money
// at risk only if the deployment wrongly accepts it), and the shared
// scenarios it needs, whose cost is listed once (SCENARIO_COST). `--plan` prices both
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
    requests: 425,
    scenarios: ["audience-source"],
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
  "dataset-mentions-pool": { requests: 13, units: { mention: 21 } },
  "dataset-new-only-fields": { requests: 2 },
  "dataset-run-body-defaults": { requests: 12, scenarios: ["run-defaults-omitted"], units: { mention: 20 } },
  "dataset-run-defaults-equivalent": { requests: 6, scenarios: ["run-defaults-omitted"], units: { mention: 200 } },
  "deleted-gone-everywhere": { requests: 28 },
  "patch-semantics": { requests: 8 },
  "valid-request-accepted": { requests: 10 },
  "mentions-default-limit-equivalent": { requests: 4 },
  "mentions-filters-applied": { requests: 23, scenarios: ["cp-source"] },
  "mentions-sort-applied": { requests: 21 },
  "pagination-default-limit-equivalent": { requests: 34 },
  "pagination-default-order": { requests: 19 },
  "pagination-end-cursor-null": { requests: 9 },
  "pagination-full-walk": { requests: 20 },
  "pagination-garbage-cursor-400": { requests: 11, scenarios: ["ask-turn", "cp-source"] },
  "pagination-limit-respected": { requests: 11 },
  "pagination-order-default-equivalent": { requests: 51, scenarios: ["runs-fixture-11"] },
  "pagination-padding-optional": { requests: 4 },
  "pagination-runs-default-page": { requests: 3, scenarios: ["runs-fixture-11"] },
  "pagination-sort-change-cursor-400": { requests: 3 },
  "usage-history-newest-first-shared": { requests: 15 },
  "billing-402-refused-charges-nothing": { requests: 9 },
  "billing-refund-on-failure": { requests: 11, scenarios: ["billing-empty-run"] },
  "billing-reservation-at-create": { requests: 11, scenarios: ["billing-successful-run"] },
  "me-usage-adds-up": { requests: 3 },
  "plan-table-rates": { requests: 2 },
  "prices-match-unit-ratios": { requests: 1 },
  "run-state-machine": {
    requests: 14,
    units: { mention: 1 },
    usd: 0.0356,
    peak: { units: { mention: 21 }, usd: 0.0356 },
  },
  "valid-run-body-accepted": { requests: 6, units: { mention: 60 } },
  "ask-202-polls-to-completion": { requests: 4, scenarios: ["ask-turn"] },
  "ask-402-creates-nothing": { requests: 6, refused: { usd: 0.01 } },
  "ask-citation-invariants": { requests: 23, scenarios: ["agent-cycles", "ask-turn"] },
  "audience-dataset-runs-any-source": {
    requests: 14,
    scenarios: ["audience-source"],
    units: { audience_profile: 4 },
    peak: { units: { audience_profile: 4, mention: 20 } },
  },
  "audience-plan-400": { requests: 2 },
  "audience-profile-billing": { requests: 12, scenarios: ["audience-billed-run"] },
  "audience-run-402": { requests: 4 },
  "audience-run-409-in-flight": {
    requests: 10,
    units: { audience_profile: 2 },
    peak: { units: { audience_profile: 3 } },
  },
  "audience-run-codes-in-order": {
    requests: 18,
    units: { mention: 2, audience_profile: 0.667 },
    peak: { units: { mention: 22, audience_profile: 0.667 } },
  },
  "audience-run-default-profile-count": {
    requests: 20,
    scenarios: ["aud-source-small"],
    units: { audience_profile: 10 },
  },
  "audience-run-state-machine": { requests: 10, units: { audience_profile: 2 } },
  "audience-profiles-omit-spans-all": { requests: 5 },
  "audience-profiles-after-source-delete": { requests: 4, scenarios: ["audience-billed-run"] },
  "chat-after-ask-shapes": { requests: 3, scenarios: ["ask-turn"] },
  "chat-messages-query-rejected": { requests: 6, scenarios: ["ask-turn"] },
  "chats-private-to-seat": { requests: 9, scenarios: ["ask-turn"] },
  "chat-continue-same-chat": { requests: 5, scenarios: ["ask-turn"], usd: 0.5 },
  "custom-parameter-delete-frees-name": { requests: 5 },
  "custom-parameter-name-rules": { requests: 8 },
  "custom-parameter-preview-free": { requests: 6, scenarios: ["cp-source"] },
  "custom-parameter-run-409-in-flight": {
    requests: 7,
    scenarios: ["cp-source"],
    units: { post_processing: 4 },
    peak: { units: { post_processing: 8 } },
  },
  "custom-parameter-run-codes": { requests: 8 },
  "custom-parameter-run-counters": { requests: 10, scenarios: ["cp-run"] },
  "custom-parameter-run-state-machine": { requests: 15, units: { post_processing: 8 } },
  "custom-parameter-values-via-parameter-ids": { requests: 2, scenarios: ["cp-run"] },
  "dataset-mentions-consistent": { requests: 2, scenarios: ["cp-source"] },
  "pattern-assignments-real-items": { requests: 25, scenarios: ["pattern-detection"] },
  "pattern-detection-codes": { requests: 5 },
  "pattern-detection-run-state-machine": { requests: 10, units: { post_processing: 8 } },
  "pattern-item-post-count": { requests: 5, scenarios: ["pattern-detection"] },
  "preview-402-before-work": { requests: 5 },
  "preview-charge-per-source": { requests: 5, scenarios: ["preview-prompt"] },
  "preview-future-window": { requests: 2, units: { preview_generation: 2 } },
  "preview-reread-free": { requests: 5, scenarios: ["preview-prompt"] },
  "preview-url-charge-per-returning-url": { requests: 5, scenarios: ["preview-url"] },
  "profiles-default-limit-equivalent": { requests: 4 },
  "rename-updates-name": { requests: 6 },
  "tracking-agent-deleted-hidden": { requests: 15 },
  "tracking-agent-feed-newest-first": { requests: 6, scenarios: ["agent-cycles"] },
  "tracking-agent-no-queries-400": { requests: 5 },
  "tracking-agent-patch": { requests: 7 },
  "tracking-agent-pause-resume": { requests: 10 },
  "tracking-agent-limit-reached": { requests: 9 },
  "usage-history-default-limit-equivalent": { requests: 4 },
  "foreign-id-404-indistinguishable": { requests: 49, refused: { units: { mention: 20 } } },
  "lists-never-leak-foreign": { requests: 7 },
  "second-seat-shares-account": { requests: 2 },
  "rate-limit-burst-429": { requests: 158, scalesWithRate: true },
  "mcp-ask-flow": { requests: 6, usd: 0.5 },
  "mcp-auth-order": { requests: 6 },
  "mcp-bad-arguments-tool-error": { requests: 11 },
  "mcp-list-cursor-sort": { requests: 4 },
  "mcp-list-cursor-walk": { requests: 38 },
  "mcp-read-tools-free": { requests: 33, scenarios: ["pattern-detection"] },
  "mcp-rest-agreement": { requests: 24 },
  "mcp-tool-catalogue": { requests: 2 },
  "mcp-tool-error-shape": { requests: 14 },
  "mcp-trailing-slash-307": { requests: 1 },
  "mcp-unauthenticated-401": { requests: 6 },
  "mcp-rate-limit-shared": { requests: 55, scalesWithRate: true },
  "billing-settlement-exact": { requests: 0, scenarios: ["billing-successful-run"] },
  "billing-usage-history-matches": { requests: 0, scenarios: ["billing-empty-run", "billing-successful-run"] },
  "pattern-detection-billing-latest-run": { requests: 0, scenarios: ["pattern-detection"] },
  "tracking-agent-cycle-billing": { requests: 0, scenarios: ["agent-cycles"] },
  "tracking-agent-trigger-202-then-409": { requests: 0, scenarios: ["agent-cycles"] },
};

export const SCENARIO_COST: Record<string, ScenarioCost> = {
  "agent-cycles": { units: { mention: 2 }, usd: 0.1424, peak: { units: { mention: 62 }, usd: 0.1424 } },
  "ask-turn": { usd: 0.5 },
  "aud-source-small": { units: { audience_profile: 1.667 }, peak: { units: { mention: 20, audience_profile: 1.667 } } },
  "audience-billed-run": { units: { audience_profile: 4 } },
  "audience-source": { units: { audience_profile: 2 }, peak: { units: { mention: 20, audience_profile: 2 } } },
  "billing-empty-run": { usd: 0.0356, peak: { units: { mention: 20 }, usd: 0.0356 } },
  "billing-successful-run": { usd: 0.0712, peak: { units: { mention: 20 }, usd: 0.0712 } },
  "cp-run": { units: { post_processing: 4 } },
  "cp-source": { usd: 0.1424, peak: { units: { mention: 20 }, usd: 0.1424 } },
  "pattern-detection": {
    units: { mention: 2, post_processing: 11 },
    peak: { units: { mention: 22, post_processing: 11 } },
  },
  "preview-prompt": { units: { preview_generation: 2 } },
  "preview-url": { units: { preview_generation: 3 } },
  "run-defaults-omitted": { units: { mention: 200 } },
  "runs-fixture-11": { units: { mention: 220 } },
};

/** Requests still to come for these checks (unknown checks count 5). */
export function expectedRequests(ids: string[]): number {
  return ids.reduce((n, id) => n + (COST_PER_CHECK[id]?.requests ?? 5), 0);
}
