// Deviation mode of the mutation harness: a deployment built by another team
// from the same seed. It follows every rule the seed states, and decides many
// points the seed leaves open its own (plausible) way: 200 instead of 204 or
// 201 or 202, 422 instead of 400 for a domain refusal, 400 instead of 409 for a
// conflict, its own run state names, more lenient enums and dates, its own
// choice of the 401's headers... Each deviation names the contract decision
// (spec/DECISIONS.md) it re-decides. The kit must fail each one at
// `--level contract` naming that decision, pass at `--level seed` with one
// warning per decision, and pass at contract level with a deviations file.
//
// Several deviations reuse the rewriting of an existing single-rule fault of
// faults.ts: those faults break a contract decision, not a seed rule.
import { faults } from "./faults.ts";
import { json, type Body, type Fault, type ProxyRequest, type ProxyResponse, type ProxyState } from "./proxy.ts";

export interface Deviation {
  id: string;
  /** the spec/DECISIONS.md row this deployment decides otherwise */
  decision: string;
  /** what this deployment decided instead */
  decides: string;
  /** lenient rows: the kit warns at every level instead of failing */
  lenient?: boolean;
  /** why the kit reports nothing for this deviation (no check judges it, or nothing differs from the contract) */
  unjudged?: string;
  /**
   * Other D- rows the same difference also re-decides, which a check may name
   * instead (an error code answered at another status is its own row and, on
   * an operation that documents no such status, D-OP-STATUSES).
   */
  names?: string[];
  request?: Fault["request"];
  response?: Fault["response"];
}

const P = (q: ProxyRequest) => q.url.pathname;
const is = (q: ProxyRequest, method: string, re: RegExp) => q.method === method && re.test(P(q));
const envelope = (res: ProxyResponse, status: number, code: string, detail = "Refused by the deviating deployment.") =>
  json(
    res,
    { status: status >= 500 ? "server_error" : "client_error", error_code: code, detail, transient: false },
    status,
  );
const withData = (res: ProxyResponse, f: (d: Body) => unknown): ProxyResponse =>
  json(res, { ...res.json, data: f(structuredClone(res.json.data)) });
/** A 2xx answered with another 2xx and the same body (an empty body stays empty). */
const restatus = (res: ProxyResponse, status: number): ProxyResponse => ({ ...res, status });
/** Rewrite a JSON request body before the upstream sees it. */
function rewriteBody(q: ProxyRequest, change: (b: Body) => boolean): ProxyRequest {
  if (!q.body) return q;
  let b: Body;
  try {
    b = JSON.parse(q.body);
  } catch {
    return q;
  }
  if (typeof b !== "object" || b === null || !change(b)) return q;
  return { ...q, body: JSON.stringify(b) };
}
const reuse = (id: string): Pick<Fault, "request" | "response"> => {
  const f = faults.find((x) => x.id === id);
  if (!f) throw new Error(`deviations: no fault ${id} in faults.ts`);
  return { request: f.request, response: f.response };
};

const TA_EMPTY = /^\/v1\/tracking_agents\/[^/]+(\/pause|\/resume)?$/;
const AUD_ONE = /^\/v1\/audience_datasets\/[^/]+$/;
const CP_ONE = /^\/v1\/custom_parameters\/[^/]+$/;
const CREATES = /^\/v1\/(custom_parameters|tracking_agents|research_previews)$/;

export const deviations: Deviation[] = [
  // ---- statuses of successes (D-EMPTY-204, D-CP-DELETE, D-CREATE-201, D-ASYNC-202, D-CPR-ACCEPTED)
  {
    id: "empty-success-200",
    decision: "D-EMPTY-204",
    names: ["D-TA-DELETE", "D-TA-PAUSE"],
    decides: "deleting an agent or an audience dataset, pausing and resuming answer 200 with an empty body",
    response: (q, res) =>
      res.status === 204 && ((q.method !== "GET" && TA_EMPTY.test(P(q))) || is(q, "DELETE", AUD_ONE))
        ? restatus(res, 200)
        : res,
  },
  {
    id: "cp-delete-200",
    decision: "D-CP-DELETE",
    decides: "deleting a custom parameter answers 200 with an empty body",
    response: (q, res) => (is(q, "DELETE", CP_ONE) && res.status === 204 ? restatus(res, 200) : res),
  },
  {
    id: "create-200",
    decision: "D-CREATE-201",
    decides: "creating a custom parameter, a tracking agent or a research preview answers 200",
    response: (q, res) => (is(q, "POST", CREATES) && res.status === 201 ? restatus(res, 200) : res),
  },
  {
    id: "async-200",
    decision: "D-ASYNC-202",
    decides: "a pattern detection answers 200 (the seed says 200-range)",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/pattern_detections$/) && res.status === 202 ? restatus(res, 200) : res,
  },
  {
    id: "cp-run-200",
    decision: "D-CPR-ACCEPTED",
    decides: "starting a custom parameter run answers 200 {run_id}",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/custom_parameters\/[^/]+\/runs$/) && res.status === 202 ? restatus(res, 200) : res,
  },
  // ---- statuses of domain refusals (D-400, D-409, D-CURSOR, D-DATE-RANGE-ORDER, D-AUD-RUN-SOURCE-404, D-BODY-LIMIT)
  {
    id: "domain-refusals-422",
    decision: "D-400",
    decides:
      "an empty custom parameter name, a parameter run over a dataset without mentions and a trigger without queries answer 422 with the same error_code",
    response: (q, res) =>
      res.status === 400 &&
      (["custom_parameter_empty_name", "dataset_has_no_queries"].includes(res.json?.error_code) ||
        (res.json?.error_code === "nothing_to_analyze" && P(q).startsWith("/v1/custom_parameters/")))
        ? json(res, { ...res.json }, 422)
        : res,
  },
  {
    id: "conflicts-400",
    decision: "D-409",
    decides:
      "a duplicate custom parameter name, a parameter run in flight and an agent cycle in progress answer 400 with the same error_code",
    response: (_q, res) =>
      res.status === 409 &&
      ["custom_parameter_duplicate_name", "custom_parameter_run_in_flight", "tracking_agent_run_in_progress"].includes(
        res.json?.error_code,
      )
        ? json(res, { ...res.json }, 400)
        : res,
  },
  {
    id: "cursor-422",
    decision: "D-CURSOR",
    decides:
      "a malformed or reused cursor is request validation: 422 with the validation body at loc [query|body, cursor]",
    response: (q, res) =>
      res.status === 400 && res.json?.error_code === "invalid_cursor"
        ? json(
            res,
            {
              detail: [
                { loc: [q.method === "GET" ? "query" : "body", "cursor"], msg: "Invalid cursor.", type: "value_error" },
              ],
            },
            422,
          )
        : res,
  },
  {
    id: "date-range-order-400",
    decision: "D-DATE-RANGE-ORDER",
    names: ["D-OP-STATUSES"],
    decides: "a reversed date_range is a domain refusal: 400 bad_request with the error envelope",
    response: (_q, res) =>
      res.status === 422 &&
      Array.isArray(res.json?.detail) &&
      res.json.detail.some((d: Body) => d?.loc?.[1] === "date_range" && /precede/.test(d?.msg ?? ""))
        ? envelope(res, 400, "bad_request", "date_range.from must precede date_range.to")
        : res,
  },
  {
    id: "deleted-source-400",
    decision: "D-AUD-RUN-SOURCE-404",
    decides: "an audience run on a deleted source dataset answers 400 source_dataset_has_no_completed_run",
    ...reuse("aud-deleted-source-accepted-code"),
  },
  {
    id: "body-limit-400",
    decision: "D-BODY-LIMIT",
    decides: "a body over the limit answers 400 bad_request (its framework's answer), not 413",
    ...reuse("body-limit-400"),
  },
  {
    id: "preview-404-own-code",
    decision: "D-PREVIEW-404",
    names: ["D-ERROR-CODES"],
    decides: "an unknown research preview answers 404 research_preview_not_found",
    response: (q, res) =>
      is(q, "GET", /^\/v1\/research_previews\/[^/]+$/) && res.status === 404
        ? envelope(res, 404, "research_preview_not_found", "No such research preview.")
        : res,
  },
  {
    id: "credit-prices-410",
    decision: "D-CREDIT-PRICES",
    decides: "the removed credit prices route answers 410 Gone",
    response: (q, res) =>
      P(q) === "/v1/credit_prices" && res.status === 404
        ? envelope(res, 410, "not_found", "This route was removed.")
        : res,
  },
  // ---- run state names the seed does not show (D-CPR-STATES; the agent run's `in_progress` is the seed's own)
  {
    id: "parameter-run-done",
    decision: "D-CPR-STATES",
    names: ["D-RUN-STATES"],
    decides: "a finished custom parameter run is `done` (not `completed`; the seed shows only `processing`)",
    response: (q, res) =>
      res.json && /^\/v1\/custom_parameters\/[^/]+\/runs(\/[^/]+)?$/.test(P(q)) && q.method === "GET"
        ? json(res, JSON.parse(JSON.stringify(res.json).replace(/"type":"completed"/g, '"type":"done"')))
        : res,
  },
  // ---- open value sets accepted more widely (D-SEARCH-MODE, D-MENTIONS-OPERATION, D-TIME-FILTER, D-CP-VALUE-TYPE, D-BOUND-DATE)
  {
    id: "search-mode-open",
    decision: "D-SEARCH-MODE",
    decides: "any search_mode is accepted (unknown modes search semantically)",
    request: (q) =>
      is(q, "POST", /^\/v1\/mentions$/)
        ? rewriteBody(q, (b) =>
            typeof b.search_mode === "string" && !["semantic", "keyword"].includes(b.search_mode)
              ? ((b.search_mode = "semantic"), true)
              : false,
          )
        : q,
  },
  {
    id: "operation-open",
    decision: "D-MENTIONS-OPERATION",
    decides: "any operation string is accepted (treated as select)",
    request: (q) =>
      is(q, "POST", /^\/v1\/mentions$/)
        ? rewriteBody(q, (b) =>
            typeof b.operation === "string" && b.operation !== "select" ? ((b.operation = "select"), true) : false,
          )
        : q,
  },
  {
    id: "prices-as-strings",
    decision: "D-MONEY-NUMBER",
    decides: 'prices are decimal strings ("0.0356"), like the 402 amounts',
    response: (q, res) =>
      is(q, "GET", /^\/v1\/prices$/) && res.status === 200 && res.json?.data?.prices
        ? withData(res, (d) => ({
            ...d,
            prices: Object.fromEntries(
              Object.entries(d.prices).map(([k, v]) => [k, typeof v === "number" ? String(v) : v]),
            ),
          }))
        : res,
  },
  {
    id: "value-type-open",
    decision: "D-CP-VALUE-TYPE",
    decides: "an unknown value_type is stored as string",
    request: (q) =>
      is(q, "POST", /^\/v1\/custom_parameters(\/preview)?$/)
        ? rewriteBody(q, (b) =>
            typeof b.value_type === "string" && !["string", "number", "boolean"].includes(b.value_type)
              ? ((b.value_type = "string"), true)
              : false,
          )
        : q,
  },
  {
    id: "future-window-accepted",
    decision: "D-PREVIEW-FUTURE",
    decides: "a preview window starting in the future is accepted (and samples nothing yet)",
    ...reuse("preview-future-since-accepted"),
  },
  {
    id: "impossible-date-rolls-back",
    decision: "D-BOUND-DATE",
    decides: "a well-formed date past the month's end is read as the month's last day",
    ...reuse("impossible-date-accepted"),
  },
  // ---- platform choices (D-AUTH-ORDER, D-CONTENT-TYPE, D-ME-USAGE, D-USAGE-ORDER, D-ASK-UNKNOWN-CHAT)
  {
    id: "rate-limit-before-auth",
    decision: "D-AUTH-ORDER",
    decides: "the rate limit runs before authentication, so a 401 carries RateLimit-* headers",
    ...reuse("ratelimit-headers-on-401"),
  },
  {
    id: "content-type-ignored",
    decision: "D-CONTENT-TYPE",
    decides: "a body is parsed as JSON whatever its Content-Type",
    ...reuse("content-type-ignored"),
  },
  {
    id: "balance-total-allowance",
    decision: "D-ME-USAGE",
    decides: "balance_total is the period's allowance, so balance + balance_used need not add up to it",
    ...reuse("me-usage-total-off"),
  },
  {
    id: "usage-history-oldest-first",
    decision: "D-USAGE-ORDER",
    decides: "usage history pages list their rows oldest first",
    ...reuse("usage-history-oldest-first"),
  },
  {
    id: "ask-unknown-chat-new",
    decision: "D-ASK-UNKNOWN-CHAT",
    decides: "an ask naming an unknown chat_id is accepted (202) instead of 404 chat_not_found",
    ...reuse("ask-unknown-chat-accepted"),
  },
  // ---- lenient rows: a different choice gives a warning at every level, never a failure
  {
    id: "status-info",
    decision: "D-STATUS-STRING",
    decides: "2xx bodies say status info, as the seed's endpoint samples print",
    lenient: true,
    ...reuse("control-status-string-info"),
  },
];

/**
 * A deployment that does not serve a whole group yet: every route under the
 * prefix answers what an unknown route answers (404 not_found, rate-limit
 * headers kept). Not an open point of the seed (the seed describes every
 * group): the kit reports it once as a served-groups warning at every level
 * (a failure with --require-groups) and skips the group's checks.
 */
export function groupNotServed(prefix = "/v1/tracking_agents"): Fault {
  return {
    id: `not-served:${prefix}`,
    breaks: `(a partial deployment: ${prefix} not served)`,
    expect: "served-groups",
    response: (q, res) =>
      P(q) === prefix || P(q).startsWith(`${prefix}/`) ? envelope(res, 404, "not_found", "Not found.") : res,
  };
}

/** The strict decisions the deviating deployment re-decides (one warning each at --level seed). */
export const strictDecisions = (list: Deviation[] = deviations) => [
  ...new Set(list.filter((d) => !d.lenient && !d.unjudged).map((d) => d.decision)),
];

/** One proxy fault that applies every deviation of the list (requests in order, then responses in order). */
export function deviatingDeployment(list: Deviation[] = deviations): Fault {
  return {
    id: "deviating-deployment",
    breaks: `(none of the seed's rules: ${list.length} open points decided otherwise)`,
    expect: "(every check passes at --level seed)",
    async request(q: ProxyRequest, s: ProxyState) {
      let cur: ProxyRequest = q;
      for (const d of list) {
        if (!d.request) continue;
        // a rewriter that cannot read the request (malformed JSON on purpose) leaves it as it is
        const r = await (async () => d.request!(cur, s))().catch(() => cur);
        if ("status" in r) return r;
        cur = r;
      }
      return cur;
    },
    async response(q: ProxyRequest, res: ProxyResponse, s: ProxyState) {
      let cur = res;
      for (const d of list) if (d.response) cur = await d.response(q, cur, s);
      return cur;
    },
  };
}
