// The seed-rule ledger as data: one row per rule the seed (spec/seed.txt)
// states that a client can observe, in the seed's order, with the seed's own
// words. This is the one place a quote lives: a check names the rows its
// assertions judge (`asserts: { name: seed("row.id", ...facts) }`) and takes
// the quote and the facts from here; a mutation fault names the rows it
// breaks (`rows`). Which checks judge a row and which faults prove it is
// derived from those (judges.ts), never restated here. Rows no check judges
// say why (`uncovered`); rows a client cannot observe say why and are left
// out of the figure (report.ts); points the seed states two ways name the
// decision that settles them. The ledger's test
// (conformance/test/seed-ledger.test.ts) finds every quote in the seed and
// fails on a sentence of the seed with a rule marker that no row or ignore
// entry quotes, and on a row to judge that no check judges.
import type { LedgerRow } from "./types.ts";

export const LEDGER: LedgerRow[] = [
  // ── Preamble and What the service does ─────────────────────────────────
  {
    id: "service.sources",
    kind: "shape",
    quote: "Supported sources: `reddit`, `tiktok`, `youtube`, `instagram`, `linkedin`.",
    rule: "source names are exactly these five: another source in a request is refused, none other appears in a response",
  },
  {
    id: "service.mcp.ask-plus-read-only",
    kind: "mcp",
    quote: "The same capabilities are reachable through an MCP tool server (`ask` flow plus read-only lookups).",
  },
  {
    id: "service.scope.account",
    kind: "isolation",
    quote: "Every resource is scoped to the account that owns the API key.",
  },
  {
    id: "service.scope.foreign-404",
    kind: "isolation",
    quote: "A resource of another account, or one that does not exist, yields 404 (existence is hidden, never 403).",
  },
  {
    id: "service.charges.dollar-balance",
    kind: "charge",
    quote: "Chargeable work debits a US-dollar balance.",
  },
  {
    id: "service.charges.reserved-up-front",
    kind: "charge",
    quote: "Prices are per result and are reserved up front;",
  },
  {
    id: "service.charges.refund-on-completion",
    kind: "charge",
    quote: "unused reservation is refunded on completion.",
  },
  {
    id: "service.json-bodies",
    kind: "shape",
    quote: "All bodies are JSON.",
  },
  {
    id: "service.json-content-type-on-requests",
    kind: "shape",
    quote: "Send `Content-Type: application/json` on requests with a body.",
    notObservable:
      "an instruction to clients: what a deployment answers to another content type is not stated (the contract decides 415, D-CONTENT-TYPE, judged by content-type-415)",
  },

  // ── Resources › Conventions ────────────────────────────────────────────
  {
    id: "conventions.success-envelope",
    kind: "shape",
    quote:
      "`{status: success, data: <resource or array>}`. Lists add `has_next` (boolean) and `cursor` (string or null).",
    also: ["Lists return `{status, data: [...], has_next, cursor}`."],
  },
  {
    id: "conventions.error-envelope",
    kind: "shape",
    quote: "`{status, error_code, detail, transient}` (see Errors).",
    also: [
      "Error body: `{status, error_code, detail, transient}`.",
      "`transient` true means retrying later may succeed.",
    ],
  },
  {
    id: "conventions.status-mapping",
    kind: "shape",
    quote: "1xx `info`, 2xx `success`, 3xx `redirect`, 4xx `client_error`, 5xx `server_error`.",
  },
  {
    id: "conventions.status-info-samples",
    kind: "shape",
    quote:
      "Reference endpoint samples print `info` on 2xx bodies; clients should branch on HTTP status and `data`, not on this string.",
    notObservable:
      "advice to clients about the reference samples; the contract accepts `info` on a 2xx with a warning (D-STATUS-STRING, control fault control-status-string-info)",
  },
  {
    id: "conventions.204-empty",
    kind: "status",
    quote: "| 204 | Empty body. |",
    notObservable:
      "HTTP itself gives a 204 no body (RFC 9110): a client reading the answer never sees one; the operations whose rows state an empty body are judged instead (empty-body-204)",
  },
  {
    id: "conventions.422-validation-body",
    kind: "shape",
    quote: "| 422 validation body | `{detail: [{loc: [string], msg: string, type: string}]}`",
    also: ["422 validation errors use the validation body in Resources."],
  },
  {
    id: "conventions.422-no-envelope",
    kind: "shape",
    quote: "`{detail: [{loc: [string], msg: string, type: string}]}` (no envelope).",
    rule: "a validation 422 carries no error envelope",
    decision: "D-UNPROCESSABLE",
    unsettled:
      "the seed's Errors table also lists 422 `unprocessable_entity` (an envelope); the contract decides the validation body and accepts the envelope with a warning (control fault control-422-envelope)",
  },
  {
    id: "conventions.timestamps.iso",
    kind: "shape",
    quote: "Datasets, dataset runs, audience datasets, audience runs: ISO 8601 UTC string.",
  },
  {
    id: "conventions.timestamps.unix",
    kind: "shape",
    quote:
      "Custom parameters and their runs, tracking agents, agent runs and messages, pattern detection runs, chats, usage history, mentions, profiles, `/v1/me`: integer Unix seconds.",
  },
  {
    id: "conventions.id-prefixes",
    kind: "shape",
    quote:
      "dataset `ds_`, dataset run `dsr_` (one endpoint description says `dr_`), audience dataset `ad_`, audience run `adr_`, custom parameter `cp_`, custom parameter run `cpr_`, tracking agent `ta_`, agent run `tar_`, agent message `tam_`, pattern detection run `pdr_`, pattern `pt_`, chat `ch_`, chat message `msg_`.",
    decision: "D-ID-PREFIX",
    unsettled:
      "the seed also says ids are opaque strings and names two prefixes for dataset runs; id-prefix-advisory warns on a missing prefix and never fails",
  },
  {
    id: "conventions.ids-opaque",
    kind: "shape",
    quote: "Ids are opaque strings.",
    notObservable: "an instruction to clients (do not parse ids); that ids are strings is part of every model's shape",
  },
  {
    id: "pagination.cursor-walk",
    kind: "pagination",
    quote: "| Pagination | Cursor based.",
    rule: "following cursors returns every item exactly once",
  },
  {
    id: "pagination.limit-range",
    kind: "bound",
    quote: "Query `limit` (integer 1-100)",
    also: ["| Page size | 1-100 on every list;"],
    rule: "limit 0 and 101 are refused with 422; 1 and 100 are accepted and a page holds at most `limit` items",
    note: "GET /v1/chats/{chat_id}/messages is not swept: the kit has no chat id when the sweep runs",
  },
  {
    id: "pagination.cursor-base64url",
    kind: "pagination",
    quote: "`cursor` (opaque base64url string, optional)",
    rule: "a cursor is a base64url string",
    note: "every REST list answer the kit receives (a body with has_next and a string cursor); MCP list cursors are not inspected",
  },
  {
    id: "pagination.order-default-desc",
    kind: "default",
    quote: "`order` (`asc` or `desc`, default `desc`, where supported)",
    note: "on each list whose row names `order` (datasets, a dataset's runs, audience datasets, an audience dataset's runs), a page without `order` is the page with order=desc; a list that ignores `order` passes, as 'where supported' allows",
  },
  {
    id: "pagination.cursor-padding",
    kind: "pagination",
    quote: "Pass a cursor back unchanged; padding `=` is optional.",
    note: "a dataset list cursor and its other form (padded when issued bare, bare when issued padded) give the same items and has_next; not exercised when no page size gives a cursor with another form",
  },
  {
    id: "pagination.end-cursor-null",
    kind: "pagination",
    quote: "Stop when `has_next` is false (then `cursor` is null).",
    note: "a walk that reaches its page cap fails when its pages are empty, repeat or bring nothing new, and is not exercised when the list is merely long",
  },

  // ── Resources › Dataset ────────────────────────────────────────────────
  {
    id: "dataset.fields",
    kind: "shape",
    quote: "| id | string | `ds_` prefix |",
    rule: "a dataset carries id, name, mentions_count, estimated_mentions_count, images_count, videos_count, created_at, updated_at and url with the documented types",
  },
  {
    id: "dataset.name-bounds",
    kind: "bound",
    quote: "| name | string or null | 1-255 characters when set |",
    also: [
      "POST /v1/datasets | body `{name: string 1-255, required}`",
      "name 1-255 chars for dataset and audience dataset",
    ],
  },
  {
    id: "dataset.mentions-count-dedup",
    kind: "shape",
    quote: "posts counted once per (source, post id) across runs",
    note: "judged on a dataset of one run: mentions_count equals the distinct (source, id) posts POST /v1/mentions lists for it; a second run of the same posts is not made (a deployment's own search may return new posts)",
  },
  {
    id: "dataset.estimated-mentions-count",
    kind: "shape",
    quote:
      "rounded sum, over unique posts across runs, of the maximum stored extrapolation coefficient; posts without extrapolation count 1; empty dataset gives 0; uses stored weights, makes no new provider requests; can equal mentions_count",
    note: "only the empty dataset's 0 is judged: the extrapolation coefficients are not shown, so the sum over posts is not",
  },
  {
    id: "dataset.create-response-fields",
    kind: "shape",
    quote: "The create response carries only `id`, `name`, `created_at`.",
    rule: "the create response carries id, name and created_at",
  },
  {
    id: "dataset.create-response-only",
    kind: "only",
    quote: "The create response carries only `id`, `name`, `created_at`.",
    rule: "the create response carries no other field",
  },
  {
    id: "dataset.soft-deleted-hidden",
    kind: "only",
    quote: "Soft-deleted datasets are excluded from lists and cannot be fetched by id.",
  },

  // ── Resources › Dataset run ────────────────────────────────────────────
  {
    id: "dataset-run.fields",
    kind: "shape",
    quote: "| dataset_id | string | parent dataset |",
    rule: "a dataset run carries id, dataset_id, status, params, the counts and both timestamps with the documented types",
  },
  {
    id: "dataset-run.params-echo",
    kind: "shape",
    quote:
      "echo of request: content_analysis_actions, count, country_code, date_range, enable_transcribing, enable_visual_recognition, language, num_comments_per_post, search_query",
    note: "fields sent are compared; what an omitted field echoes is lenient (D-RUN-PARAMS-ECHO)",
  },
  {
    id: "dataset-run.create-response",
    kind: "shape",
    quote: "The create response carries `id`, `dataset_id`, `count`, `requested_count`, `status`, `created_at`.",
  },
  {
    id: "dataset-run.status-types",
    kind: "shape",
    quote: "`type` is one of `pending`, `working`, `completed`, `failed`.",
  },
  {
    id: "dataset-run.steps",
    kind: "shape",
    quote:
      "`steps` is a list of `{name, completed_at}` (integer Unix seconds); step names seen are `scraping`, `enrichment`, `analysis`.",
  },
  {
    id: "dataset-run.failed-error-message",
    kind: "shape",
    quote: "A `failed` status includes `error_message`.",
    also: ["full reservation refunded; `error_message` set"],
  },
  {
    id: "search-query.prompt-fields",
    kind: "bound",
    quote:
      "`sources` (array of source names, required), `search_query` (string 1-5000 chars, required), `fragments` (array of strings, optional)",
    also: ["search_query 1-5000 chars"],
    rule: "a prompt search without sources or search_query, or with a search_query of 0 or 5001 characters, is refused with 422",
  },
  {
    id: "search-query.url-max-100",
    kind: "bound",
    quote: "`source_urls` (array, at most 100 per run)",
    also: ["100 URLs per run"],
    note: "101 copies of the example's first URL, made distinct by a query parameter; that nothing is reserved is not judged here",
  },

  // ── Resources › Audience dataset and run ───────────────────────────────
  {
    id: "audience-dataset.fields",
    kind: "shape",
    quote: "Audience dataset: `id`, `name`, `profile_count` (integer), `created_at`, `updated_at`.",
    also: ["The create response has `id`, `name`, `created_at`."],
  },
  {
    id: "audience-dataset.runs-any-source",
    kind: "shape",
    quote: "It is a name-only container; runs in one container may target different source datasets.",
    rule: "runs in one audience dataset may target different source datasets",
    note: "two sources in one container, the second run started after the first ended: a run while another is in flight is the 409 rule's; a refusal for the second source's data or the balance is not exercised",
  },
  {
    id: "audience-run.fields",
    kind: "shape",
    quote:
      "Audience run: `id`, `audience_dataset_id`, `source_dataset_id`, `status` (same envelope as dataset run), `profile_count`, `target_profile_count`, `created_at`, `updated_at`.",
    also: ["The create response has `id`, `audience_dataset_id`, `source_dataset_id`, `status`, `created_at`."],
  },
  {
    id: "audience-profile.fields",
    kind: "shape",
    quote: "| username, display_name, bio, external_link | string |",
    rule: "an audience profile carries the documented fields with the documented types",
  },

  // ── Resources › Mention ────────────────────────────────────────────────
  {
    id: "mention.fields",
    kind: "shape",
    quote: "| source, id | string; (source, id) identifies a post |",
    rule: "a mention carries the documented fields with the documented types",
  },
  {
    id: "mention.parameters",
    kind: "shape",
    quote: "map parameter id to `{value, status, computed_at}`",
  },
  {
    id: "mention.pattern-assignments",
    kind: "shape",
    quote: "| pattern_assignments | map to array of `{pattern_item_id, name, confidence}` |",
  },
  {
    id: "mention.analysis-only-when-ran",
    kind: "only",
    quote: "Analysis fields are populated only when the matching analysis ran on the parent run.",
    note: "judged for the nine actions whose field has the action's name, on mentions of the dataset alone (a post in another dataset may carry another run's analysis); the other fields' mapping is D-MENTION-ANALYSIS-NULL's",
  },

  // ── Resources › Custom parameter and run ───────────────────────────────
  {
    id: "custom-parameter.name-required-unique",
    kind: "bound",
    quote: "`name` (string, required non-empty, unique per account)",
  },
  {
    id: "custom-parameter.fields",
    kind: "shape",
    quote: "`instructions` (string), `value_type` (string; `string` is the value shown",
  },
  {
    id: "custom-parameter-run.fields",
    kind: "shape",
    quote:
      "Custom parameter run: `id`, `custom_parameter_id`, `scope` (`{kind: dataset, id: <dataset_id>}`), `status` (`{type}`; `processing` is the value shown), `mentions_total`, `mentions_done`, `mentions_error` (integers), `created_at`, `updated_at`.",
  },
  {
    id: "custom-parameter-run.total-is-dataset",
    kind: "shape",
    quote: "`mentions_total` is the posts the run will visit, `mentions_done` those processed",
    rule: "mentions_total is the dataset's mention count; mentions_done and mentions_error never shrink",
  },
  {
    id: "custom-parameter-run.complete-when-sum",
    kind: "transition",
    quote: "The run is complete when done plus error equals total.",
    also: ["Completion is derived from counters (done plus error equals total)."],
  },

  // ── Resources › Tracking agent, run, message ───────────────────────────
  {
    id: "tracking-agent.fields",
    kind: "shape",
    quote:
      "Tracking agent: `id`, `name`, `instructions`, `dataset_ids` (array), `integrations` (array; item shape: not shown), `count` (integer), `num_comments_per_post` (integer), `schedule`, `paused` (boolean)",
  },
  {
    id: "tracking-agent.schedule",
    kind: "shape",
    quote:
      "`time` is a 24-hour `HH:MM` string. Frequencies shown: `daily` (with `time`) and `weekly` (with lowercase weekday name in `day` and `time`).",
  },
  {
    id: "agent-run.fields",
    kind: "shape",
    quote:
      "Agent run (from trigger): `id`, `agent_id`, `created_at`, `dataset_run_ids` (array), `status` (`{type}`; `in_progress` shown).",
    also: ["State seen: `in_progress`."],
  },
  {
    id: "agent-message.fields",
    kind: "shape",
    quote:
      "Agent message (alert feed item): `message_id`, `agent_id`, `agent_name`, `created_at`, `new_mention_count`, `comment_count` (integers), `sentiment_score` (number), `short_preview_message` (string).",
  },
  {
    id: "agent-message.text-and-references",
    kind: "shape",
    quote: "The full message also carries a markdown text body with citations and `references[]`",
    uncovered:
      "the seed shows no read of a full agent message, only the feed of alert items: that a feed item is the full message (its text and references[]) is D-TA-MESSAGE's, judged as a decision (tracking-agent-feed-newest-first); the citation rules are judged on the text and references the feed items carry (ask-citation-invariants)",
  },
  {
    id: "agent-message.pattern-reference",
    kind: "shape",
    quote: "pattern alerts include a `pattern` reference",
    uncovered: "the kit's agents never raise a pattern alert (no check builds the history one needs)",
  },

  // ── Resources › Pattern detection run, pattern ─────────────────────────
  {
    id: "pattern-detection-run.fields",
    kind: "shape",
    quote:
      "Pattern detection run: `run_id`, `dataset_id`, `name`, `research_question`, `created_at` (integer), `status` (`{type, steps[]}`).",
  },
  {
    id: "pattern-detection-run.pattern-id-when-completed",
    kind: "shape",
    quote: "A completed run also carries `pattern_id`.",
    also: ["run; when completed includes `pattern_id`", "States seen: `pending`, `completed` (with `pattern_id`)."],
  },
  {
    id: "pattern.items",
    kind: "shape",
    quote:
      "each item has a short title, a synopsis, `post_count` and an `item_id`. An item expansion lists its constituent posts as `post_refs`.",
  },

  // ── Resources › Research preview ───────────────────────────────────────
  {
    id: "preview.prompt-result",
    kind: "shape",
    quote:
      "`prompt` preview result: `preview_id`, `type`, `estimated_number_of_results` (integer), `posts[]` of `{position, source, url, author_display_name, headline, relative_date, text, is_image_available}`.",
  },
  {
    id: "preview.url-result",
    kind: "shape",
    quote:
      "`url` preview result: the resolved profiles plus `failed_to_retrieve_profiles`, `non_existing_profiles`, `private_profiles`.",
  },

  // ── Resources › Chat and message ───────────────────────────────────────
  {
    id: "chat.fields",
    kind: "shape",
    quote:
      "Chat: `id`, `name` (string or null; the assistant names it after a few turns), `tracking_agent_id` (string or null; set for a tracking agent's dedicated dialogue), `created_at`.",
  },
  {
    id: "chat.no-heavier-fields",
    kind: "only",
    quote: "Heavier in-app fields are absent.",
    note: "judged as: GET /v1/chats/{id} carries no field besides the four the seed lists",
  },
  {
    id: "chat-message.fields",
    kind: "shape",
    quote: "Message: `id`, `role` (`user` or `assistant`), `text`, `created_at`.",
  },
  {
    id: "chat-message.user-context",
    kind: "shape",
    quote: "User messages carry `context`;",
    note: "presence of context (an object) is judged; its inner fields are D-MESSAGE-CONTEXT's and not judged",
  },
  {
    id: "chat-message.assistant-references",
    kind: "shape",
    quote: "assistant messages carry `references[]`.",
  },
  {
    id: "chat-message.markdown",
    kind: "shape",
    quote: "Assistant text is always markdown.",
    also: ["Assistant output is always markdown; the public surface forces markdown output."],
    notObservable: "any string is valid markdown: no client-side test tells markdown from plain text",
  },

  // ── Resources › References ─────────────────────────────────────────────
  {
    id: "references.entity",
    kind: "shape",
    quote:
      "Entity reference: `{type, id}` with `type` in `pattern`, `research_preview`, `dataset`, `audience_dataset`, `custom_parameter_run`, `pattern_detection_run`. No inline payload.",
  },
  {
    id: "references.entity-at-most-3",
    kind: "bound",
    quote: "Usually at most 3 per turn.",
    decision: "D-ASK-ENTITIES",
    unsettled: "the seed hedges ('usually'): ask-citation-invariants warns above 3 and never fails",
  },
  {
    id: "references.post-one-per-post",
    kind: "shape",
    quote:
      "Post reference: `{type: post, source, id, citation, start_index, end_index}`. One per unique (source, id) cited.",
  },
  {
    id: "references.marker-numbering",
    kind: "order",
    quote:
      "N counts from 1 in order of first appearance of unique (source, id) pairs, per message. Re-citing a post reuses its N.",
    also: [
      "In returned text each inline post link of the form `[label](post:source:id)` is rewritten to a marker `[N]`.",
    ],
  },
  {
    id: "references.slice",
    kind: "shape",
    quote:
      "`start_index` and `end_index` are a half-open range locating the first `[N]` in the rewritten text; slicing the text with them yields exactly that marker.",
  },
  {
    id: "references.post-resolves",
    kind: "shape",
    quote: "A post reference resolves through `POST /v1/mentions` with `post_refs`.",
    also: ["| post_refs | array of `{source, id}` | resolves specific posts |"],
  },
  {
    id: "references.no-tracking-agent",
    kind: "only",
    quote: "`tracking_agent` is not a reference type.",
  },

  // ── Resources › Account, usage history, prices ─────────────────────────
  {
    id: "me.fields",
    kind: "shape",
    quote: "| id, account_id, email, name, team_name | identity of the calling seat |",
    rule: "GET /v1/me carries the identity, members, teams, plan (features booleans, limits integers) and usage with the documented types",
  },
  {
    id: "me.usage",
    kind: "shape",
    quote:
      "`{balance, balance_used, balance_total, currency}` in US dollars; `balance_used` and `balance_total` cover the current billing period",
  },
  {
    id: "me.credits-renamed-not-aliased",
    kind: "shape",
    quote: "the old names are gone, not aliased.",
    also: [
      "the dollar-era rename of `usage.credits_used` / `usage.credits_total` to `usage.balance_used` / `usage.balance_total` (later re-added as additive credit fields)",
    ],
    rule: "usage.credits_used / credits_total are credit fields, not aliases of the dollar fields",
    note: "judged by value: with a dollar rate other than 1, a non-zero credits_used / credits_total never equals balance_used / balance_total (skipped at rate 1 or null)",
  },
  {
    id: "me.billing-unit-null-projection",
    kind: "shape",
    quote: "an unavailable credit projection is null, never an invented rate.",
    notObservable:
      "whether a credit projection is available is not shown to a client, so an invented rate cannot be told from a real one",
  },
  {
    id: "usage-history.quantity-non-negative",
    kind: "charge",
    quote:
      "`quantity` (non-negative US dollars charged in the credit-era revision; earlier text states charges positive and refunds negative)",
  },
  {
    id: "usage-history.credit-value-basis",
    kind: "shape",
    quote:
      "`credit_value_basis` is `snapshot` (complete captured terms), `current` (pre-snapshot event projected at today's rate) or null metadata (no rate available).",
  },
  {
    id: "usage-history.ai-assistant-old-rows-only",
    kind: "only",
    quote: "`ai_assistant` appears only on old rows.",
    note: "every usage row dated at or after the shared ask turn's chat (the deployment's clock) is judged, whatever wrote it",
  },
  {
    id: "prices.fields",
    kind: "shape",
    quote:
      "`GET /v1/prices` data: `currency` (`usd`), `rate` (dollars per unit; can be null on a category-priced contract), `prices` (`audience_profile`, `mention`, `post_processing`, `preview_generation`, each in dollars per result), `prices_credits` (same four keys; six-decimal strings or null), `billing` (`{unit, catalog_version, precision}`, can be null).",
  },
  {
    id: "prices.exact-decimals",
    kind: "shape",
    quote: "Values are exact small decimals; clients keep full precision.",
  },

  // ── States and transitions ─────────────────────────────────────────────
  {
    id: "dataset-run.states",
    kind: "transition",
    quote: "States: `pending`, `working`, `completed`, `failed`.",
    rule: "a run moves only pending → working → completed | failed and a terminal state never changes",
  },
  {
    id: "dataset-run.create-pending-202",
    kind: "transition",
    quote:
      "| (none) | POST dataset run | request accepted | `pending` | returns immediately with 202; reservation taken |",
    also: ["| POST /v1/datasets/{dataset_id}/runs | body below | 202, run create response (status `pending`) |"],
  },
  {
    id: "dataset-run.pending-to-working",
    kind: "transition",
    quote:
      "| `pending` | pipeline progress | run starts | `working` | steps (scraping, enrichment, analysis) record `completed_at` |",
  },
  {
    id: "dataset-run.working-to-completed",
    kind: "transition",
    quote:
      "| `working` | pipeline | all steps finish | `completed` | charge is for collected mentions only; unused reservation refunded |",
  },
  {
    id: "dataset-run.to-failed",
    kind: "transition",
    quote: "| `pending` or `working` | pipeline | run errors | `failed` | full reservation refunded;",
  },
  {
    id: "audience-run.states",
    kind: "transition",
    quote: "An audience run is asynchronous in the same way as a dataset run and has the same four status types;",
  },
  {
    id: "audience-run.409-while-in-flight",
    kind: "transition",
    quote: "while one is `pending` or `working`, another run on that audience dataset is refused with 409.",
    also: [
      "Another run pending or working on the same audience dataset: 409 `audience_dataset_run_already_in_flight`.",
      "| 409 | `audience_dataset_run_already_in_flight` | a pending or working run blocks a new one |",
      "| Audience dataset runs | one in flight per audience dataset (409 otherwise) |",
    ],
  },
  {
    id: "pattern-detection-run.transitions",
    kind: "transition",
    quote: "States seen: `pending`, `completed` (with `pattern_id`).",
    unsettled:
      "the seed names only the states seen and says the transitions are not shown, so it states no move to judge; the moves a detection is held to (pending → working → completed | failed, an ended run never changing) are D-RUN-STATES', judged by pattern-detection-run-state-machine as that decision (the pending start and pattern_id once completed are rows of their own)",
    decision: "D-RUN-STATES",
  },
  {
    id: "pattern-detection-run.failure-refund",
    kind: "charge",
    quote: "Failure refunds the reservation in full.",
    note: "asserted only when a detection fails: the kit cannot make one fail, and the reference's detections complete",
  },
  {
    id: "custom-parameter-run.processing",
    kind: "transition",
    quote: "State seen: `processing`.",
    uncovered:
      "a value seen, not a rule: the other states and every transition are \"not shown\", so a run may end or start under names of its own; the contract's names and moves (processing → completed | failed) are D-RUN-STATES', judged as a decision (custom-parameter-run-state-machine), and completion is judged by the counters (custom-parameter-run.complete-when-sum)",
  },
  {
    id: "tracking-agent.pause",
    kind: "transition",
    quote: "| `active` | POST pause | agent exists | `paused` (`paused` = true) | no scheduled work |",
  },
  {
    id: "tracking-agent.resume",
    kind: "transition",
    quote: "| `paused` | POST resume | agent exists | `active` |",
  },
  {
    id: "tracking-agent.resume-keeps-history",
    kind: "transition",
    quote: "| `active` | history retained |",
    rule: "pausing and resuming keeps the agent's earlier alert messages",
  },
  {
    id: "tracking-agent.delete",
    kind: "transition",
    quote:
      "| `active` or `paused` | DELETE | agent exists | `deleted` | soft delete: agent and messages hidden from lists",
    also: ["| DELETE /v1/tracking_agents/{agent_id} | | empty body; soft delete | `not_found` |"],
  },
  {
    id: "tracking-agent.delete-retained",
    kind: "transition",
    quote: "retained server-side",
    notObservable: "what the server keeps after a soft delete is hidden from every client by the same rule",
  },
  {
    id: "tracking-agent.trigger",
    kind: "transition",
    quote:
      "| `active` | POST trigger | balance covers reservation; no run in progress; dataset has queries | `active` | out-of-schedule cycle starts; agent run created with `in_progress` |",
  },
  {
    id: "assistant-turn.states",
    kind: "transition",
    quote:
      "Status values: `working`, `completed`, `failed`. POST ask returns `working`; polling the message until `completed` or `failed`.",
    also: [
      "| GET /v1/chats/{chat_id}/messages/{message_id} | | polled until `status` is `completed` or `failed`; carries markdown `text` and `references[]` |",
    ],
  },
  {
    id: "assistant-turn.mcp-stop-reason",
    kind: "transition",
    quote: "In the tool surface `stop_reason` is null while working and non-null once finished;",
    also: ["stop_reason (null until finished)"],
  },
  {
    id: "assistant-turn.mcp-blocks-once-settled",
    kind: "transition",
    quote: "content `blocks` arrive only once the turn settles.",
  },

  // ── Endpoints (all) ────────────────────────────────────────────────────
  {
    id: "endpoints.api-key-required",
    kind: "auth",
    quote: "All require the API key header (see Authentication).",
    also: ["Every REST request carries the header `x-api-key` with an API key."],
  },
  {
    id: "endpoints.404-unknown-or-foreign",
    kind: "status",
    quote: "Every endpoint that takes a path id can return 404 for an unknown or foreign id,",
    also: [
      "| 404 | `dataset_not_found`, `audience_dataset_not_found`, `pattern_not_found`, `pattern_detection_run_not_found`, `chat_not_found`, `custom_parameter_not_found`, `not_found` | missing or foreign resource |",
    ],
  },
  {
    id: "endpoints.422-on-body-or-query",
    kind: "status",
    quote: "every endpoint with a body or query can return 422 with the validation body.",
    also: ["| 422 | `unprocessable_entity` | malformed body or query |"],
  },

  // ── Endpoints › Datasets ───────────────────────────────────────────────
  {
    id: "datasets.create.201",
    kind: "status",
    quote: "| POST /v1/datasets | body `{name: string 1-255, required}` | 201, Dataset (id, name, created_at) |",
  },
  {
    id: "datasets.list.default-limit",
    kind: "default",
    quote: "| GET /v1/datasets | query limit (default 10)",
    also: ["defaults 10 (resources)"],
    note: "the page without limit is compared with limit=10's (the same items, the same has_next) once the kit has filled the list past ten datasets",
  },
  {
    id: "datasets.list.sorted",
    kind: "order",
    quote: "| 200, list of Dataset, sorted by created_at |",
  },
  {
    id: "datasets.read.200",
    kind: "status",
    quote: "| GET /v1/datasets/{dataset_id} | | 200, Dataset | `dataset_not_found` |",
  },
  {
    id: "datasets.update.only-name",
    kind: "only",
    quote: "| PATCH /v1/datasets/{dataset_id} | body `{name?}`; only updatable field.",
    rule: "a PATCH changes nothing but the name",
    note: "url, mentions_count and created_at sent beside name are read back unchanged",
  },
  {
    id: "datasets.update.semantics",
    kind: "default",
    quote:
      "Empty body is a no-op returning the current dataset; empty string name stores null | 200, Dataset | `dataset_not_found` |",
  },
  {
    id: "datasets.delete.204",
    kind: "status",
    quote:
      "| DELETE /v1/datasets/{dataset_id} | | 204; soft delete; dataset and its runs disappear from lists and by-id reads | `dataset_not_found` |",
  },
  {
    id: "datasets.runs.create.402",
    kind: "error",
    quote: "402 `insufficient_credits_dataset_run`;",
  },
  {
    id: "datasets.runs.create.404",
    kind: "error",
    quote: "404 `dataset_not_found`; 422 family",
  },
  {
    id: "datasets.runs.create.collection-content-type-mismatch",
    kind: "error",
    quote: "including `collection_content_type_mismatch`",
    notObservable: "the seed never says which request gets this code, so no client can provoke it on purpose",
  },
  {
    id: "datasets.runs.create.date-filter-unavailable",
    kind: "error",
    quote: "and `date_filter_unavailable` |",
    also: ["validated against plan"],
    rule: "a date_range on a plan without custom_date_filter is refused with date_filter_unavailable",
    uncovered:
      "no configured demo key's plan lacks custom_date_filter (Pro, Starter and the spent Starter all have it), so a refusal cannot be provoked against the reference; and reading the flag as the trigger of date_filter_unavailable is the contract's D-PLAN-DATE-FILTER (Kit: not checked), not a seed rule, so a seed-level check of it has no honest footing",
    cheap:
      "with the foreign or poor key, when GET /v1/me says plan.features.custom_date_filter is false: a run with date_range gets 422 date_filter_unavailable",
  },
  {
    id: "datasets.runs.list.default-limit",
    kind: "default",
    quote: "| GET /v1/datasets/{dataset_id}/runs | limit (default 10)",
    note: "the page without limit is compared with limit=10's (the same runs, the same has_next) on a dataset the kit gives eleven one-URL runs",
  },
  {
    id: "datasets.runs.list.404",
    kind: "error",
    quote: "| 200, list of dataset run | `dataset_not_found` |",
  },
  {
    id: "datasets.runs.read.404",
    kind: "error",
    quote:
      "| GET /v1/datasets/{dataset_id}/runs/{run_id} | | 200, dataset run | `dataset_not_found` (404 may also report an unknown run)",
  },
  {
    id: "datasets.runs.body.search-query-required",
    kind: "bound",
    quote: "| search_query | union (see Resources) | required |",
  },
  {
    id: "datasets.runs.body.count-range",
    kind: "bound",
    quote: "| count | integer | 20-1000,",
    also: ["count 20-1000;"],
  },
  {
    id: "datasets.runs.body.count-default",
    kind: "default",
    quote: "20-1000, default 200 |",
    note: "judged through the run's params echo (an echo without the field, or null, is tolerated by D-RUN-PARAMS-ECHO and leaves it not exercised), and by two one-URL runs, one without count and one with count 200, whose create responses give the same count and requested_count",
  },
  {
    id: "datasets.runs.body.comments-range",
    kind: "bound",
    quote: "| num_comments_per_post | integer | 0-100,",
    also: ["num_comments_per_post 0-100;"],
  },
  {
    id: "datasets.runs.body.comments-default",
    kind: "default",
    quote: "0-100, default 10 |",
    note: "judged through the run's params echo: against the default, and against the echo of a run that sends the default (an echo without the field, or null, is tolerated by D-RUN-PARAMS-ECHO and leaves the default not exercised)",
  },
  {
    id: "datasets.runs.body.date-range-order",
    kind: "bound",
    quote: "`from` must precede `to`;",
  },
  {
    id: "datasets.runs.body.date-range-plan-span",
    kind: "bound",
    quote: "span must not exceed the plan maximum;",
    notObservable:
      "the plan maximum is not shown anywhere a client can read it, so no client knows which span must be refused",
  },
  {
    id: "datasets.runs.body.country-code",
    kind: "bound",
    quote: "| country_code | string | ISO 3166-1 alpha-2,",
  },
  {
    id: "datasets.runs.body.country-default",
    kind: "default",
    quote: "alpha-2, default `US` |",
    note: "judged through the run's params echo: against the default, and against the echo of a run that sends the default (an echo without the field, or null, is tolerated by D-RUN-PARAMS-ECHO and leaves the default not exercised)",
  },
  {
    id: "datasets.runs.body.language",
    kind: "bound",
    quote: "| language | string | BCP-47 tag, optional |",
  },
  {
    id: "datasets.runs.body.visual-default",
    kind: "default",
    quote: "| enable_visual_recognition | boolean | default false |",
    note: "judged through the run's params echo: against the default, and against the echo of a run that sends the default (an echo without the field, or null, is tolerated by D-RUN-PARAMS-ECHO and leaves the default not exercised)",
  },
  {
    id: "datasets.runs.body.transcribing-default",
    kind: "default",
    quote: "| enable_transcribing | boolean | default false |",
    note: "judged through the run's params echo: against the default, and against the echo of a run that sends the default (an echo without the field, or null, is tolerated by D-RUN-PARAMS-ECHO and leaves the default not exercised)",
  },
  {
    id: "datasets.runs.body.actions",
    kind: "bound",
    quote:
      "values: `content_category`, `tone_of_voice`, `narrative_structure`, `intent`, `hook`, `mentioned_brands`, `topics`, `emotions`, `cta`, `entities`, `questions`, `sentiment`, `signal` |",
    rule: "each documented action is accepted, an undocumented one is refused",
    note: "the refusal of an unknown value only: valid-run-body-accepted sends random subsets of the documented values (three runs, not every value)",
  },
  {
    id: "datasets.runs.prompt-365-days",
    kind: "default",
    quote: "A `prompt` search with no `date_range` defaults to the past 365 days;",
    note: "judged on the completed run's mentions (up to 100, sorted by date ascending): the oldest is at most 366 days old and none is dated after tomorrow; whether the window reaches back the whole year is not judged",
  },
  {
    id: "datasets.runs.url-no-date-filter",
    kind: "default",
    quote: "A `url` search applies no date filter.",
    uncovered:
      "a URL run collects the posts it is given; to see that no date filter applied, the kit would need URLs of posts it knows to be older than a year, and a deployment's posts carry no date the kit can know before the run (the reference dates URL posts from a fixed window, a real platform from the post itself)",
  },
  {
    id: "datasets.runs.several-in-flight",
    kind: "transition",
    quote: "Regular datasets allow several runs in flight at once.",
    also: ["| Dataset runs | several may run concurrently on one dataset |"],
    note: "valid-run-body-accepted starts several runs on one dataset without waiting for the previous one",
  },
  {
    id: "datasets.runs.mentions-pool",
    kind: "shape",
    quote: "Mentions live across runs; a new run adds to the same pool.",
    note: "two one-URL runs into one dataset (distinct, well-formed post URLs): the posts listed after the first run stay listed, and when the deployment reports the dataset gained posts (its mentions_count, else the run's new_mentions_count) the listing gained some; whether two URLs are two posts is the deployment's to say",
  },

  // ── Endpoints › Audience datasets ──────────────────────────────────────
  {
    id: "audience-datasets.create",
    kind: "status",
    quote: "| POST /v1/audience_datasets | body `{name: 1-255 chars}` | 201, AudienceDataset |",
  },
  {
    id: "audience-datasets.create.400-plan",
    kind: "error",
    quote: "400 when the plan does not include audience research |",
    also: ["audience dataset creation without plan support is also 400"],
    note: "exercised only when a configured key's plan reports audience_research false (the demo Starter keys do); skipped otherwise",
  },
  {
    id: "audience-datasets.list.default-limit",
    kind: "default",
    quote: "| GET /v1/audience_datasets | limit (default 10)",
    note: "the page without limit is compared with limit=10's (the same items, the same has_next) once the kit has filled the list past ten audience datasets (free; not on a plan without audience research)",
  },
  {
    id: "audience-datasets.list",
    kind: "order",
    quote: "| 200, list sorted by created_at; soft-deleted excluded | |",
  },
  {
    id: "audience-datasets.read",
    kind: "status",
    quote: "| GET /v1/audience_datasets/{audience_dataset_id} | | 200 | `audience_dataset_not_found` |",
  },
  {
    id: "audience-datasets.update",
    kind: "status",
    quote: "| PATCH /v1/audience_datasets/{audience_dataset_id} | body `{name}` | 200, AudienceDataset |",
  },
  {
    id: "audience-datasets.update.404",
    kind: "error",
    quote: "| 200, AudienceDataset | `audience_dataset_not_found` |",
  },
  {
    id: "audience-datasets.delete",
    kind: "status",
    quote:
      "| DELETE /v1/audience_datasets/{audience_dataset_id} | | empty body on success | `audience_dataset_not_found` |",
  },
  {
    id: "audience-datasets.runs.body",
    kind: "bound",
    quote:
      "| POST /v1/audience_datasets/{audience_dataset_id}/runs | body `{source_dataset_id: string, required; total_profile_count: integer 1-2000,",
    also: ["| Audience run | total_profile_count 1-2000;"],
  },
  {
    id: "audience-datasets.runs.profile-count-default",
    kind: "default",
    quote: "total_profile_count: integer 1-2000, default 300}`",
    also: ["(reservation sized by total_profile_count, default 300)"],
    note: "the seed rule is judged through the reservation (300 × the audience_profile price, read only while the run is pending or working on both sides of the balance read); target_profile_count 300 is D-AUD-RUN-COUNTS; a run refused 400 or 402 for the account's plan, data or balance skips",
  },
  {
    id: "audience-datasets.runs.create.202",
    kind: "status",
    quote: "| 202 run create response | see below |",
  },
  {
    id: "audience-datasets.runs.list",
    kind: "status",
    quote:
      "| GET /v1/audience_datasets/{audience_dataset_id}/runs | limit, cursor, order | 200, list of audience run | `audience_dataset_not_found` |",
  },
  {
    id: "audience-datasets.runs.read",
    kind: "status",
    quote: "| GET /v1/audience_datasets/{audience_dataset_id}/runs/{run_id} | | 200, audience run |",
  },
  {
    id: "audience-datasets.runs.read.404",
    kind: "error",
    quote: "| 200, audience run | `audience_dataset_not_found` |",
    rule: "a run read under an unknown audience dataset is 404 audience_dataset_not_found",
  },
  {
    id: "audience-datasets.runs.min-5-posts",
    kind: "bound",
    quote:
      "The source dataset needs at least 5 posts from platforms supporting audience profiling; YouTube posts do not count.",
    also: ["source needs at least 5 eligible posts"],
    note: "judged with 2 eligible posts (refused) and 6 (accepted), not at the edge of 4 and 5",
  },
  {
    id: "audience-datasets.runs.youtube-only",
    kind: "error",
    quote: "A YouTube-only source: 400 `audience_youtube_only_source`.",
    note: 'held strictly on a YouTube-only source of 2 posts: the minimum\'s code is for the other sources ("Other sources below the minimum"); not exercised when its run collected no post',
  },
  {
    id: "audience-datasets.runs.insufficient-mentions",
    kind: "error",
    quote: "Other sources below the minimum: 400 `audience_insufficient_source_mentions`.",
    note: "a 2-post reddit source with a completed run, to which no other rule applies; sources that break several rules get the contract's order (D-AUD-RUN-400, a warning)",
  },
  {
    id: "audience-datasets.runs.refused-before-run",
    kind: "error",
    quote: "Both are returned before a run starts.",
  },
  {
    id: "audience-datasets.runs.no-completed-run",
    kind: "error",
    quote: "Source dataset without a completed run: 400 `source_dataset_has_no_completed_run`.",
    uncovered:
      "a source without a completed run has no counted posts, so the minimum rule applies too and the kit accepts either code with a warning (D-AUD-RUN-400, D-AUD-ELIGIBLE); the 400 itself is judged (errors.400-codes)",
  },
  {
    id: "audience-datasets.runs.402",
    kind: "error",
    quote: "Insufficient balance: 402 `insufficient_credits_audience_dataset_run`.",
    note: "with the main key, when 2000 profiles cost more than its balance (the poor key's Starter plan has no audience research); that nothing is charged is judged by the run list staying empty, not by the balance, which earlier runs of the main account may still move",
  },
  {
    id: "audience-datasets.runs.stops-early",
    kind: "bound",
    quote: "The run stops early when the source has fewer distinct authors than `total_profile_count`.",
    rule: "a run whose source has fewer distinct authors than asked completes with that many profiles",
    uncovered:
      "only profile_count <= total_profile_count is asserted (audience-run-state-machine); no check compares the count with the source's authors, and a run that does not complete is not a finding",
  },
  {
    id: "audience-datasets.runs.walk-order",
    kind: "order",
    quote:
      "Authors plus commenters of posts across every completed run of the source (deduplicated, newest first) are walked.",
    uncovered: "no check compares the profiles with the source's authors and commenters",
  },
  {
    id: "audience-datasets.runs.source-deleted",
    kind: "isolation",
    quote: "Profiles stay readable after the source dataset is soft-deleted; new runs can no longer target it.",
  },

  // ── Endpoints › Audience profiles ──────────────────────────────────────
  {
    id: "audience-profiles.omit-spans-all",
    kind: "default",
    quote: "optional; omit to span all account datasets",
    also: ["optional; defaults to all account audience datasets; mirrors the REST profiles endpoint"],
    rule: "a profile search without audience_dataset_ids returns the profiles of every audience dataset of the account",
    note: "REST only, sampled: the newest 5 profiles of up to 3 audience datasets holding profiles must be in the walk without ids (at most 10 pages of 100); the MCP tool is held to REST by mcp-rest-agreement",
  },
  {
    id: "audience-profiles.filters-at-most-10",
    kind: "bound",
    quote: "at most 10 filters in total; the exact filter union: not shown |",
    note: "the 11 filters (groups of 6 and 5) are the contract's keyword profile filters (D-AUD-PROFILE-FILTERS): the seed shows no filter union, so a deployment with another union refuses them as filters and the total goes unexercised",
  },
  {
    id: "audience-profiles.sort-order",
    kind: "bound",
    quote: "| sort | enum | `created_at`, `audience_dataset_run_at` |",
    note: "an unknown sort or order value is refused; the order of the answer is not compared",
  },
  {
    id: "audience-profiles.limit",
    kind: "bound",
    quote: "| limit | integer | 1-100, default 20 |",
    rule: "limit 1-100",
  },
  {
    id: "audience-profiles.default-limit",
    kind: "default",
    quote: "1-100, default 20 |",
    also: ["20 (mentions, profiles)"],
    rule: "without limit a profile search answers the page limit=20 answers",
    note: "the same profiles and the same has_next; an account holding 20 or fewer gets one audience run of what is missing (charged profiles), and a default of as many profiles as it then holds or more would not show",
  },
  {
    id: "audience-profiles.cursor-sort",
    kind: "pagination",
    quote: "encodes the sort; do not reuse across a change of sort",
    notObservable:
      "an instruction to clients; what a profile search answers to a reused cursor is not stated (the mention search's is)",
  },
  {
    id: "audience-profiles.404",
    kind: "error",
    quote: "Response: list of AudienceProfile. Error: 404 `audience_dataset_not_found`.",
    note: "an unknown id only; a foreign one is not sent",
  },

  // ── Endpoints › Mentions ───────────────────────────────────────────────
  {
    id: "mentions.filters.or-and",
    kind: "shape",
    quote: "groups OR-ed, filters within a group AND-ed,",
    note: "two filter types that split one of the kit's small datasets (the custom parameter checks' source, else the kit's labelled pool), sent alone, AND-ed and OR-ed; not in the readonly profile",
  },
  {
    id: "mentions.filters.at-most-10",
    kind: "bound",
    quote: "at most 10 filters in total |",
    also: ["| Filters | at most 10 per mentions or profiles request |"],
    rule: "a mention search with more than 10 filters in total is refused with 422",
    note: "11 keyword filters in groups of 6 and 5, each group valid alone",
  },
  {
    id: "mentions.sort",
    kind: "order",
    quote:
      "| sort | enum | `date`, `likes`, `engagement_rate`, `views`, `comments`, `shares`, `sentiment_score`, `dataset_run_at` |",
    also: ["| order | enum | `asc`, `desc` |"],
    rule: "a search sorted by a documented key lists mentions in that key's order, order=desc descending and order=asc ascending",
  },
  {
    id: "mentions.limit",
    kind: "bound",
    quote: "| limit | integer | 1-100, default 20 |",
    rule: "limit 1-100",
  },
  {
    id: "mentions.default-limit",
    kind: "default",
    quote: "1-100, default 20 |",
    rule: "without limit a mention search answers the page limit=20 answers",
    note: "the same mentions and the same has_next, compared on an account the kit fills past 20 mentions (one prompt run when it holds fewer)",
  },
  {
    id: "mentions.cursor-sort",
    kind: "pagination",
    quote: "sort-aware; a cursor from another sort is rejected by validation",
  },
  {
    id: "mentions.parameter-ids",
    kind: "shape",
    quote: "| parameter_ids | array of string | includes extracted custom values |",
    also: ["Read extracted values afterwards via `POST /v1/mentions` with `parameter_ids`."],
  },
  {
    id: "mentions.filters.applied",
    kind: "shape",
    quote: "Filter taxonomy (a single filter carries `type` plus the shape below):",
    rule: "a filter of each documented type returns only mentions that satisfy it",
    note: "country_code and metric_change are not exercised (rows below)",
  },
  {
    id: "mentions.filters.keyword-2-words",
    kind: "bound",
    quote: "| keyword | `{operator: is or is_not, value}`; at most 2 words |",
    rule: "a keyword filter of three words is refused",
  },
  {
    id: "mentions.filters.metric-change",
    kind: "shape",
    quote: "operator is one of `greater_than`, `less_than`, `in_range`, `changed_by`;",
    note: "an operator outside the four is refused, sent as a string and as an object; the inner shapes are not shown, and what the filter keeps needs metric history the kit cannot build",
  },
  {
    id: "mentions.filters.country-code",
    kind: "shape",
    quote: "| country_code | `{values: [uppercase ISO 3166-1 alpha-2]}` |",
    note: "a lowercase code is refused; no mention field carries the country, so what the filter keeps is not judged",
  },
  {
    id: "mentions.404",
    kind: "error",
    quote: "Response: list of Mention. Error: 404 `dataset_not_found`.",
  },

  // ── Endpoints › Research previews ──────────────────────────────────────
  {
    id: "previews.create.persisted",
    kind: "status",
    quote:
      "| POST /v1/research_previews | tagged union on `type` (below) | result (see Resources); persisted and retrievable",
  },
  {
    id: "previews.create.402",
    kind: "error",
    quote: "402 `insufficient_credits_research_preview` (before any scraping; never partially charged)",
  },
  {
    id: "previews.read",
    kind: "charge",
    quote:
      "| GET /v1/research_previews/{preview_id} | | the stored sample; free; no re-scrape; scoped to the account | 404 for unknown or foreign id |",
    also: ["preview re-fetch)"],
  },
  {
    id: "previews.prompt.one-window",
    kind: "bound",
    quote:
      "exactly one time window: a relative `time_filter` or an absolute pair `date_since` plus `date_until`. Both, neither, or an incomplete pair gives 422.",
    note: "both, neither and date_since alone, each refused with 422; that nothing is charged is not judged here",
  },

  // ── Endpoints › Pattern detections and patterns ────────────────────────
  {
    id: "pattern-detections.create",
    kind: "status",
    quote:
      "| POST /v1/pattern_detections | body `{dataset_id, name, research_question}` | 200-range success with run: `run_id`, `dataset_id`, `name`, `research_question`, `created_at`, `status` (`pending`) |",
  },
  {
    id: "pattern-detections.create.402",
    kind: "error",
    quote: "402 `insufficient_credits_pattern_detection` (no partial runs)",
    uncovered:
      "a detection is sized by the posts of the dataset's most recent completed run: the poor account cannot hold one: every run it starts is refused 402, so it never owns a dataset with a completed run or mentions, and the main account's balance funds any detection over a dataset the kit can afford to collect",
    cheap:
      "with the poor key, on a dataset of its own with a completed run: 402 insufficient_credits_pattern_detection, no run",
  },
  {
    id: "pattern-detections.create.404",
    kind: "error",
    quote: "(no partial runs); 404 `dataset_not_found` |",
  },
  {
    id: "pattern-detections.read.404",
    kind: "error",
    quote:
      "| GET /v1/pattern_detections/{run_id} | | run; when completed includes `pattern_id` | 404 `pattern_detection_run_not_found` |",
    note: "mcp-tool-error-shape sends the unknown id over REST; the 404 body's error_code is the schema's",
  },
  {
    id: "patterns.read",
    kind: "status",
    quote: "| GET /v1/patterns/{pattern_id} | | pattern summary with `items[]`; read-only,",
  },
  {
    id: "patterns.item",
    kind: "status",
    quote: "| GET /v1/patterns/{pattern_id}/items/{item_id} | | the item with its constituent posts | |",
  },

  // ── Endpoints › Custom parameters ──────────────────────────────────────
  {
    id: "custom-parameters.create",
    kind: "status",
    quote: "| POST /v1/custom_parameters | `{name, instructions, value_type}` | CustomParameter |",
  },
  {
    id: "custom-parameters.create.limit-exceeded",
    kind: "error",
    quote: "`custom_parameter_limit_exceeded`,",
    notObservable:
      "the seed says the ceiling per account is not shown and no plan limit names it: no client knows when the refusal is due, short of creating parameters without end",
  },
  {
    id: "custom-parameters.create.name-errors",
    kind: "error",
    quote: "`custom_parameter_duplicate_name`, `custom_parameter_empty_name` |",
  },
  {
    id: "custom-parameters.list",
    kind: "status",
    quote: "| GET /v1/custom_parameters | | array of CustomParameter | |",
  },
  {
    id: "custom-parameters.preview.post-refs-1-5",
    kind: "bound",
    quote: "| POST /v1/custom_parameters/preview | `{instructions, value_type, post_refs: 1-5 of {id, source}}`",
    also: ["| Preview of custom parameter | 1-5 post_refs |"],
    note: "six distinct copies of the example's first post ref; the empty list too (the sweep's minItems case)",
  },
  {
    id: "custom-parameters.preview",
    kind: "charge",
    quote: "`{results: [{post_id, source, value}]}`; free |",
    also: ["Free: custom parameter preview"],
  },
  {
    id: "custom-parameters.read.404",
    kind: "error",
    quote: "| GET /v1/custom_parameters/{parameter_id} | | CustomParameter | `custom_parameter_not_found` |",
  },
  {
    id: "custom-parameters.update",
    kind: "status",
    quote:
      "| PATCH /v1/custom_parameters/{parameter_id} | partial body (`name` shown; other fields: not shown) | CustomParameter |",
    rule: "PATCH {name} renames the parameter (200)",
    note: "any 2xx carrying the renamed CustomParameter: the table names no status",
  },
  {
    id: "custom-parameters.update.errors",
    kind: "error",
    quote:
      "| CustomParameter | `custom_parameter_not_found`, `custom_parameter_duplicate_name`, `custom_parameter_empty_name` |",
  },
  {
    id: "custom-parameters.delete",
    kind: "status",
    quote: "| DELETE /v1/custom_parameters/{parameter_id} | | empty body | `custom_parameter_not_found` |",
  },
  {
    id: "custom-parameters.runs.scope-only-dataset",
    kind: "only",
    quote:
      "| POST /v1/custom_parameters/{parameter_id}/runs | `{scope: {kind: dataset, id}}`; `dataset` is the only kind | `{run_id}` |",
  },
  {
    id: "custom-parameters.runs.402",
    kind: "error",
    quote: "| `insufficient_credits_content_analysis`,",
    uncovered:
      "a parameter run is sized by the dataset's mentions (an empty dataset is nothing_to_analyze): the poor account cannot hold one: every run it starts is refused 402, so it never owns a dataset with a completed run or mentions, and the main account's balance funds any run over a dataset the kit can afford to collect",
    cheap: "with the poor key, on a dataset of its own with mentions: 402 insufficient_credits_content_analysis",
  },
  {
    id: "custom-parameters.runs.codes",
    kind: "error",
    quote: "`custom_parameter_not_found`, `custom_parameter_run_in_flight`, `nothing_to_analyze` |",
  },
  {
    id: "custom-parameters.runs.list",
    kind: "status",
    quote: "| GET /v1/custom_parameters/{parameter_id}/runs | | array of run | |",
  },
  {
    id: "custom-parameters.runs.read.404",
    kind: "error",
    quote: "| GET /v1/custom_parameters/{parameter_id}/runs/{run_id} | | run | `custom_parameter_not_found` |",
    rule: "a run read under an unknown parameter is 404 custom_parameter_not_found",
  },

  // ── Endpoints › Tracking agents ────────────────────────────────────────
  {
    id: "tracking-agents.create",
    kind: "status",
    quote:
      "| POST /v1/tracking_agents | `{name, instructions, dataset_ids[], integration_ids[], count, num_comments_per_post, schedule}` | TrackingAgent |",
  },
  {
    id: "tracking-agents.create.limit-reached",
    kind: "error",
    quote: "`tracking_agent_limit_reached`,",
    note: "the cap is GET /v1/me's plan.limits.tracking_agents; a cap more than 15 agents above the live count is not exercised; the status (409) is D-409's",
  },
  {
    id: "tracking-agents.create.404",
    kind: "error",
    quote: "`tracking_agent_limit_reached`, `not_found` |",
    rule: "an agent over an unknown dataset is refused with not_found",
    note: "the 404 only: the contract answers dataset_not_found (D-TA-CREATE-404) and accepts the seed's not_found",
  },
  {
    id: "tracking-agents.list",
    kind: "status",
    quote: "| GET /v1/tracking_agents | | array of TrackingAgent | |",
  },
  {
    id: "tracking-agents.read.404",
    kind: "error",
    quote: "| GET /v1/tracking_agents/{agent_id} | | TrackingAgent | `not_found` |",
  },
  {
    id: "tracking-agents.update",
    kind: "status",
    quote:
      "| PATCH /v1/tracking_agents/{agent_id} | partial body (`name`, `schedule` shown; other fields: not shown) | TrackingAgent | `not_found` |",
  },
  {
    id: "tracking-agents.pause-resume.empty",
    kind: "status",
    quote: "| POST /v1/tracking_agents/{agent_id}/pause | | empty body | `not_found` |",
    also: ["| POST /v1/tracking_agents/{agent_id}/resume | | empty body | `not_found` |"],
  },
  {
    id: "tracking-agents.trigger",
    kind: "status",
    quote: "| POST /v1/tracking_agents/{agent_id}/trigger | | agent run |",
  },
  {
    id: "tracking-agents.trigger.402",
    kind: "error",
    quote: "| agent run | 402 `insufficient_credits`;",
    also: ["`insufficient_credits` (tracking trigger)."],
    uncovered:
      "a trigger needs a dataset with a query to repeat (dataset_has_no_queries otherwise): the poor account cannot hold one: every run it starts is refused 402, so it never owns a dataset with a completed run or mentions; on the main account an unfundable cycle needs about six datasets with runs (1000 mentions each reserved), too costly for the kit",
    cheap: "the poor key's agent over a dataset with a run: trigger gets 402 insufficient_credits, nothing reserved",
  },
  {
    id: "tracking-agents.trigger.codes",
    kind: "error",
    quote: "`not_found`; `tracking_agent_run_in_progress`; `dataset_has_no_queries` |",
  },
  {
    id: "tracking-agents.messages.default-limit",
    kind: "default",
    quote: "| GET /v1/tracking_agents/{agent_id}/messages | query `limit` (default 25,",
    also: ["25 (chat messages, usage history, agent messages)"],
    uncovered:
      "judging the default page needs more than 25 alert messages in one agent's feed: each is a triggered cycle (a dataset run of at least 20 mentions reserved, then settled), 26 cycles are too costly for a kit run, and a readonly account's agents cannot be assumed to hold that many",
  },
  {
    id: "tracking-agents.messages.limit",
    kind: "bound",
    quote: "query `limit` (default 25, 1-100), `cursor` | list of agent message",
    rule: "limit 1-100",
  },
  {
    id: "tracking-agents.messages.newest-first",
    kind: "order",
    quote: "| list of agent message, newest first |",
  },
  {
    id: "tracking-agents.messages.not-found",
    kind: "error",
    quote: "newest first | `not_found`,",
  },
  {
    id: "tracking-agents.messages.invalid-cursor",
    kind: "error",
    quote: "`invalid_cursor` |",
    note: "the code is the seed's; its status 400 is D-CURSOR. Needs an agent: the first listed, else one the kit creates (none in readonly)",
  },

  // ── Endpoints › Ask and chats ──────────────────────────────────────────
  {
    id: "ask.body",
    kind: "bound",
    quote: "| POST /v1/ask | body `{message: string, required;",
  },
  {
    id: "ask.post-refs-at-most-50",
    kind: "bound",
    quote: "post_refs?: up to 50 of {id, source}}}`",
    also: ["| Ask | at most 50 post_refs;"],
    rule: "POST /v1/ask with 51 post_refs is refused with 422",
    note: "51 distinct copies of the example's first post ref; that no chat is created is not judged here",
  },
  {
    id: "ask.202",
    kind: "status",
    quote: "| 202 `{chat_id, message_id, status: working}`; no reply text |",
  },
  {
    id: "ask.402",
    kind: "error",
    quote: "402 `insufficient_credits_ask` (before any turn starts; nothing created or charged);",
    also: ["A spent balance gives 402 `insufficient_credits_ask`."],
  },
  {
    id: "ask.assistant-errors",
    kind: "error",
    quote: "`ai_assistant_unavailable`; `ai_assistant_timeout`; 422 |",
    rule: "an unavailable or timed-out assistant answers ai_assistant_unavailable / ai_assistant_timeout",
    notObservable:
      "no client can provoke an assistant outage or timeout, and the seed does not show their statuses (D-AI-5XX); the generated zod still judges such a body when one is observed",
  },
  {
    id: "chats.read",
    kind: "status",
    quote: "| GET /v1/chats/{chat_id} | | Chat | `chat_not_found` |",
  },
  {
    id: "chats.messages.default-limit",
    kind: "default",
    quote: "| GET /v1/chats/{chat_id}/messages | `limit` (default 25,",
    uncovered:
      "judging the default page needs more than 25 messages in one chat: 13 assistant turns (each charged by tokens and polled to its end) are too costly for a kit run; the kit's chats hold one turn",
  },
  {
    id: "chats.messages.limit",
    kind: "bound",
    quote: "`limit` (default 25, 1-100), `cursor`, `order`",
    rule: "limit 1-100",
  },
  {
    id: "chats.messages.order-default-desc",
    kind: "default",
    quote: "`order` (`asc` or `desc`, default `desc`) |",
    unsettled:
      "the seed states it two ways: the table says default `desc`, the same row says 'a narrative description says ascending by created_at, so pass `order` explicitly'; D-CHAT-ORDER takes desc and the kit always passes order",
    decision: "D-CHAT-ORDER",
  },
  {
    id: "chats.messages.not-found",
    kind: "error",
    quote: "so pass `order` explicitly | `chat_not_found`,",
  },
  {
    id: "chats.messages.invalid-cursor",
    kind: "error",
    quote: "`invalid_cursor` |",
    note: "the code is the seed's; its status 400 is D-CURSOR. The chat is the shared assistant turn's (not exercised in readonly)",
  },
  {
    id: "chats.created-by-ask",
    kind: "shape",
    quote: "Chats are created implicitly by `POST /v1/ask`; there is no create endpoint.",
    note: "a chat exists once an ask is accepted; that no create endpoint is served is not probed",
  },
  {
    id: "chats.continue",
    kind: "shape",
    quote: "Continue a chat by passing its `chat_id`.",
  },
  {
    id: "chats.any-dataset",
    kind: "default",
    quote: "When `context.dataset_ids` is omitted the assistant may consult any dataset visible to the account.",
    notObservable: "which datasets an assistant consulted is not shown to the client",
  },
  {
    id: "chats.private-to-seat",
    kind: "isolation",
    quote: "Chats are private to the creating seat: another seat, including the owner, receives 404.",
    also: ["chats are private to the creating seat."],
  },

  // ── Endpoints › Account and prices ─────────────────────────────────────
  {
    id: "me.read",
    kind: "status",
    quote: "| GET /v1/me | user, account, plan, members, teams, usage (free) |",
    note: "free: GET /v1/me falls inside every billing check's balance window",
  },
  {
    id: "usage-history.limit",
    kind: "bound",
    quote: "| GET /v1/me/usage_history | query `limit` (default 25, 1-100)",
    rule: "without limit the history answers the page limit=25 answers",
    note: "the same rows and the same has_next, after the group checks' charges; an account holding 25 rows or fewer gets one-source prompt previews (a unit each) for what is missing",
  },
  {
    id: "usage-history.account-wide",
    kind: "isolation",
    quote: "cursor paginated, account-wide (every seat sees the same feed);",
  },
  {
    id: "usage-history.invalid-cursor",
    kind: "error",
    quote: "error `invalid_cursor` |",
    note: "the code is the seed's; its status 400 is D-CURSOR",
  },
  {
    id: "prices.read",
    kind: "auth",
    quote: "| GET /v1/prices | prices (free); requires the API key |",
  },
  {
    id: "prices.credit-prices-removed",
    kind: "versioning",
    quote: "The route `GET /v1/credit_prices` is removed and is not served.",
    also: ["the credit prices route;"],
  },

  // ── Endpoints › MCP tool surface ───────────────────────────────────────
  {
    id: "mcp.tools",
    kind: "mcp",
    quote:
      "Fifteen tools. Read tools never create or charge; there are no create, update or delete tools. Everything that creates or runs work goes through `ask`.",
  },
  {
    id: "mcp.ask",
    kind: "mcp",
    quote:
      "| svc__ask | `prompt` (required string), `chat_id?`, `dataset_ids?` (string[]), `post_refs?` (`{id, source}[]`, at most 50) | `{chat_id, message_id, status: working}` immediately |",
  },
  {
    id: "mcp.get-message",
    kind: "mcp",
    quote:
      "| svc__get_message | `chat_id`, `message_id` (both required) | `{chat_id, message_id, status (working, completed or failed), stop_reason (null until finished), blocks[]}`;",
  },
  {
    id: "mcp.get-message.long-poll",
    kind: "bound",
    quote: "long-polls up to about 45 seconds",
    also: ["| MCP get_message | long-poll holds up to about 45 seconds |"],
    notObservable:
      "'about 45 seconds' gives no bound a client can hold a deployment to; how long a held call waits is the deployment's",
  },
  {
    id: "mcp.render",
    kind: "mcp",
    quote:
      "| svc__render | `message_id`, `block_id` (required) | the block's widget content; call only for `render: true` blocks |",
    note: "a render: true block must render; what svc__render answers for a render: false block is lenient (D-MCP-RENDER)",
  },
  {
    id: "mcp.list-datasets",
    kind: "mcp",
    quote: "| svc__list_datasets | optional paging | `{content: Dataset[], cursor}` |",
    rule: "svc__list_datasets answers what GET /v1/datasets answers for the same key",
    note: "different items are the seed's; the same items in another order or another page size are D-MCP-PAGING (fault mcp-list-datasets-reordered)",
  },
  {
    id: "mcp.get-dataset",
    kind: "mcp",
    quote: "| svc__get_dataset | `dataset_id` | Dataset or `{error}` |",
  },
  {
    id: "mcp.get-dataset-run",
    kind: "mcp",
    quote: "| svc__get_dataset_run | `dataset_id`, `run_id` | dataset run |",
  },
  {
    id: "mcp.list-audience-datasets",
    kind: "mcp",
    quote: "| svc__list_audience_datasets | optional paging | `{content, cursor}` |",
  },
  {
    id: "mcp.get-audience-dataset",
    kind: "mcp",
    quote: "| svc__get_audience_dataset | `audience_dataset_id` | AudienceDataset |",
  },
  {
    id: "mcp.get-audience-dataset-run",
    kind: "mcp",
    quote: "| svc__get_audience_dataset_run | `audience_dataset_id`, `run_id` | audience run |",
    note: "compared with REST only when the account's first audience dataset has a run; the missing-id tool error always",
  },
  {
    id: "mcp.list-audience-profiles",
    kind: "mcp",
    quote:
      "| svc__list_audience_profiles | optional; defaults to all account audience datasets; mirrors the REST profiles endpoint | `{content, cursor}` |",
    rule: "svc__list_audience_profiles answers what POST /v1/audience_profiles answers",
  },
  {
    id: "mcp.list-mentions",
    kind: "mcp",
    quote:
      "| svc__list_mentions | optional; defaults to all account datasets; `dataset_ids`, filters, sort, order, cursor, limit as REST mentions |",
    rule: "svc__list_mentions takes the REST search's arguments and answers what REST answers",
  },
  {
    id: "mcp.get-pattern-detection-run",
    kind: "mcp",
    quote: "| svc__get_pattern_detection_run | `run_id` | `{run_id, status, pattern_id}` |",
  },
  {
    id: "mcp.list-tracking-agents",
    kind: "mcp",
    quote: "| svc__list_tracking_agents | optional paging | `{content, cursor}` |",
  },
  {
    id: "mcp.get-tracking-agent",
    kind: "mcp",
    quote: "| svc__get_tracking_agent | `agent_id` | TrackingAgent |",
  },
  {
    id: "mcp.get-me",
    kind: "mcp",
    quote: "| svc__get_me | none | user with account, plan, members, teams |",
  },
  {
    id: "mcp.blocks",
    kind: "mcp",
    quote: "A `render: false` block already carries its markdown `text`; a `render: true` block needs `render`.",
  },
  {
    id: "mcp.hosts-without-widgets",
    kind: "mcp",
    quote: "Hosts without widget support receive plain markdown blocks.",
    notObservable:
      "the seed never says how a host tells the server it has no widget support, so no client can present itself as such a host",
  },
  {
    id: "mcp.list-cursor",
    kind: "pagination",
    quote: "Lists return `cursor`; a null cursor means the end,",
  },
  {
    id: "mcp.list-cursor-sort",
    kind: "pagination",
    quote: "a cursor of a filtered list encodes its sort.",
    note: "svc__list_mentions only: a likes cursor reused with sort date must be a tool error (seed); its code invalid_cursor / 400 is D-CURSOR",
  },
  {
    id: "mcp.tool-errors",
    kind: "mcp",
    quote: "Tool errors are `{error: {code, message, status}}`, where `status` mirrors the equivalent REST status.",
    also: ["Tool-level errors use `{error: {code, message, status}}`."],
    note: "the shape and the mirrored status are the seed's; a code other than the REST twin's is D-MCP-TOOL-ERROR (fault mcp-tool-error-generic-code)",
  },
  {
    id: "mcp.run-envelopes",
    kind: "mcp",
    quote: "Run status envelopes returned by the `get_*_run` tools are the REST envelope,",
  },

  // ── Authentication › REST ──────────────────────────────────────────────
  {
    id: "auth.key-prefixes",
    kind: "auth",
    quote: "Live keys begin with a fixed live prefix; staging-only keys use a test prefix.",
    notObservable: "the prefixes are not named, and a deployment answers with any key it issued",
  },
  {
    id: "auth.key-minting",
    kind: "auth",
    quote:
      "A key is minted in the web app (Settings, API keys, new key). The value is shown once and stored hashed; it cannot be retrieved later.",
    notObservable: "key issuance happens in the web app, outside the API",
  },
  {
    id: "auth.account-shared",
    kind: "isolation",
    quote: "Account-shared resources are visible to every key on the account;",
  },
  {
    id: "auth.401",
    kind: "auth",
    quote: "A missing or invalid key yields 401 `unauthorized`.",
    also: ["| 401 | `unauthorized` | missing or invalid key |"],
  },
  {
    id: "auth.plan-flags-gate",
    kind: "auth",
    quote: "Plan feature flags `api_access` and `mcp` gate access;",
    uncovered: "the kit has no key of a plan without api_access or mcp",
  },
  {
    id: "auth.plan-flags-reported",
    kind: "shape",
    quote: "`GET /v1/me` reports them.",
    also: ["Plan feature flags `api_access` and `mcp` gate access; `GET /v1/me` reports them."],
  },

  // ── Authentication › MCP ───────────────────────────────────────────────
  {
    id: "mcp-auth.trailing-slash-307",
    kind: "status",
    quote: "the trailing slash is required; the form without it answers 307",
  },
  {
    id: "mcp-auth.same-path-under-rest",
    kind: "mcp",
    quote: "The same path exists under the REST host.",
    note: "the kit's default MCP URL is <base-url>/mcp/: every MCP check fails when it is not served there (unless --mcp-url says otherwise)",
  },
  {
    id: "mcp-auth.two-methods",
    kind: "auth",
    quote: "Both resolve to the same account.",
  },
  {
    id: "mcp-auth.order",
    kind: "auth",
    quote: "Order: the server checks `x-api-key` first; if missing or invalid, falls back to the bearer token.",
  },
  {
    id: "mcp-auth.401-challenge",
    kind: "auth",
    quote:
      "If neither resolves: 401 with header `WWW-Authenticate: Bearer resource_metadata=<metadata_url>` pointing at the OAuth metadata document.",
  },
  {
    id: "mcp-auth.ask-either-method",
    kind: "auth",
    quote:
      "`ask` is reachable with either method in the tool reference; another page says it requires OAuth. Builders support both.",
    decision: "D-MCP-ASK-AUTH",
    unsettled: "the seed's pages disagree (either method vs OAuth only); svc__ask refusing x-api-key is a warning",
  },
  {
    id: "mcp-auth.transport-vs-tool-errors",
    kind: "mcp",
    quote: "Transport errors (401, 429) surface as MCP transport errors; tool errors surface inside the tool result.",
  },

  // ── Errors ─────────────────────────────────────────────────────────────
  {
    id: "errors.400-codes",
    kind: "error",
    quote:
      "| 400 | `bad_request`, `source_dataset_has_no_completed_run`, `audience_youtube_only_source`, `audience_insufficient_source_mentions` | semantics or state;",
    rule: "a refused audience run is 400 with one of the documented source codes",
    note: "which of the three source codes a case gets is lenient (D-AUD-RUN-400); bad_request is named without a request that must get it",
  },
  {
    id: "errors.402",
    kind: "error",
    quote:
      "| 402 | `insufficient_credits` and endpoint-specific variants | balance cannot fund the reservation; codes keep their identifiers though amounts are dollars |",
  },
  {
    id: "patterns.read.404",
    kind: "error",
    quote: "`pattern_not_found`",
    rule: "an unknown pattern id is 404 pattern_not_found",
    note: "the 404 is the seed's (a resource that does not exist); the pattern reads name no code, so pattern_not_found is D-PATTERN-ITEM-404",
  },
  {
    id: "errors.429-code",
    kind: "rate-limit",
    quote: "| 429 | `too_many_requests` | rate limit |",
  },
  {
    id: "errors.5xx",
    kind: "error",
    quote: "| 5xx | `internal_server_error` | server fault, often `transient` true |",
    rule: "a 5xx is a server fault: no request the kit sends, valid or not, may get one",
    note: "a 5xx carrying ai_assistant_unavailable or ai_assistant_timeout, whose status the seed does not show, is D-AI-5XX's; the 5xx body's code is not judged",
  },
  {
    id: "errors.vocabulary",
    kind: "error",
    quote:
      "402: `insufficient_credits_dataset_run`, `insufficient_credits_audience_dataset_run`, `insufficient_credits_pattern_detection`, `insufficient_credits_content_analysis`, `insufficient_credits_research_preview`, `insufficient_credits_ask`, `insufficient_credits` (tracking trigger).",
    also: [
      "Others: `collection_content_type_mismatch`, `date_filter_unavailable`, `custom_parameter_limit_exceeded`, `custom_parameter_duplicate_name`, `custom_parameter_empty_name`, `custom_parameter_run_in_flight`, `nothing_to_analyze`, `tracking_agent_limit_reached`, `tracking_agent_run_in_progress`, `dataset_has_no_queries`, `invalid_cursor`, `ai_assistant_unavailable`, `ai_assistant_timeout`.",
      "`error_code` values are stable identifiers; the `insufficient_credits*` codes were kept when billing moved to dollars.",
    ],
    rule: "every error_code a deployment sends is one of the documented identifiers",
    unsettled:
      "the seed lists the codes and calls them stable, but never says no other code appears; each documented code is judged where the seed gives it to an operation, and an undocumented code is the contract's closed set (error-envelope judges it as D-ERROR-CODES)",
    decision: "D-ERROR-CODES",
  },
  {
    id: "errors.402-body",
    kind: "error",
    quote:
      "402 body: `detail` is an object `{message, required, available, top_up_url}`; `required` and `available` are US-dollar decimal strings; `transient` false.",
  },
  {
    id: "errors.never-partially-charged",
    kind: "charge",
    quote: "Requests are never partially charged.",
  },
  {
    id: "errors.429-body",
    kind: "rate-limit",
    quote:
      "429 body: `{status: client_error, error_code: too_many_requests, detail, transient: true, retry_after_seconds: number}`.",
  },
  {
    id: "errors.retry-after",
    kind: "rate-limit",
    quote: "The `Retry-After` header carries the same wait rounded up to whole seconds.",
  },
  {
    id: "audience-datasets.runs.409-transient-false",
    kind: "error",
    quote: "409 body: `transient` false.",
  },
  {
    id: "errors.409-retry",
    kind: "transition",
    quote: "Poll the blocking run until it terminates, then retry.",
    rule: "once the blocking run has ended, the retried request is accepted",
  },

  // ── Limits ─────────────────────────────────────────────────────────────
  {
    id: "rate-limit.five-per-second",
    kind: "rate-limit",
    quote: "5 requests per second",
    rule: "the cap is 5 requests per second",
    note: "judged as a floor: RateLimit-Limit below 5 fails; a higher cap is a negotiated rate the seed allows",
  },
  {
    id: "rate-limit.per-key",
    kind: "rate-limit",
    quote: "per API key, shared by REST and MCP.",
  },
  {
    id: "rate-limit.sha256",
    kind: "rate-limit",
    quote: "The bucket is keyed on a SHA-256 digest of the key.",
    notObservable: "how the server keys its bucket is internal",
  },
  {
    id: "rate-limit.headers",
    kind: "rate-limit",
    quote:
      "Every authenticated response carries `RateLimit-Limit` (the cap), `RateLimit-Remaining` (calls left in the current second window) and `RateLimit-Reset` (seconds until the bucket fully resets).",
  },
  {
    id: "rate-limit.429",
    kind: "rate-limit",
    quote: "Over the cap: 429 as in Errors.",
  },
  {
    id: "rate-limit.retry-after-works",
    kind: "rate-limit",
    quote: "Recommended client behaviour is exponential backoff with jitter, preferring `Retry-After`.",
    rule: "after waiting Retry-After seconds the key works again",
  },
  {
    id: "rate-limit.enterprise",
    kind: "rate-limit",
    quote: "Higher rates are negotiated for enterprise plans.",
    notObservable: "a commercial arrangement, not an API behaviour",
  },
  {
    id: "limits.custom-parameter-in-flight",
    kind: "transition",
    quote: "| Custom parameter runs | `custom_parameter_run_in_flight` when one is running for the parameter |",
  },
  {
    id: "limits.tracking-run-in-progress",
    kind: "transition",
    quote: "| Tracking agent runs | `tracking_agent_run_in_progress` when a cycle is running |",
  },
  {
    id: "limits.plan-limits",
    kind: "shape",
    quote: "| Plan limits | `plan.limits` (max_research_depth, num_seats, parallelism, projects, tracking_agents) |",
  },

  // ── Limits › Charges ───────────────────────────────────────────────────
  {
    id: "charges.unit-ratios",
    kind: "charge",
    quote:
      "Unit ratios are fixed for everyone; the account rate (dollars per unit) varies by plan. Price = units times rate.",
  },
  {
    id: "charges.mention",
    kind: "charge",
    quote: "| mention | 1 | each mention collected by a dataset run or tracking agent cycle |",
  },
  {
    id: "charges.audience-profile",
    kind: "charge",
    quote: "| audience_profile | 3 | each profile collected",
    also: ["(reservation sized by total_profile_count, default 300)"],
  },
  {
    id: "charges.post-processing.pattern",
    kind: "charge",
    quote: "pattern detection counts posts of the dataset's most recent completed run;",
    also: ["| post_processing | 0.5 | each post processed;"],
  },
  {
    id: "charges.post-processing.custom-parameter",
    kind: "charge",
    quote: "custom parameter run is sized by the dataset's mention count",
    also: ["| post_processing | 0.5 | each post processed;"],
  },
  {
    id: "charges.preview-generation",
    kind: "charge",
    quote: "| preview_generation | 1 | each source | research previews |",
  },
  {
    id: "charges.reservation-before-work",
    kind: "charge",
    quote: "Reservation: the upper bound is reserved before work starts;",
  },
  {
    id: "charges.refund-to-actuals",
    kind: "charge",
    quote: "on completion unused value is refunded down to actuals;",
  },
  {
    id: "charges.failed-releases",
    kind: "charge",
    quote: "failed work releases its whole reservation.",
  },
  {
    id: "charges.prompt-preview",
    kind: "charge",
    quote: "Prompt preview: charge equals number of sources, no partial refund.",
  },
  {
    id: "charges.url-preview",
    kind: "charge",
    quote:
      "URL preview: charge equals number of URLs returning data; private, non-existing or failed URLs are refunded.",
  },
  {
    id: "charges.preview-scrape-fails",
    kind: "charge",
    quote: "If the scrape itself fails, the full reservation is refunded.",
    notObservable:
      "no client can make a deployment's scrape fail; what happens then is invisible until it happens on its own",
  },
  {
    id: "charges.reads-free",
    kind: "charge",
    quote: "all reads (mentions, profiles, patterns, chats, me, prices, usage history,",
    also: ["(global across the account; free)", "read-only, free |"],
    rule: "REST reads of mentions, profiles, patterns, chats, prices and usage history leave the balance unchanged",
    note: "prices, me, usage history, mentions, profiles and datasets read before the kit starts chargeable work; a balance that moves on its own, or with a new usage row during the reads, is not exercised. Pattern, chat and preview re-reads are not in the batch",
  },
  {
    id: "charges.ask-token",
    kind: "charge",
    quote:
      "Ask: token-based inference charge settles after the reply; no flat fee; data work requested by the assistant is charged separately at its own prices.",
    notObservable:
      "token counts are not shown to a client, so the charge an answer owes cannot be computed from outside",
  },
  {
    id: "charges.legacy",
    kind: "charge",
    quote:
      "Legacy actions: legacy tracking dispatch 15 credits, report generation 300, legacy audience-insights generation 600. Balance sync is free.",
    notObservable: "no endpoint of the seed performs these legacy actions",
  },
  {
    id: "charges.top-ups",
    kind: "charge",
    quote:
      "Top-ups are in exact US cents with a 5-dollar minimum. Credit values are presentation; canonical debits stay in dollars.",
    notObservable: "top-ups happen outside the API; that debits are dollars is judged by the billing rows above",
  },
  {
    id: "charges.plans",
    kind: "charge",
    quote: "Starter 98, 980, 2000, 0.049, 1; Pro 178, 1780, 5000, 0.0356, 3; Business 450, 4500, 20000, 0.0225, 5.",
    rule: "GET /v1/prices' rate and GET /v1/me's plan.limits.num_seats match the plan table for the account's plan",
    note: "the rate and the seats; prices and credits of a plan are not shown by the API. An account on another plan is not exercised",
  },
  {
    id: "charges.trial-and-plan-changes",
    kind: "charge",
    quote:
      "A one-day trial costs 1 dollar with 1000 credits. Upgrades take effect immediately with the full new allowance; downgrades and cancellation take effect at the end of the paid period.",
    notObservable: "trials and plan changes happen outside the API",
  },

  // ── Versioning ─────────────────────────────────────────────────────────
  {
    id: "versioning.v1",
    kind: "versioning",
    quote: "All endpoints live under the `/v1` prefix.",
    uncovered:
      "every request the kit sends goes to a /v1 path, so a deployment without the prefix fails nearly every check; no check judges the prefix on its own (what a path outside /v1 answers is not stated)",
  },
  {
    id: "versioning.v2-before-breaking",
    kind: "versioning",
    quote: "The prefix is bumped to `/v2` before any breaking change.",
    notObservable: "a promise about future versions",
  },
  {
    id: "versioning.stability",
    kind: "versioning",
    quote:
      "Stable: datasets, mentions, audience datasets, audience profiles. Newer groups (tracking agents, pattern detections, custom parameters, ask, chats, me) may change.",
    notObservable: "a promise about future versions",
  },
  {
    id: "versioning.additive-categories",
    kind: "versioning",
    quote: "New price categories ship as additive fields; unknown category strings are tolerated by clients.",
    notObservable: "a promise about future versions and an instruction to clients",
  },
  {
    id: "versioning.openapi-document",
    kind: "versioning",
    quote:
      "A machine-readable OpenAPI 3.1 document (info version 0.1.0) is published at {base_url}/openapi.json and a hosted interactive viewer at {base_url}/docs.",
    note: "the viewer is judged by a 200 with a body; that it is interactive is not",
  },
];
