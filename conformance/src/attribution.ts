// Which kind of rule each finding enforces: a SEED RULE (the seed states it;
// quoted here in its own words) or a CONTRACT DECISION on a point the seed
// leaves open (a D- row of spec/DECISIONS.md). This is the one place the
// kit classifies its checks; `test/attribution.test.ts` fails when a check
// is missing here or names a decision the table does not have.
//
// It lives in the kit's src/ (not spec/) because the published package ships
// src/ and reads it at run time, beside decisions.ts (the table), lenient.ts
// (the lenient rows) and decisions-pending.ts (rows without a check).
//
// Attribution is per failure, not per check: a check that enforces both a
// seed rule and a decision (date-range-order-422: the seed says `from` must
// precede `to`, the contract decides the answer is a 422 validation body)
// attributes a reversed range that is ACCEPTED to the seed, and one refused
// with another status to D-DATE-RANGE-ORDER. A failure is matched, in order:
//   0. the check's `seedWhen`: cases that break its seed rule whatever else matches;
//   1. STATUS_DECISIONS: the success status of an operation the seed gives
//      none (any check whose failure is that operation answering another 2xx;
//      not for checks whose requests must be refused);
//   2. the check's own decision rules (`when`: title, operation, status, or
//      the check that sent the exchange, for response-level checks);
//   3. the check's seed rule; a check without one falls on its first decision.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Attribution, Failure } from "./types.ts";

// the shapes live in types.ts (a finding carries its attribution), re-exported for the callers
export type { Attribution, RuleKind } from "./types.ts";

export interface Match {
  /** the failure title (or a warning's text) */
  title?: RegExp;
  /** operationId of the failure */
  ops?: RegExp;
  /** the status the deployment answered */
  status?: (s: number) => boolean;
  /** response-level checks: the check that sent the exchange */
  sentBy?: string[];
  /** what the deployment answered (JSON of `received`) */
  received?: RegExp;
}

export interface DecisionRule {
  decision: string;
  /** absent: the check's default rule when it has no seed rule */
  when?: Match;
}

export interface CheckRules {
  /** the seed's words for the rule the check enforces; absent when the check only enforces contract decisions */
  seed?: string;
  decisions?: DecisionRule[];
  /** failures that break the seed rule even where a decision rule below would match (checked first) */
  seedWhen?: Match[];
  /** the check sends requests a conformant deployment refuses: a 2xx there is the refusal missing, not a success status of STATUS_DECISIONS (set on every check whose requests must be refused) */
  refusals?: boolean;
}

const s2xx = (not: number) => (s: number) => s >= 200 && s < 300 && s !== not;

/** Success statuses the contract chose where the seed names none (D-CREATE-201, D-ASYNC-202, D-EMPTY-204 and friends). */
export const STATUS_DECISIONS: Array<{ decision: string; ops: RegExp; status: (s: number) => boolean }> = [
  {
    decision: "D-CREATE-201",
    ops: /^(CustomParameters_create|TrackingAgents_create|ResearchPreviews_create)$/,
    status: s2xx(201),
  },
  { decision: "D-ASYNC-202", ops: /^(PatternDetections_create|TrackingAgents_trigger)$/, status: s2xx(202) },
  { decision: "D-CPR-ACCEPTED", ops: /^CustomParameters_createRun$/, status: s2xx(202) },
  { decision: "D-CP-DELETE", ops: /^CustomParameters_delete$/, status: s2xx(204) },
  {
    decision: "D-EMPTY-204",
    ops: /^(TrackingAgents_(delete|pause|resume)|AudienceDatasets_delete)$/,
    status: s2xx(204),
  },
];

const D = (decision: string, when?: Match): DecisionRule => ({ decision, when });

/** Every check of the registry, once. */
export const CHECK_RULES: Record<string, CheckRules> = {
  // ---- authentication and request handling
  "auth-missing-key-401": {
    seed: "A missing or invalid key yields 401 `unauthorized`.",
    decisions: [D("D-AUTH-ORDER")],
  },
  "auth-invalid-key-401": {
    seed: "A missing or invalid key yields 401 `unauthorized`.",
    decisions: [D("D-KEY-ROTATION"), D("D-AUTH-ORDER")],
  },
  "invalid-request-rejected": {
    refusals: true,
    seed: "every endpoint with a body or query can return 422 with the validation body",
    // bounds the seed states itself: names 1-255, search_query 1-5000, count 20-1000, comments 0-100, profiles 1-2000, limit 1-100, 100 URLs, 50 ask post_refs, 1-5 preview post_refs
    seedWhen: [
      {
        title:
          /^(Datasets_(create|update)|AudienceDatasets_create) name: |search_query|\bcount: |num_comments_per_post|total_profile_count|\blimit: |source_urls|^Ask_ask post_refs|^CustomParameters_preview post_refs/,
        status: (s) => s < 400,
      },
    ],
    decisions: [
      D("D-SEARCH-MODE", { title: /search_mode/ }),
      D("D-MENTIONS-OPERATION", { title: /Mentions_search operation\b|\boperation:/ }),
      D("D-TIME-FILTER", { title: /time_filter/ }),
      D("D-CP-VALUE-TYPE", { title: /value_type/ }),
      D("D-FILTER-TOTAL", { title: /filters.*(more than 10|total)/ }),
      D("D-PDR-BODY", { title: /PatternDetections_create/ }),
      D("D-TA-SCHEDULE", { title: /schedule/ }),
      D("D-PREVIEW-URL-CAP", { title: /ResearchPreviews_create source_urls/ }),
      D("D-PREVIEW-DATES", { title: /date_since|date_until/ }),
      D("D-AUD-PATCH", { title: /AudienceDatasets_update/ }),
      D("D-BOUND-ARRAYS", { title: /maxItems|too many items/ }),
      D("D-BOUND-STRINGS", { title: /maxLength|too long/ }),
      // refused, but not with the validation body's 422
      D("D-422", { status: (s) => s >= 400 && s < 500 && s !== 422 }),
    ],
  },
  "malformed-json-rejected": {
    refusals: true,
    seed: "every endpoint with a body or query can return 422 with the validation body",
    decisions: [D("D-422", { status: (s) => s < 500 && s !== 422 })],
  },
  "body-limit-413": { refusals: true, decisions: [D("D-BODY-LIMIT")] },
  "content-type-415": { refusals: true, decisions: [D("D-CONTENT-TYPE")] },
  "date-range-order-422": {
    refusals: true,
    seed: "`from` must precede `to`",
    decisions: [D("D-DATE-RANGE-ORDER", { status: (s) => s >= 400 && s < 500 })],
  },
  "impossible-date-422": { refusals: true, decisions: [D("D-BOUND-DATE")] },
  "valid-request-accepted": {
    seed: "POST /v1/datasets | body `{name: string 1-255, required}` | 201, Dataset (id, name, created_at)",
  },
  "created-readable-at-once": { seed: "The create response carries only `id`, `name`, `created_at`." },
  "deleted-gone-everywhere": { seed: "soft delete; dataset and its runs disappear from lists and by-id reads" },
  "patch-semantics": { seed: "Empty body is a no-op returning the current dataset; empty string name stores null" },
  "credit-prices-removed-404": {
    refusals: true,
    seed: "The route `GET /v1/credit_prices` is removed and is not served.",
    decisions: [D("D-CREDIT-PRICES", { status: (s) => s >= 400 && s !== 404 })],
  },
  // ---- pagination
  "pagination-full-walk": {
    seed: "Cursor based. … Pass a cursor back unchanged … Stop when `has_next` is false",
    decisions: [
      D("D-LIST-ENVELOPE", { ops: /^(CustomParameters_list|CustomParameters_listRuns)$/ }),
      D("D-TA-LIST", { ops: /^TrackingAgents_list$/ }),
    ],
  },
  "pagination-default-order": {
    seed: "`order` (`asc` or `desc`, default `desc`, where supported)",
    decisions: [D("D-TA-LIST", { ops: /^TrackingAgents_list$/ })],
  },
  "pagination-end-cursor-null": {
    seed: "Stop when `has_next` is false (then `cursor` is null).",
    decisions: [
      D("D-LIST-ENVELOPE", { ops: /^(CustomParameters_list|CustomParameters_listRuns|TrackingAgents_list)$/ }),
    ],
  },
  "pagination-limit-respected": {
    seed: "Page size | 1-100 on every list; defaults 10 (resources), 20 (mentions, profiles), 25 (chat messages, usage history, agent messages)",
    decisions: [
      D("D-LIST-ENVELOPE", { ops: /^(CustomParameters_list|CustomParameters_listRuns)$/ }),
      D("D-TA-LIST", { ops: /^TrackingAgents_list$/ }),
    ],
  },
  "pagination-padding-optional": { seed: "Pass a cursor back unchanged; padding `=` is optional." },
  "pagination-garbage-cursor-400": {
    refusals: true,
    seed: "GET /v1/me/usage_history | query `limit` (default 25, 1-100), `cursor`; … error `invalid_cursor` (a list's named error for a cursor it cannot use)",
    decisions: [D("D-CURSOR", { status: (s) => s >= 400 && s < 500 && s !== 400 })],
  },
  "pagination-sort-change-cursor-400": {
    refusals: true,
    seed: "a cursor from another sort is rejected by validation",
    decisions: [D("D-CURSOR", { status: (s) => s >= 400 && s < 500 })],
  },
  // ---- mentions, usage, prices
  "mentions-sort-applied": {
    seed: "sort | enum | `date`, `likes`, `engagement_rate`, `views`, `comments`, `shares`, `sentiment_score`, `dataset_run_at`",
    decisions: [D("D-MENTIONS-SORT-DEFAULT", { title: /D-MENTIONS-SORT-DEFAULT/ })],
  }, // the default order only warns; a search without sort answering non-200 breaks the seed (sort is optional)
  "mentions-filters-applied": { seed: "groups OR-ed, filters within a group AND-ed" },
  "usage-history-newest-first-shared": {
    seed: "cursor paginated, account-wide (every seat sees the same feed)",
    decisions: [D("D-USAGE-ORDER", { title: /newest first|order/ })],
  },
  "prices-match-unit-ratios": {
    seed: "Unit ratios are fixed for everyone; the account rate (dollars per unit) varies by plan. Price = units times rate.",
    decisions: [D("D-MONEY-NUMBER", { received: /"-?\d+(\.\d+)?"/ })],
  },
  "me-usage-adds-up": { decisions: [D("D-ME-USAGE")] },
  // ---- billing of dataset runs
  "billing-reservation-at-create": { seed: "Reservation: the upper bound is reserved before work starts" },
  "billing-settlement-exact": { seed: "charge is for collected mentions only; unused reservation refunded" },
  "billing-refund-on-failure": { seed: "failed work releases its whole reservation" },
  "billing-402-refused-charges-nothing": {
    seed: "402 body: `detail` is an object `{message, required, available, top_up_url}`; `required` and `available` are US-dollar decimal strings; `transient` false. Requests are never partially charged.",
  },
  "billing-usage-history-matches": {
    seed: "`quantity` (non-negative US dollars charged in the credit-era revision; earlier text states charges positive and refunds negative)",
    decisions: [D("D-USAGE-SIGN", { title: /negative|sign|refund row/ })],
  },
  "run-state-machine": {
    seed: "States: `pending`, `working`, `completed`, `failed`.",
    decisions: [D("D-TIMESTAMPS", { title: /timestamp|ISO|Unix/ })],
  },
  "valid-run-body-accepted": {
    seed: "POST /v1/datasets/{dataset_id}/runs | body below | 202, run create response (status `pending`)",
    decisions: [
      D("D-RUN-PARAMS-ECHO", { title: /null|absent|default/ }),
      D("D-RUN-COUNT", { title: /requested_count/ }),
    ],
  },
  // ---- audiences
  "audience-run-codes-in-order": {
    seed: "A YouTube-only source: 400 `audience_youtube_only_source`. Other sources below the minimum: 400 `audience_insufficient_source_mentions`. … Source dataset without a completed run: 400 `source_dataset_has_no_completed_run`.",
    decisions: [
      D("D-AUD-RUN-SOURCE-404", { title: /unknown source|deleted source/ }),
      D("D-AUD-RUN-404", { title: /unknown audience dataset|unknown run/ }),
      D("D-AUD-RUN-ORDER", { title: /order/ }),
    ],
  },
  "audience-run-409-in-flight": {
    seed: "Another run pending or working on the same audience dataset: 409 `audience_dataset_run_already_in_flight`.",
  },
  "audience-profile-billing": {
    seed: "audience_profile | 3 | each profile collected (reservation sized by total_profile_count, default 300)",
    decisions: [D("D-USAGE-SIGN", { title: /negative|sign/ })],
  },
  "audience-run-state-machine": {
    seed: "An audience run is asynchronous in the same way as a dataset run and has the same four status types",
    decisions: [D("D-TIMESTAMPS", { title: /timestamp|ISO|Unix/ })],
  },
  "audience-profiles-after-source-delete": {
    seed: "Profiles stay readable after the source dataset is soft-deleted; new runs can no longer target it.",
    decisions: [
      D("D-AUD-RUN-SOURCE-404", { title: /run on the deleted source answered/, status: (s) => s >= 400 && s < 500 }),
    ],
  },
  // ---- research previews
  "preview-charge-per-source": {
    seed: "Prompt preview: charge equals number of sources, no partial refund.",
    decisions: [D("D-PREVIEW-CHARGE", { title: /repeated|distinct/ })],
  },
  "preview-url-charge-per-returning-url": {
    seed: "URL preview: charge equals number of URLs returning data; private, non-existing or failed URLs are refunded.",
    decisions: [
      D("D-PREVIEW-URL-LISTS", { title: /list|partition/ }),
      D("D-PREVIEW-PROFILE", { title: /profile shape|profiles\[/ }),
    ],
  },
  "preview-reread-free": {
    seed: "the stored sample; free; no re-scrape; scoped to the account",
    decisions: [D("D-PREVIEW-404", { title: /unknown preview|unknown id|code/, status: (s) => s === 404 })],
  },
  "preview-402-before-work": {
    seed: "402 `insufficient_credits_research_preview` (before any scraping; never partially charged)",
  },
  "preview-future-window": { refusals: true, decisions: [D("D-PREVIEW-FUTURE")] },
  // ---- pattern detections
  "pattern-detection-billing-latest-run": {
    seed: "pattern detection counts posts of the dataset's most recent completed run",
    decisions: [D("D-PDR-CHARGE", { title: /later run|fixed/ })],
  },
  "pattern-item-post-count": {
    seed: "each item has a short title, a synopsis, `post_count` and an `item_id`. An item expansion lists its constituent posts as `post_refs`.",
    decisions: [D("D-PATTERN-ITEM-404", { title: /unknown item/, status: (s) => s >= 400 && s < 500 })],
  },
  "pattern-detection-codes": {
    seed: "404 `dataset_not_found`",
    decisions: [
      D("D-PDR-EMPTY", { title: /without a completed run|empty/ }),
      D("D-PDR-CHECK-ORDER", { title: /order/ }),
    ],
  },
  "pattern-assignments-real-items": {
    seed: "pattern_assignments | map to array of `{pattern_item_id, name, confidence}`",
    decisions: [D("D-PATTERN-ASSIGNMENTS-KEY", { title: /D-PATTERN-ASSIGNMENTS-KEY/ })],
  },
  "pattern-detection-run-state-machine": {
    seed: "States seen: `pending`, `completed` (with `pattern_id`).",
    decisions: [
      D("D-PDR-STATES", { title: /unknown state|not a state|unknown status/ }),
      D("D-PDR-STEPS", { title: /step names?\b/ }),
    ],
  },
  // ---- custom parameters
  "custom-parameter-name-rules": {
    seed: "`name` (string, required non-empty, unique per account)",
    decisions: [
      D("D-409", { title: /duplicate|taken|already/, status: (s) => s >= 400 && s < 500 && s !== 409 }),
      D("D-400", { title: /empty|blank/, status: (s) => s >= 400 && s < 500 && s !== 400 }),
      D("D-CP-NAME", { title: /256|characters/ }),
      D("D-CP-PATCH", { ops: /^CustomParameters_update$/ }),
    ],
  },
  "custom-parameter-run-codes": {
    seed: "`insufficient_credits_content_analysis`, `custom_parameter_not_found`, `custom_parameter_run_in_flight`, `nothing_to_analyze`",
    decisions: [
      D("D-400", {
        title: /nothing_to_analyze|without mentions|empty dataset/,
        status: (s) => s >= 400 && s < 500 && s !== 400,
      }),
      D("D-CPR-SCOPE-404", { title: /scope|unknown dataset/ }),
      D("D-CPR-CHECK-ORDER", { title: /order/ }),
    ],
  },
  "custom-parameter-delete-frees-name": {
    seed: "DELETE /v1/custom_parameters/{parameter_id} | | empty body",
    decisions: [D("D-CP-LIST", { ops: /^CustomParameters_list$/ })],
  },
  "custom-parameter-preview-free": {
    seed: "Free: custom parameter preview",
    decisions: [D("D-CP-PREVIEW-MISS", { title: /null|miss/ })],
  },
  "custom-parameter-run-counters": {
    seed: "The run is complete when done plus error equals total.",
    decisions: [
      D("D-CPR-STATES", { title: /state|status/ }),
      D("D-CPR-VISIT", { title: /visit/ }),
      D("D-CPR-ERROR-CHARGE", { title: /error.*charge|charged/ }),
    ],
  },
  "custom-parameter-values-via-parameter-ids": {
    seed: "Read extracted values afterwards via `POST /v1/mentions` with `parameter_ids`.",
    decisions: [
      D("D-MENTION-PARAMETERS", { title: /custom_parameters|unasked|not asked/ }),
      D("D-PARAM-VALUE-STATUS", { title: /status/ }),
    ],
  },
  "custom-parameter-run-409-in-flight": {
    seed: "`custom_parameter_run_in_flight` when one is running for the parameter",
    decisions: [D("D-409", { title: /answered|second run/, status: (s) => s >= 400 && s < 500 && s !== 409 })],
  },
  "custom-parameter-run-state-machine": {
    seed: "State seen: `processing`. Completion is derived from counters (done plus error equals total).",
    decisions: [D("D-CPR-STATES", { title: /state|status/ }), D("D-CPR-UNKNOWN-RUN", { title: /unknown run/ })],
  },
  // ---- tracking agents
  "tracking-agent-pause-resume": {
    seed: "`active` | POST pause | agent exists | `paused` (`paused` = true) | no scheduled work",
    decisions: [
      D("D-TA-NEXT-RUN", {
        title: /^pause .*reads paused true, next_run_at (?!null)|^resume .*reads paused false, next_run_at null/,
      }),
      D("D-TA-PAUSE", { title: /idempot/ }),
    ],
  },
  "tracking-agent-patch": {
    seed: "PATCH /v1/tracking_agents/{agent_id} | partial body (`name`, `schedule` shown; other fields: not shown)",
    decisions: [D("D-TA-PATCH", { title: /instructions|dataset_ids|integration_ids|count|num_comments/ })],
  },
  "tracking-agent-trigger-202-then-409": {
    seed: "`tracking_agent_run_in_progress` when a cycle is running",
    decisions: [
      D("D-409", { title: /second trigger/, status: (s) => s >= 400 && s < 500 && s !== 409 }),
      D("D-TA-TRIGGER-PAUSED", { title: /paused/ }),
    ],
  },
  "tracking-agent-cycle-billing": {
    seed: "mention | 1 | each mention collected by a dataset run or tracking agent cycle",
    decisions: [D("D-TA-NO-QUERIES", { title: /reserv/ }), D("D-RUN-COUNT", { title: /count/ })],
  },
  "tracking-agent-no-queries-400": {
    seed: "`dataset_has_no_queries`",
    decisions: [D("D-400", { status: (s) => s >= 400 && s < 500 && s !== 400 }), D("D-TA-NO-QUERIES")],
  },
  "tracking-agent-feed-newest-first": {
    seed: "list of agent message, newest first",
    decisions: [D("D-TA-MESSAGE", { title: /text|references/ }), D("D-TA-MESSAGE-SENTIMENT", { title: /sentiment/ })],
  },
  "tracking-agent-deleted-hidden": {
    seed: "soft delete: agent and messages hidden from lists, retained server-side",
    decisions: [D("D-TA-DELETE", { title: /later read|404/ }), D("D-TA-CREATE-404", { title: /unknown dataset/ })],
  },
  // ---- ask and chats
  "ask-202-polls-to-completion": {
    seed: "202 `{chat_id, message_id, status: working}`; no reply text",
    decisions: [
      D("D-ASK-UNKNOWN-CHAT", { title: /unknown chat_id/ }),
      D("D-MESSAGE-404", { title: /unknown message/ }),
      D("D-MESSAGE-POLL", { title: /D-MESSAGE-POLL/ }),
    ],
  },
  "ask-citation-invariants": {
    seed: "`start_index` and `end_index` are a half-open range locating the first `[N]` in the rewritten text; slicing the text with them yields exactly that marker.",
    decisions: [D("D-CITE-UNITS", { title: /code unit|UTF/ }), D("D-CITE-ESCAPE", { title: /D-CITE-ESCAPE|stray/ })],
  },
  "chats-private-to-seat": {
    seed: "Chats are private to the creating seat: another seat, including the owner, receives 404.",
  },
  "ask-402-creates-nothing": {
    seed: "402 `insufficient_credits_ask` (before any turn starts; nothing created or charged)",
  },
  // ---- isolation
  "foreign-id-404-indistinguishable": {
    seed: "A resource of another account, or one that does not exist, yields 404 (existence is hidden, never 403).",
    decisions: [D("D-RUN-404", { title: /D-RUN-404|unknown run/ })],
  },
  "lists-never-leak-foreign": { seed: "Every resource is scoped to the account that owns the API key." },
  "second-seat-shares-account": { seed: "Account-shared resources are visible to every key on the account" },
  // ---- rate limit
  "rate-limit-burst-429": {
    seed: "Over the cap: 429 as in Errors. … The `Retry-After` header carries the same wait rounded up to whole seconds.",
    decisions: [D("D-RATE-WINDOW", { title: /D-RATE-WINDOW|window/ })],
  },
  "rate-limit-per-key": { seed: "5 requests per second per API key" },
  "rate-limit-recovers": {
    seed: "Recommended client behaviour is exponential backoff with jitter, preferring `Retry-After`.",
  },
  // ---- MCP
  "mcp-trailing-slash-307": {
    seed: "the trailing slash is required; the form without it answers 307",
    decisions: [D("D-MCP-307-FIRST", { title: /before|credential|host/i })],
  },
  "mcp-unauthenticated-401": {
    seed: "If neither resolves: 401 with header `WWW-Authenticate: Bearer resource_metadata=<metadata_url>` pointing at the OAuth metadata document.",
    decisions: [
      D("D-MCP-OAUTH-METADATA", { title: /^the metadata document/, status: (s) => s >= 200 && s < 300 }),
      D("D-OAUTH", { title: /quot|RFC 9728/ }),
    ],
  },
  "mcp-auth-order": {
    seed: "the server checks `x-api-key` first; if missing or invalid, falls back to the bearer token",
    decisions: [D("D-MCP-ASK-AUTH", { title: /D-MCP-ASK-AUTH/ }), D("D-MCP-BEARER-SEAT", { title: /seat/ })],
  },
  "mcp-tool-catalogue": {
    seed: "Fifteen tools. Read tools never create or charge; there are no create, update or delete tools.",
    decisions: [
      D("D-MCP-NO-ARGS", { title: /svc__get_me/ }),
      D("D-MCP-PAGING", { title: /limit|cursor|order/ }),
      D("D-MCP-SEARCH-ARGS", { title: /svc__list_mentions|svc__list_audience_profiles/ }),
    ],
  },
  "mcp-tool-error-shape": {
    seed: "Tool errors are `{error: {code, message, status}}`, where `status` mirrors the equivalent REST status.",
    decisions: [D("D-MCP-TOOL-ERROR", { title: /structuredContent|isError|text content/ })],
  },
  "mcp-bad-arguments-tool-error": {
    seed: "tool errors surface inside the tool result",
    decisions: [
      D("D-MCP-TOOL-ERROR", { title: /unprocessable_entity|422/ }),
      D("D-MCP-PAGING", { title: /cursor|limit/ }),
      D("D-MCP-FILTER-GROUPS", { title: /filter/ }),
    ],
  },
  "mcp-list-cursor-walk": {
    seed: "Lists return `cursor`; a null cursor means the end",
    decisions: [D("D-MCP-PAGING", { title: /^a garbage cursor/ })],
  },
  "mcp-rest-agreement": {
    seed: "The same capabilities are reachable through an MCP tool server",
    decisions: [D("D-MCP-SEARCH-ARGS", { title: /svc__list_(mentions|audience_profiles).*default/ })],
  },
  "mcp-read-tools-free": { seed: "Read tools never create or charge" },
  "mcp-ask-flow": {
    seed: "`svc__ask` … `{chat_id, message_id, status: working}` immediately; `stop_reason` is null while working and non-null once finished; content `blocks` arrive only once the turn settles",
    decisions: [
      D("D-MCP-BLOCK", { title: /openui/ }),
      D("D-MCP-RENDER", { title: /D-MCP-RENDER/ }),
      D("D-MCP-ASK-AUTH", { title: /D-MCP-ASK-AUTH/ }),
    ],
  },
  "mcp-rate-limit-shared": {
    seed: "5 requests per second per API key, shared by REST and MCP",
    decisions: [D("D-MCP-RATE-HEADERS", { title: /header/ }), D("D-RATE-WINDOW", { title: /window/ })],
  },
  // ---- response-level rules (inspect every exchange)
  "success-envelope": {
    seed: "`{status: success, data: <resource or array>}`. Lists add `has_next` (boolean) and `cursor` (string or null).",
  },
  "status-string-mapping": {
    seed: "1xx `info`, 2xx `success`, 3xx `redirect`, 4xx `client_error`, 5xx `server_error`.",
    decisions: [D("D-STATUS-STRING", { title: /D-STATUS-STRING|"info"/ })],
  },
  "json-content-type": { seed: "All bodies are JSON." },
  "empty-body-204": {
    seed: '204 | Empty body. (and "empty body" for every delete, pause and resume)',
    seedWhen: [{ received: /"body":"[^"]/ }],
  },
  "response-schema-conformance": {
    seed: "Resources and their fields (every model of the seed)",
    decisions: [
      D("D-PREVIEW-404", { ops: /^ResearchPreviews_read$/, status: (s) => s === 404 }),
      // a 400 or 422 body that is not the contract's on the operations whose conflicts (D-409) and domain refusals (D-400) the contract placed
      D("D-409", {
        ops: /^(CustomParameters_(create|update|createRun)|TrackingAgents_trigger)$/,
        status: (s) => s === 400,
      }),
      D("D-400", {
        ops: /^(CustomParameters_(create|update|createRun)|TrackingAgents_trigger)$/,
        status: (s) => s === 422,
      }),
      D("D-CURSOR", { sentBy: ["pagination-garbage-cursor-400", "pagination-sort-change-cursor-400"] }),
      D("D-DATE-RANGE-ORDER", { sentBy: ["date-range-order-422"] }),
      D("D-BODY-LIMIT", { sentBy: ["body-limit-413"] }),
      D("D-PDR-STATES", { ops: /^PatternDetections_(read|create)$/, status: (s) => s < 300 }),
      D("D-CPR-STATES", { ops: /^CustomParameters_(readRun|listRuns)$/, status: (s) => s < 300 }),
      D("D-MONEY-NUMBER", { ops: /^(Pricing_read|Account_read|Account_usageHistory)$/, status: (s) => s < 300 }),
      D("D-RUN-422", { ops: /^DatasetRuns_create$/, status: (s) => s === 422 }),
      D("D-STATUS-STRING", { title: /D-STATUS-STRING/ }),
      D("D-UNPROCESSABLE", { title: /D-UNPROCESSABLE/ }),
    ],
  },
  "documented-status-only": {
    seed: "Every endpoint that takes a path id can return 404 for an unknown or foreign id, and every endpoint with a body or query can return 422 with the validation body.",
    decisions: [
      D("D-409", {
        status: (s) => s === 400,
        sentBy: [
          "custom-parameter-name-rules",
          "custom-parameter-run-409-in-flight",
          "tracking-agent-trigger-202-then-409",
        ],
      }),
      D("D-400", {
        status: (s) => s === 422,
        sentBy: ["custom-parameter-name-rules", "custom-parameter-run-codes", "tracking-agent-no-queries-400"],
      }),
      D("D-CURSOR", { sentBy: ["pagination-garbage-cursor-400", "pagination-sort-change-cursor-400"] }),
      D("D-DATE-RANGE-ORDER", { sentBy: ["date-range-order-422"] }),
      D("D-BODY-LIMIT", { sentBy: ["body-limit-413"] }),
      D("D-AUD-RUN-SOURCE-404", { sentBy: ["audience-profiles-after-source-delete"] }),
      D("D-CREDIT-PRICES", { sentBy: ["credit-prices-removed-404"] }),
      D("D-CONTENT-TYPE", { sentBy: ["content-type-415"] }),
    ],
  },
  "no-server-errors": { seed: "5xx | `internal_server_error` | server fault, often `transient` true" },
  "error-envelope": {
    seed: "Error body: `{status, error_code, detail, transient}`. … 422 validation errors use the validation body in Resources.",
    decisions: [
      D("D-PREVIEW-404", { ops: /^ResearchPreviews_read$/, status: (s) => s === 404 }),
      D("D-CURSOR", { sentBy: ["pagination-garbage-cursor-400", "pagination-sort-change-cursor-400"] }),
      D("D-DATE-RANGE-ORDER", { sentBy: ["date-range-order-422"] }),
      D("D-DOMAIN-422", { title: /collection_content_type_mismatch|date_filter_unavailable/ }),
      D("D-UNPROCESSABLE", { title: /D-UNPROCESSABLE|unprocessable_entity/ }),
      D("D-422", { status: (s) => s === 422 }),
    ],
  },
  "validation-loc-accurate": {
    seed: "422 validation body | `{detail: [{loc: [string], msg: string, type: string}]}` (no envelope).",
    decisions: [D("D-422", { title: /body|query|path/ })],
  },
  "rate-limit-headers": {
    seed: "Every authenticated response carries `RateLimit-Limit` (the cap), `RateLimit-Remaining` (calls left in the current second window) and `RateLimit-Reset` (seconds until the bucket fully resets).",
    decisions: [D("D-RATE-WINDOW", { title: /Reset/ })],
  },
  "unauthenticated-no-ratelimit-headers": { decisions: [D("D-AUTH-ORDER")] },
  "billing-balance-never-negative": { seed: "Requests are never partially charged." },
  "money-six-decimals": {
    seed: "Values are exact small decimals; clients keep full precision.",
    decisions: [D("D-MONEY-NUMBER", { received: /"-?\d+(\.\d+)?"/ })],
  },
  "id-prefix-advisory": { decisions: [D("D-ID-PREFIX")] },
  // ---- findings of the kit itself (not checks of the registry)
  "served-groups": {
    seed: "The service collects public social posts … It can also profile the people behind the posts, detect recurring patterns, and extract custom fields with an LLM. It re-scrapes on a schedule through tracking agents and answers questions through an AI assistant.",
  },
};

// ---- the decision table's own words -------------------------------------------------

export interface DecisionText {
  id: string;
  point: string;
  seed: string;
  decided: string;
  kit: string;
}

const tablePaths = [
  new URL("../../spec/DECISIONS.md", import.meta.url),
  new URL("../contract/DECISIONS.md", import.meta.url),
].map((u) => fileURLToPath(u));
let table: Map<string, DecisionText> | undefined;

/** Every row of spec/DECISIONS.md (also the copy the published package carries); empty when neither is there. */
export function decisionTable(): Map<string, DecisionText> {
  if (table) return table;
  table = new Map();
  const path = tablePaths.find((p) => existsSync(p));
  if (!path) return table;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!/^\|\s*D-[A-Z0-9-]+\s*\|/.test(line)) continue;
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim().replace(/\\\|/g, "|"));
    const [id, point, seed, decided, kit] = cells;
    if (id) table.set(id, { id, point: point ?? "", seed: seed ?? "", decided: decided ?? "", kit: kit ?? "" });
  }
  return table;
}

function decisionAttribution(id: string): Attribution {
  const row = decisionTable().get(id);
  return { kind: "decision", decision: id, seed: row?.seed, decided: row?.decided };
}

function matches(m: Match, f: Failure, text: string): boolean {
  // the title without its `<check id>: ` prefix (a check's own name must not decide the rule)
  if (m.title && !m.title.test(text.startsWith(`${f.check}: `) ? text.slice(f.check.length + 2) : text)) return false;
  if (m.ops && !(f.operation && m.ops.test(f.operation))) return false;
  if (m.status && !(typeof f.status === "number" && m.status(f.status))) return false;
  if (m.received && !m.received.test(JSON.stringify(f.received ?? null) ?? "")) return false;
  if (m.sentBy) {
    const sender = /sent by ([a-z0-9-]+)\)/.exec(f.message ?? "")?.[1];
    if (!sender || !m.sentBy.includes(sender)) return false;
  }
  return true;
}

/** The rule one failure enforces. */
export function attribute(f: Failure): Attribution {
  const text = `${f.title} ${f.message ?? ""}`;
  const rules = CHECK_RULES[f.check];
  if (rules?.seedWhen?.some((m) => matches(m, f, text))) return { kind: "seed", seed: rules.seed };
  if (f.operation && typeof f.status === "number" && !rules?.refusals) {
    const st = STATUS_DECISIONS.find((r) => r.ops.test(f.operation!) && r.status(f.status!));
    if (st) return decisionAttribution(st.decision);
  }
  const hit = rules?.decisions?.find((d) => d.when && matches(d.when, f, text));
  if (hit) return decisionAttribution(hit.decision);
  if (rules?.seed || !rules?.decisions?.length) return { kind: "seed", seed: rules?.seed };
  return decisionAttribution(rules.decisions[0]!.decision);
}

/** The rule a warning concerns: a lenient row names itself (`D-… (lenient): …`), otherwise the check's rules decide. */
export function attributeWarning(check: string, text: string): Attribution {
  const named = /^(D-[A-Z0-9-]+)\b/.exec(text)?.[1] ?? /\b(D-[A-Z0-9-]+) \(lenient\)/.exec(text)?.[1];
  if (named) return decisionAttribution(named);
  return attribute({ check, title: text });
}

/** Decisions a check can attribute a finding to (declared, or named by its rules). */
export function decisionsOf(check: string): string[] {
  return [...new Set((CHECK_RULES[check]?.decisions ?? []).map((d) => d.decision))];
}

/** One line naming the rule: the seed's words, or the decision, what it decided, and that the seed leaves the point open (with what it does say). */
export function describeAttribution(a: Attribution, max = 160): string {
  const cut = (s: string) => (s.length > max ? s.slice(0, max - 1) + "…" : s);
  if (a.kind === "seed") return `seed rule${a.seed ? `: "${cut(a.seed)}"` : ""}`;
  return `contract decision ${a.decision}${a.decided ? `: ${cut(a.decided)}` : ""} — a point the seed leaves open${a.seed ? ` (the seed says: ${cut(a.seed)})` : ""}`;
}
