// Single-rule faults added while the checks of this area were converted to
// declared assertions. Each names the ledger rows it breaks (`rows`) or the
// decision it re-decides (`decision`); the mutation harness runs each behind
// the proxy and expects its check to fail, attributed to one of its rows.
//
// This area: the requests phase (auth, malformed bodies, date ranges, the
// OpenAPI document), the response-level rules (envelopes, JSON bodies, the
// rate-limit headers), the rate-limit phase, isolation between accounts and
// the MCP surface. Where a rule can break in more than one way (a code, a
// header's exact value, an off-by-one, a precedence), each way has a fault.
import { json, type Body, type Fault, type ProxyRequest, type ProxyResponse, type ProxyState } from "./proxy.ts";
import { isMcp, payload, rewrite, rpcOf, toolError, toolOf } from "./faults-mcp.ts";

const REST = (q: ProxyRequest) => q.url.pathname.startsWith("/v1/");
const ok2xx = (res: ProxyResponse) => res.status >= 200 && res.status < 300;
const known = (s: ProxyState, key: string | undefined) => !!key && Object.values(s.keys).includes(key);

/** The error envelope of a response with its error_code replaced. */
const recode = (res: ProxyResponse, code: string) => json(res, { ...res.json, error_code: code });

/** A response's headers with one changed (a function of its current value) when it is there. */
function header(res: ProxyResponse, name: string, f: (v: string) => string | undefined): ProxyResponse {
  const v = res.headers[name];
  if (v === undefined) return res;
  const headers = { ...res.headers };
  const next = f(v);
  if (next === undefined) delete headers[name];
  else headers[name] = next;
  return { ...res, headers };
}

/** A tools/call request with its arguments changed. */
function withArgs(q: ProxyRequest, f: (args: Body) => Body): ProxyRequest {
  const m = rpcOf(q);
  if (!m?.params) return q;
  return { ...q, body: JSON.stringify({ ...m, params: { ...m.params, arguments: f(m.params.arguments ?? {}) } }) };
}

/** A tool error's ToolError rewritten (the JSON of its single text content; structuredContent too when sent). */
const restatusToolError = (res: ProxyResponse, when: (e: Body) => boolean, status: number) =>
  toolError(res, (e, r) => {
    if (!e?.error || !when(e.error)) return r;
    const next = { error: { ...e.error, status } };
    return {
      ...r,
      content: [{ type: "text", text: JSON.stringify(next) }],
      ...(r.structuredContent !== undefined ? { structuredContent: next } : {}),
    };
  });

const tooMany = (res: ProxyResponse, retryAfter = "1") =>
  json(
    { ...res, headers: { ...res.headers, "retry-after": retryAfter, "ratelimit-remaining": "0" } },
    {
      status: "client_error",
      error_code: "too_many_requests",
      detail: "Slow down.",
      transient: true,
      retry_after_seconds: Number(retryAfter),
    },
    429,
  );

const DS_ROWS = [
  "datasets.read.200",
  "datasets.update.semantics",
  "datasets.delete.204",
  "datasets.runs.list.404",
  "datasets.runs.create.404",
  "datasets.runs.read.404",
];

export const kitRequestsFaults: Fault[] = [
  // ---- requests phase ---------------------------------------------------------------
  {
    id: "invalid-key-401-wrong-code",
    rows: ["auth.401"],
    breaks: "An invalid key is 401 unauthorized (this deployment says invalid_api_key)",
    expect: "auth-invalid-key-401",
    response: (q, res, s) =>
      REST(q) && res.status === 401 && q.key && !known(s, q.key) ? recode(res, "invalid_api_key") : res,
  },
  {
    id: "missing-key-401-wrong-code",
    rows: ["auth.401", "endpoints.api-key-required"],
    breaks: "A missing key is 401 unauthorized (this deployment says missing_api_key)",
    expect: "auth-missing-key-401",
    response: (q, res) => (REST(q) && res.status === 401 && !q.key ? recode(res, "missing_api_key") : res),
  },
  {
    id: "prices-served-without-key",
    rows: ["prices.read"],
    breaks: "GET /v1/prices requires the API key (this deployment serves it to anyone)",
    expect: "auth-missing-key-401",
    request: (q, s) =>
      q.method === "GET" && q.url.pathname === "/v1/prices" && !q.key && s.keys.main
        ? { ...q, key: s.keys.main, headers: { ...q.headers, "x-api-key": s.keys.main } }
        : q,
  },
  {
    id: "prices-served-with-invalid-key",
    rows: ["prices.read"],
    breaks: "GET /v1/prices requires the API key (this deployment serves it with any key)",
    expect: "auth-invalid-key-401",
    request: (q, s) =>
      q.method === "GET" && q.url.pathname === "/v1/prices" && q.key && !known(s, q.key) && s.keys.main
        ? { ...q, key: s.keys.main, headers: { ...q.headers, "x-api-key": s.keys.main } }
        : q,
  },
  {
    id: "date-range-same-day-accepted",
    rows: ["datasets.runs.body.date-range-order"],
    breaks: "`from` must precede `to` (this deployment accepts a range of one day, from equal to to)",
    expect: "date-range-order-422",
    request: (q) => {
      if (q.method !== "POST" || !/^\/v1\/datasets\/[^/]+\/runs$/.test(q.url.pathname) || !q.body) return q;
      let body: Body;
      try {
        body = JSON.parse(q.body);
      } catch {
        return q;
      }
      const r = body?.date_range;
      if (!r || typeof r.from !== "string" || r.from !== r.to) return q;
      const next = new Date(Date.parse(`${r.to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      return { ...q, body: JSON.stringify({ ...body, date_range: { from: r.from, to: next } }) };
    },
  },
  {
    id: "malformed-json-400",
    rows: ["endpoints.422-on-body-or-query"],
    breaks: "A malformed body is 422 (this deployment answers 400 bad_request)",
    expect: "malformed-json-rejected",
    request: (q) => {
      if (!REST(q) || !q.body) return q;
      try {
        JSON.parse(q.body);
        return q;
      } catch {
        return {
          status: 400,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            status: "client_error",
            error_code: "bad_request",
            detail: "Bad JSON.",
            transient: false,
          }),
        };
      }
    },
  },
  {
    id: "me-credits-total-aliases-dollars",
    rows: ["me.credits-renamed-not-aliased"],
    breaks: "The old names are gone, not aliased (usage.credits_total repeats balance_total)",
    expect: "me-credit-fields-not-aliased",
    response: (q, res) => {
      const usage = res.json?.data?.usage;
      if (q.method !== "GET" || q.url.pathname !== "/v1/me" || res.status !== 200 || !usage) return res;
      return json(res, {
        ...res.json,
        data: { ...res.json.data, usage: { ...usage, credits_total: usage.balance_total } },
      });
    },
  },
  {
    id: "openapi-3-0",
    rows: ["versioning.openapi-document"],
    breaks: "The published document is OpenAPI 3.1 (this deployment publishes 3.0.3)",
    expect: "openapi-document-published",
    response: (q, res) =>
      q.url.pathname === "/openapi.json" && res.status === 200 && res.json
        ? json(res, { ...res.json, openapi: "3.0.3" })
        : res,
  },
  {
    id: "codes-cp-run-read-unknown-cp-400",
    rows: ["custom-parameters.runs.read.404", "service.scope.foreign-404"],
    breaks: "A run read under an unknown custom parameter is 404 (answered 400 bad_request)",
    expect: "unknown-id-codes",
    response: (q, res) =>
      q.method === "GET" && /^\/v1\/custom_parameters\/[^/]+\/runs\/[^/]+$/.test(q.url.pathname) && res.status === 404
        ? json(res, { ...res.json, error_code: "bad_request" }, 400)
        : res,
  },

  // ---- response-level rules -----------------------------------------------------------
  {
    id: "error-transient-as-string",
    rows: ["conventions.error-envelope"],
    breaks: 'The error envelope\'s transient is a boolean (this deployment sends the string "false")',
    expect: "error-envelope",
    response: (q, res) =>
      REST(q) && res.status >= 400 && typeof res.json?.transient === "boolean"
        ? json(res, { ...res.json, transient: String(res.json.transient) })
        : res,
  },
  {
    id: "error-envelope-without-detail",
    rows: ["conventions.error-envelope"],
    breaks: "Every error body carries detail (this deployment leaves it out of its 404s)",
    expect: "error-envelope",
    response: (q, res) => {
      if (!REST(q) || res.status !== 404 || typeof res.json?.error_code !== "string") return res;
      const { detail: _d, ...rest } = res.json;
      return json(res, rest);
    },
  },
  {
    id: "validation-loc-integer",
    rows: ["conventions.422-validation-body"],
    breaks: "A validation issue's loc is a list of strings (this deployment ends it with an integer index)",
    expect: "error-envelope",
    response: (q, res) =>
      REST(q) && res.status === 422 && Array.isArray(res.json?.detail)
        ? json(res, { detail: res.json.detail.map((d: Body) => ({ ...d, loc: [...(d?.loc ?? ["body"]), 0] })) })
        : res,
  },
  {
    id: "prices-body-not-json",
    rows: ["service.json-bodies"],
    breaks: "All bodies are JSON (this deployment's price list is cut short)",
    expect: "json-content-type",
    response: (q, res) =>
      q.method === "GET" && q.url.pathname === "/v1/prices" && res.status === 200
        ? { ...res, body: res.body.slice(0, Math.floor(res.body.length / 2)), json: undefined }
        : res,
  },
  {
    id: "success-without-status",
    rows: ["conventions.success-envelope"],
    breaks: "A success body is {status: success, data} (this deployment sends a dataset as {data})",
    expect: "success-envelope",
    response: (q, res) =>
      q.method === "GET" && /^\/v1\/datasets\/[^/]+$/.test(q.url.pathname) && res.status === 200 && res.json?.data
        ? json(res, { data: res.json.data })
        : res,
  },
  {
    id: "list-has-next-as-string",
    rows: ["conventions.success-envelope"],
    breaks: 'A list\'s has_next is a boolean (this deployment sends "false")',
    expect: "success-envelope",
    response: (q, res) =>
      q.method === "GET" &&
      q.url.pathname === "/v1/datasets" &&
      res.status === 200 &&
      typeof res.json?.has_next === "boolean"
        ? json(res, { ...res.json, has_next: String(res.json.has_next) })
        : res,
  },

  {
    id: "agent-pause-200-with-body",
    rows: ["tracking-agents.pause-resume.empty"],
    breaks: "Pausing an agent answers an empty body (this deployment answers 200 with the agent's state)",
    expect: "empty-body-204",
    only: ["empty-body-204", "tracking-agent-pause-resume"],
    response: (q, res) =>
      q.method === "POST" && /^\/v1\/tracking_agents\/[^/]+\/(pause|resume)$/.test(q.url.pathname) && res.status === 204
        ? json(res, { status: "success", data: { paused: q.url.pathname.endsWith("/pause") } }, 200)
        : res,
  },

  // ---- RateLimit-* and Retry-After, each figure and each way --------------------------
  {
    id: "ratelimit-remaining-plus-one",
    rows: ["rate-limit.headers"],
    breaks: "RateLimit-Remaining is the calls left (this deployment says one more, up to the cap)",
    expect: "rate-limit-headers",
    response: (_q, res) =>
      header(res, "ratelimit-remaining", (v) =>
        String(Math.min(Number(v) + 1, Number(res.headers["ratelimit-limit"] ?? Number(v) + 1))),
      ),
  },
  {
    id: "ratelimit-remaining-minus-one",
    rows: ["rate-limit.headers"],
    breaks: "RateLimit-Remaining is the calls left (this deployment says one fewer, never below 0)",
    expect: "rate-limit-burst-429",
    response: (_q, res) => header(res, "ratelimit-remaining", (v) => String(Math.max(0, Number(v) - 1))),
  },
  {
    id: "ratelimit-limit-plus-one",
    rows: ["rate-limit.headers"],
    breaks: "RateLimit-Limit is the cap (this deployment advertises one call more than it allows)",
    expect: "rate-limit-burst-429",
    response: (_q, res) => header(res, "ratelimit-limit", (v) => String(Number(v) + 1)),
  },
  {
    id: "ratelimit-refuses-with-calls-left",
    rows: ["rate-limit.headers"],
    breaks: "A call is refused only once none is left (this deployment refuses the last call its Remaining promised)",
    expect: "rate-limit-burst-429",
    response: (q, res) =>
      REST(q) && ok2xx(res) && res.headers["ratelimit-remaining"] === "0" && q.key
        ? tooMany(res, res.headers["ratelimit-reset"] ?? "1")
        : res,
  },
  {
    id: "ratelimit-429-claims-calls-left",
    rows: ["rate-limit.headers"],
    breaks: "A 429 leaves no call in the window (this deployment's 429 says RateLimit-Remaining 1)",
    expect: "rate-limit-headers",
    only: ["rate-limit-headers", "rate-limit-burst-429"],
    response: (_q, res) => (res.status === 429 ? header(res, "ratelimit-remaining", () => "1") : res),
  },
  {
    id: "ratelimit-reset-epoch",
    rows: ["rate-limit.headers"],
    breaks: "RateLimit-Reset is the seconds until the bucket resets (this deployment sends a Unix time)",
    expect: "rate-limit-headers",
    response: (_q, res) =>
      header(res, "ratelimit-reset", (v) => String(Math.floor(Date.now() / 1000) + Math.ceil(Number(v)))),
  },
  {
    id: "ratelimit-reset-plus-one",
    rows: ["rate-limit.headers"],
    breaks: "RateLimit-Reset is within the one-second window (this deployment says a second more)",
    expect: "rate-limit-headers",
    response: (_q, res) => header(res, "ratelimit-reset", (v) => String(Number(v) + 1)),
  },
  {
    id: "retry-after-missing",
    rows: ["errors.retry-after"],
    breaks: "A 429 carries Retry-After (this deployment leaves it out)",
    expect: "rate-limit-headers",
    only: ["rate-limit-headers", "rate-limit-burst-429"],
    response: (_q, res) => (res.status === 429 ? header(res, "retry-after", () => undefined) : res),
  },

  // ---- isolation: the code each operation's row names, and a foreign write ------------
  {
    id: "foreign-dataset-404-generic-code",
    rows: DS_ROWS,
    breaks: "An unknown or foreign dataset is 404 dataset_not_found (this deployment says not_found)",
    expect: "foreign-id-404-indistinguishable",
    response: (q, res) =>
      /^\/v1\/datasets\/[^/]+/.test(q.url.pathname) &&
      res.status === 404 &&
      res.json?.error_code === "dataset_not_found"
        ? recode(res, "not_found")
        : res,
  },
  {
    id: "foreign-audience-404-generic-code",
    rows: [
      "audience-datasets.read",
      "audience-datasets.update.404",
      "audience-datasets.delete",
      "audience-datasets.runs.list",
    ],
    breaks: "An unknown or foreign audience dataset is 404 audience_dataset_not_found (this deployment says not_found)",
    expect: "foreign-id-404-indistinguishable",
    response: (q, res) =>
      /^\/v1\/audience_datasets\/[^/]+/.test(q.url.pathname) &&
      res.status === 404 &&
      res.json?.error_code === "audience_dataset_not_found"
        ? recode(res, "not_found")
        : res,
  },
  {
    id: "foreign-custom-parameter-404-generic-code",
    rows: ["custom-parameters.read.404", "custom-parameters.update.errors", "custom-parameters.delete"],
    breaks: "An unknown or foreign custom parameter is 404 custom_parameter_not_found (this deployment says not_found)",
    expect: "foreign-id-404-indistinguishable",
    response: (q, res) =>
      /^\/v1\/custom_parameters\/[^/]+/.test(q.url.pathname) &&
      res.status === 404 &&
      res.json?.error_code === "custom_parameter_not_found"
        ? recode(res, "not_found")
        : res,
  },
  {
    id: "foreign-agent-404-own-code",
    rows: [
      "tracking-agents.read.404",
      "tracking-agents.update",
      "tracking-agent.delete",
      "tracking-agents.pause-resume.empty",
      "tracking-agents.messages.not-found",
    ],
    breaks: "An unknown or foreign tracking agent is 404 not_found (this deployment says tracking_agent_not_found)",
    expect: "foreign-id-404-indistinguishable",
    response: (q, res) =>
      /^\/v1\/tracking_agents\/[^/]+/.test(q.url.pathname) && res.status === 404 && res.json?.error_code === "not_found"
        ? recode(res, "tracking_agent_not_found")
        : res,
  },
  {
    id: "foreign-patch-applies",
    rows: ["service.scope.account"],
    breaks: "A resource is scoped to its account (another account's rename is applied, though answered 404)",
    expect: "foreign-id-404-indistinguishable",
    response: async (q, res, s) => {
      const m = /^\/v1\/datasets\/([^/]+)$/.exec(q.url.pathname);
      const owner = m ? s.owners.get(decodeURIComponent(m[1]!)) : undefined;
      if (q.method !== "PATCH" || res.status !== 404 || !owner || owner === q.key) return res;
      await s.forward({ ...q, key: owner, headers: { ...q.headers, "x-api-key": owner } });
      return res;
    },
  },
  {
    id: "mentions-foreign-dataset-empty",
    rows: ["mentions.404"],
    breaks: "A mention search over another account's dataset is 404 (this deployment answers an empty page)",
    expect: "lists-never-leak-foreign",
    response: (q, res) =>
      q.method === "POST" && q.url.pathname === "/v1/mentions" && res.status === 404
        ? json(res, { status: "success", data: [], has_next: false, cursor: null }, 200)
        : res,
  },
  {
    id: "mentions-foreign-dataset-generic-code",
    rows: ["mentions.404"],
    breaks:
      "A mention search over an unknown or foreign dataset is 404 dataset_not_found (this deployment says not_found)",
    expect: "lists-never-leak-foreign",
    response: (q, res) =>
      q.method === "POST" && q.url.pathname === "/v1/mentions" && res.status === 404 ? recode(res, "not_found") : res,
  },

  // ---- MCP ----------------------------------------------------------------------------
  {
    id: "mcp-bearer-wins-over-key",
    rows: ["mcp-auth.order"],
    breaks: "x-api-key is checked first (this deployment resolves the bearer token whenever one is sent)",
    expect: "mcp-auth-order",
    request: (q) => {
      if (!isMcp(q) || !q.headers.authorization || !q.key) return q;
      const { "x-api-key": _k, ...headers } = q.headers;
      return { ...q, key: undefined, headers };
    },
  },
  {
    id: "mcp-bad-key-403",
    rows: ["mcp-auth.401-challenge"],
    breaks: "Neither credential resolving is 401 (this deployment answers an unknown key alone with 403)",
    expect: "mcp-auth-order",
    response: (q, res, s) =>
      isMcp(q) && res.status === 401 && q.key && !known(s, q.key) && !q.headers.authorization
        ? json(res, { status: "client_error", error_code: "forbidden", detail: "Forbidden.", transient: false }, 403)
        : res,
  },
  {
    id: "mcp-get-message-status-done",
    rows: ["mcp.get-message"],
    breaks: "svc__get_message's status is working, completed or failed (this deployment says done)",
    expect: "mcp-ask-flow",
    response: (q, res) =>
      isMcp(q) && toolOf(q)?.endsWith("get_message")
        ? payload(res, (p) => (p?.status === "completed" ? { ...p, status: "done" } : p))
        : res,
  },
  {
    id: "mcp-completed-turn-without-blocks",
    rows: ["assistant-turn.mcp-blocks-once-settled"],
    breaks: "Content blocks arrive once the turn settles (this deployment's completed turn has none)",
    expect: "mcp-ask-flow",
    response: (q, res) =>
      isMcp(q) && toolOf(q)?.endsWith("get_message")
        ? payload(res, (p) => (p?.status === "completed" ? { ...p, blocks: [] } : p))
        : res,
  },
  {
    id: "mcp-list-mentions-limit-101-accepted",
    rows: ["mcp.list-mentions", "mentions.limit"],
    breaks: "svc__list_mentions takes limit as REST mentions, 1-100 (this deployment serves limit 101 as 100)",
    expect: "mcp-bad-arguments-tool-error",
    request: (q) =>
      isMcp(q) && toolOf(q)?.endsWith("list_mentions") && Number(rpcOf(q)?.params?.arguments?.limit) > 100
        ? withArgs(q, (a) => ({ ...a, limit: 100 }))
        : q,
  },
  {
    id: "mcp-list-mentions-11-filters-accepted",
    rows: ["mcp.list-mentions", "mentions.filters.at-most-10"],
    breaks: "svc__list_mentions takes at most 10 filters, as REST mentions (this deployment drops the eleventh)",
    expect: "mcp-bad-arguments-tool-error",
    request: (q) => {
      const filters = rpcOf(q)?.params?.arguments?.filters;
      if (!isMcp(q) || !toolOf(q)?.endsWith("list_mentions") || !Array.isArray(filters)) return q;
      // keep the first 10 filters, group by group
      let left = 10;
      const kept = filters.map((g: Body) => {
        if (!Array.isArray(g)) return g;
        const part = g.slice(0, Math.max(0, left));
        left -= part.length;
        return part;
      });
      return withArgs(q, (a) => ({ ...a, filters: kept.filter((g: Body) => !Array.isArray(g) || g.length > 0) }));
    },
  },
  {
    id: "mcp-ask-51-post-refs-accepted",
    rows: ["mcp.ask"],
    breaks: "svc__ask takes at most 50 post_refs (this deployment keeps the first 50 of 51)",
    expect: "mcp-bad-arguments-tool-error",
    request: (q) =>
      isMcp(q) && toolOf(q)?.endsWith("__ask") && (rpcOf(q)?.params?.arguments?.post_refs?.length ?? 0) > 50
        ? withArgs(q, (a) => ({ ...a, post_refs: a.post_refs.slice(0, 50) }))
        : q,
  },
  {
    id: "mcp-argument-error-status-400",
    rows: ["mcp.tool-errors"],
    breaks: "A tool error's status mirrors the REST status (this deployment says 400 where REST answers 422)",
    expect: "mcp-bad-arguments-tool-error",
    response: (q, res) => (isMcp(q) && toolOf(q) ? restatusToolError(res, (e) => e.status === 422, 400) : res),
  },
  {
    id: "mcp-missing-id-status-400",
    rows: ["mcp.tool-errors"],
    breaks: "A tool error's status mirrors the REST status (this deployment says 400 where REST answers 404)",
    expect: "mcp-tool-error-shape",
    response: (q, res) => (isMcp(q) && toolOf(q) ? restatusToolError(res, (e) => e.status === 404, 400) : res),
  },
  {
    id: "mcp-cursor-sort-status-422",
    rows: ["mcp.tool-errors"],
    breaks:
      "A tool error's status mirrors the REST status (this deployment says 422 where REST answers 400 for a cursor of another sort)",
    expect: "mcp-list-cursor-sort",
    response: (q, res) =>
      isMcp(q) && toolOf(q) ? restatusToolError(res, (e) => e.code === "invalid_cursor", 422) : res,
  },
  {
    id: "mcp-list-content-renamed",
    rows: [
      "mcp.list-datasets",
      "mcp.list-audience-datasets",
      "mcp.list-audience-profiles",
      "mcp.list-mentions",
      "mcp.list-tracking-agents",
    ],
    breaks: "A list tool answers {content, cursor} (this deployment names the array items)",
    expect: "mcp-list-cursor-walk",
    response: (q, res) =>
      isMcp(q) && /__list_/.test(toolOf(q) ?? "")
        ? payload(res, (p) => {
            if (!p || !Array.isArray(p.content)) return p;
            const { content, ...others } = p;
            return { ...others, items: content };
          })
        : res,
  },
  {
    id: "mcp-list-mentions-ignores-limit",
    rows: ["mcp.list-mentions"],
    breaks: "svc__list_mentions takes limit as REST mentions (this deployment serves twice the limit)",
    expect: "mcp-list-cursor-walk",
    request: (q) =>
      isMcp(q) && toolOf(q)?.endsWith("list_mentions") && typeof rpcOf(q)?.params?.arguments?.limit === "number"
        ? withArgs(q, (a) => ({ ...a, limit: Math.min(100, a.limit * 2) }))
        : q,
  },
  {
    id: "mcp-list-tools-unknown-item",
    rows: ["mcp.list-datasets", "mcp.list-audience-datasets", "mcp.list-tracking-agents"],
    breaks: "The paging tools list the account's resources (this deployment adds one REST never lists)",
    expect: "mcp-rest-agreement",
    response: (q, res) =>
      isMcp(q) && /__list_(datasets|audience_datasets|tracking_agents)$/.test(toolOf(q) ?? "")
        ? payload(res, (p) =>
            p && Array.isArray(p.content)
              ? { ...p, content: [{ ...(p.content[0] ?? {}), id: "slkghost000000000000" }, ...p.content.slice(1)] }
              : p,
          )
        : res,
  },
  {
    id: "mcp-get-dataset-run-flat-status",
    rows: ["mcp.get-dataset-run", "mcp.run-envelopes"],
    breaks:
      "svc__get_dataset_run answers the dataset run with the REST status envelope (this deployment flattens status to its type)",
    expect: "mcp-rest-agreement",
    response: (q, res) =>
      isMcp(q) && toolOf(q)?.endsWith("get_dataset_run")
        ? payload(res, (p) => (p?.status?.type ? { ...p, status: p.status.type } : p))
        : res,
  },
  {
    id: "mcp-get-audience-dataset-stale",
    rows: ["mcp.get-audience-dataset"],
    breaks: "svc__get_audience_dataset answers the REST audience dataset (this deployment counts one profile more)",
    expect: "mcp-rest-agreement",
    response: (q, res) =>
      isMcp(q) && toolOf(q)?.endsWith("get_audience_dataset")
        ? payload(res, (p) => (p ? { ...p, profile_count: Number(p.profile_count ?? 0) + 1 } : p))
        : res,
  },
  {
    id: "mcp-get-audience-run-stale",
    rows: ["mcp.get-audience-dataset-run"],
    breaks: "svc__get_audience_dataset_run answers the REST audience run (this deployment counts one profile more)",
    expect: "mcp-rest-agreement",
    response: (q, res) =>
      isMcp(q) && toolOf(q)?.endsWith("get_audience_dataset_run")
        ? payload(res, (p) => (p ? { ...p, profile_count: Number(p.profile_count ?? 0) + 1 } : p))
        : res,
  },
  {
    id: "mcp-get-tracking-agent-stale",
    rows: ["mcp.get-tracking-agent"],
    breaks: "svc__get_tracking_agent answers the REST tracking agent (this deployment keeps an old name)",
    expect: "mcp-rest-agreement",
    response: (q, res) =>
      isMcp(q) && toolOf(q)?.endsWith("get_tracking_agent")
        ? payload(res, (p) => (p ? { ...p, name: `${String(p.name)} (old)` } : p))
        : res,
  },
  {
    id: "mcp-list-audience-profiles-reversed",
    rows: ["mcp.list-audience-profiles"],
    breaks: "svc__list_audience_profiles mirrors the REST profiles endpoint (this deployment reverses the page)",
    expect: "mcp-rest-agreement",
    response: (q, res) =>
      isMcp(q) && toolOf(q)?.endsWith("list_audience_profiles")
        ? payload(res, (p) => (p && Array.isArray(p.content) ? { ...p, content: [...p.content].reverse() } : p))
        : res,
  },
  {
    id: "mcp-list-mentions-cursor-null-early",
    rows: ["mcp.list-cursor"],
    breaks: "A null cursor means the end (svc__list_mentions says null while more mentions follow)",
    expect: "mcp-rest-agreement",
    response: (q, res) =>
      isMcp(q) && toolOf(q)?.endsWith("list_mentions")
        ? payload(res, (p) => (p && typeof p.cursor === "string" ? { ...p, cursor: null } : p))
        : res,
  },
  {
    id: "mcp-get-tracking-agent-fails",
    rows: ["service.mcp.ask-plus-read-only"],
    breaks: "The read lookups are reachable through MCP (svc__get_tracking_agent answers a tool error)",
    expect: "mcp-rest-agreement",
    response: (q, res) =>
      isMcp(q) && toolOf(q)?.endsWith("get_tracking_agent")
        ? rewrite(res, (m) =>
            m.result && !m.result.isError
              ? {
                  ...m,
                  result: {
                    isError: true,
                    content: [
                      {
                        type: "text",
                        text: JSON.stringify({
                          error: { code: "internal_server_error", message: "Unavailable.", status: 500 },
                        }),
                      },
                    ],
                  },
                }
              : m,
          )
        : res,
  },
  {
    id: "mcp-tool-arguments-renamed",
    rows: [
      "mcp.get-dataset",
      "mcp.get-dataset-run",
      "mcp.get-audience-dataset",
      "mcp.get-audience-dataset-run",
      "mcp.get-pattern-detection-run",
      "mcp.get-tracking-agent",
      "mcp.list-mentions",
    ],
    breaks:
      "Each get tool takes the ids its row lists, svc__list_mentions its filters (this deployment declares id and drops filters)",
    expect: "mcp-tool-catalogue",
    response: (q, res) =>
      isMcp(q) && rpcOf(q)?.method === "tools/list"
        ? rewrite(res, (m) => ({
            ...m,
            result: {
              ...m.result,
              tools: (m.result?.tools ?? []).map((t: Body) => {
                const name = String(t?.name ?? "");
                if (
                  /__get_(dataset|dataset_run|audience_dataset|audience_dataset_run|pattern_detection_run|tracking_agent)$/.test(
                    name,
                  )
                )
                  return {
                    ...t,
                    inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
                  };
                if (/__list_mentions$/.test(name)) {
                  const { filters: _f, ...properties } = t.inputSchema?.properties ?? {};
                  return { ...t, inputSchema: { ...t.inputSchema, properties } };
                }
                return t;
              }),
            },
          }))
        : res,
  },
  {
    id: "mcp-ask-prompt-optional",
    rows: ["mcp.ask", "mcp.render"],
    breaks:
      "svc__ask requires prompt, svc__render message_id and block_id (this deployment requires neither prompt nor block_id)",
    expect: "mcp-tool-catalogue",
    response: (q, res) =>
      isMcp(q) && rpcOf(q)?.method === "tools/list"
        ? rewrite(res, (m) => ({
            ...m,
            result: {
              ...m.result,
              tools: (m.result?.tools ?? []).map((t: Body) => {
                const name = String(t?.name ?? "");
                if (/__ask$/.test(name)) return { ...t, inputSchema: { ...t.inputSchema, required: [] } };
                if (/__render$/.test(name))
                  return { ...t, inputSchema: { ...t.inputSchema, required: ["message_id"] } };
                return t;
              }),
            },
          }))
        : res,
  },
  {
    id: "mcp-get-message-message-id-optional",
    rows: ["mcp.get-message"],
    breaks: "svc__get_message requires chat_id and message_id (this deployment requires chat_id only)",
    expect: "mcp-tool-catalogue",
    response: (q, res) =>
      isMcp(q) && rpcOf(q)?.method === "tools/list"
        ? rewrite(res, (m) => ({
            ...m,
            result: {
              ...m.result,
              tools: (m.result?.tools ?? []).map((t: Body) =>
                /__get_message$/.test(String(t?.name ?? ""))
                  ? { ...t, inputSchema: { ...t.inputSchema, required: ["chat_id"] } }
                  : t,
              ),
            },
          }))
        : res,
  },
  {
    id: "mcp-missing-id-transport-404",
    rows: ["mcp-auth.transport-vs-tool-errors"],
    breaks: "Tool errors surface inside the tool result (this deployment answers a missing id with an HTTP 404)",
    expect: "mcp-tool-error-shape",
    response: (q, res) => {
      if (!isMcp(q) || !/__get_/.test(toolOf(q) ?? "")) return res;
      let missing = false;
      toolError(res, (e, r) => {
        missing = e?.error?.status === 404;
        return r;
      });
      return missing
        ? json(res, { status: "client_error", error_code: "not_found", detail: "Not found.", transient: false }, 404)
        : res;
    },
  },
  {
    id: "mcp-unauthenticated-tool-result",
    rows: ["mcp-auth.transport-vs-tool-errors"],
    breaks:
      "A 401 surfaces as a transport error (this deployment answers a call without credentials with a tool result)",
    expect: "mcp-unauthenticated-401",
    response: (q, res) => {
      const m = rpcOf(q);
      if (!isMcp(q) || res.status !== 401 || m?.method !== "tools/call") return res;
      const error = { error: { code: "unauthorized", message: "Missing credentials.", status: 401 } };
      return json(
        { ...res, headers: { "content-type": "application/json" } },
        {
          jsonrpc: "2.0",
          id: m.id,
          result: { isError: true, content: [{ type: "text", text: JSON.stringify(error) }] },
        },
        200,
      );
    },
  },
  {
    id: "mcp-not-under-rest-host",
    rows: ["mcp-auth.same-path-under-rest"],
    breaks: "The MCP path exists under the REST host (this deployment answers it as an unknown route)",
    expect: "mcp-tool-catalogue",
    request: (q) =>
      /^\/mcp\/?$/.test(q.url.pathname)
        ? {
            status: 404,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              status: "client_error",
              error_code: "not_found",
              detail: "No such route.",
              transient: false,
            }),
          }
        : q,
  },
  {
    id: "mcp-429-never-recovers",
    rows: ["rate-limit.retry-after-works", "errors.retry-after"],
    breaks: "After Retry-After the key works again (this deployment keeps refusing MCP calls for 6 s)",
    expect: "mcp-rate-limit-shared",
    response: (q, res, s) => {
      if (!isMcp(q) || !q.key) return res;
      const key = `mcp-throttled-until-${q.key}`;
      if (res.status === 429) s.memo.set(key, Date.now() + 6000);
      return ((s.memo.get(key) as number | undefined) ?? 0) > Date.now() && res.status !== 429 ? tooMany(res) : res;
    },
  },
];

// ---- the schema-driven checks: response-schema-conformance, invalid-request-rejected,
// valid-request-accepted, valid-run-body-accepted, documented-status-only. One fault per
// seed row each judges, built from small tables: a field of an answer made wrong, an
// error code swapped, a success status changed, an invalid request repaired before the
// deployment sees it (so it is accepted), a valid one refused.

const RSC = "response-schema-conformance";

/** A value of another JSON type than `v` (a string for a number, a number for a string, a string for the rest). */
function otherType(v: unknown): unknown {
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return 7;
  if (typeof v === "boolean") return v ? "yes" : "no";
  return "x";
}

/** Every object at `path` below `root` (`a.b[].c` walks into arrays where `[]` says so). */
function objectsAt(root: unknown, path: string[]): Body[] {
  let level: unknown[] = [root];
  for (const seg of path) {
    const many = seg.endsWith("[]");
    const key = many ? seg.slice(0, -2) : seg;
    level = level.flatMap((o) => {
      const v = o && typeof o === "object" ? (o as Body)[key] : undefined;
      return many ? (Array.isArray(v) ? v : []) : v === undefined ? [] : [v];
    });
  }
  return level.filter((o): o is Body => !!o && typeof o === "object" && !Array.isArray(o));
}

/**
 * A 2xx answer of `method path` whose resource (`data`, or each item of a
 * list's `data`) has one field made wrong: `field` is `a.b[].c` below the
 * resource; `make` gives the wrong value (default: another JSON type).
 */
function fieldFault(
  id: string,
  rows: string[],
  breaks: string,
  method: string,
  path: RegExp,
  field: string,
  producer: string,
  make: (v: unknown) => unknown = otherType,
): Fault {
  const segs = field.split(".");
  const leaf = segs.pop()!;
  return {
    id,
    rows,
    breaks,
    expect: RSC,
    only: [producer, RSC],
    response: (q, res) => {
      if (q.method !== method || !path.test(q.url.pathname) || res.status >= 300 || !res.json) return res;
      const body = structuredClone(res.json);
      const data: unknown = body.data;
      const roots = Array.isArray(data) ? data : [data];
      let changed = false;
      for (const r of roots)
        for (const o of objectsAt(r, segs))
          if (leaf in o) {
            o[leaf] = make(o[leaf]);
            changed = true;
          }
      return changed ? json(res, body) : res;
    },
  };
}

/** An error answer of `method path` at `status` whose error_code is swapped for another of the seed's codes. */
function codeFault(
  id: string,
  rows: string[],
  breaks: string,
  method: string,
  path: RegExp,
  status: number,
  producer: string,
): Fault {
  return {
    id,
    rows,
    breaks,
    expect: RSC,
    only: [producer, RSC],
    response: (q, res) =>
      q.method === method &&
      path.test(q.url.pathname) &&
      res.status === status &&
      typeof res.json?.error_code === "string"
        ? recode(res, "resource_missing")
        : res,
  };
}

/** A success of `method path` answered at another 2xx than the seed's row states. */
function statusFault(
  id: string,
  rows: string[],
  breaks: string,
  method: string,
  path: RegExp,
  from: number,
  to: number,
  producer: string,
): Fault {
  return {
    id,
    rows,
    breaks,
    expect: "documented-status-only",
    only: [producer, "documented-status-only"],
    response: (q, res) =>
      q.method === method && path.test(q.url.pathname) && res.status === from
        ? { ...res, status: to, body: to === 204 ? "" : res.body, json: to === 204 ? undefined : res.json }
        : res,
  };
}

/** A request the seed refuses, repaired before the deployment sees it (so the deployment accepts it). */
function acceptedFault(
  id: string,
  rows: string[],
  breaks: string,
  method: string,
  path: RegExp,
  repair: (b: Body) => boolean,
): Fault {
  return {
    id,
    rows,
    breaks,
    expect: "invalid-request-rejected",
    only: ["invalid-request-rejected"],
    request: (q) => {
      if (q.method !== method || !path.test(q.url.pathname) || !q.body) return q;
      let b: Body;
      try {
        b = JSON.parse(q.body);
      } catch {
        return q;
      }
      return b && typeof b === "object" && repair(b) ? { ...q, body: JSON.stringify(b) } : q;
    },
  };
}

/** A query the seed refuses, repaired before the deployment sees it. */
function acceptedQueryFault(
  id: string,
  rows: string[],
  breaks: string,
  path: RegExp,
  param: string,
  ok: string,
): Fault {
  return {
    id,
    rows,
    breaks,
    expect: "invalid-request-rejected",
    only: ["invalid-request-rejected"],
    request: (q) => {
      const v = q.url.searchParams.get(param);
      if (q.method !== "GET" || !path.test(q.url.pathname) || v === null || v === ok) return q;
      const n = Number(v);
      if (param === "limit" && Number.isInteger(n) && n >= 1 && n <= 100) return q;
      const url = new URL(q.url);
      url.searchParams.set(param, ok);
      return { ...q, url, path: url.pathname + url.search };
    },
  };
}

/** A valid request refused with the validation 422 where `refuse` says so. */
function refusedFault(
  id: string,
  rows: string[],
  breaks: string,
  expect: string,
  method: string,
  path: RegExp,
  refuse: (b: Body) => string | undefined,
  status = 422,
): Fault {
  return {
    id,
    rows,
    breaks,
    expect,
    only: [expect],
    request: (q) => {
      if (q.method !== method || !path.test(q.url.pathname) || !q.body) return q;
      let b: Body;
      try {
        b = JSON.parse(q.body);
      } catch {
        return q;
      }
      const field = b && typeof b === "object" ? refuse(b) : undefined;
      if (field === undefined) return q;
      const body =
        status === 422
          ? { detail: [{ loc: ["body", field], msg: "Value not accepted.", type: "value_error" }] }
          : { status: "client_error", error_code: "bad_request", detail: "Refused.", transient: false };
      return { status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    },
  };
}

const P = {
  dataset: /^\/v1\/datasets\/[^/]+$/,
  datasets: /^\/v1\/datasets$/,
  run: /^\/v1\/datasets\/[^/]+\/runs\/[^/]+$/,
  runs: /^\/v1\/datasets\/[^/]+\/runs$/,
  audience: /^\/v1\/audience_datasets\/[^/]+$/,
  audiences: /^\/v1\/audience_datasets$/,
  audienceRun: /^\/v1\/audience_datasets\/[^/]+\/runs\/[^/]+$/,
  audienceRuns: /^\/v1\/audience_datasets\/[^/]+\/runs$/,
  profiles: /^\/v1\/audience_profiles$/,
  mentions: /^\/v1\/mentions$/,
  parameter: /^\/v1\/custom_parameters\/[^/]+$/,
  parameters: /^\/v1\/custom_parameters$/,
  preview: /^\/v1\/custom_parameters\/preview$/,
  parameterRun: /^\/v1\/custom_parameters\/[^/]+\/runs\/[^/]+$/,
  parameterRuns: /^\/v1\/custom_parameters\/[^/]+\/runs$/,
  agent: /^\/v1\/tracking_agents\/[^/]+$/,
  agents: /^\/v1\/tracking_agents$/,
  trigger: /^\/v1\/tracking_agents\/[^/]+\/trigger$/,
  messages: /^\/v1\/tracking_agents\/[^/]+\/messages$/,
  detection: /^\/v1\/pattern_detections\/[^/]+$/,
  detections: /^\/v1\/pattern_detections$/,
  pattern: /^\/v1\/patterns\/[^/]+$/,
  researchPreviews: /^\/v1\/research_previews$/,
  researchPreview: /^\/v1\/research_previews\/[^/]+$/,
  ask: /^\/v1\/ask$/,
  chat: /^\/v1\/chats\/[^/]+$/,
  chatMessages: /^\/v1\/chats\/[^/]+\/messages$/,
  chatMessage: /^\/v1\/chats\/[^/]+\/messages\/[^/]+$/,
  me: /^\/v1\/me$/,
  usage: /^\/v1\/me\/usage_history$/,
  prices: /^\/v1\/prices$/,
};

const schemaFaults: Fault[] = [
  // ---- response-schema-conformance: a field of the answer made wrong, one per row of fields
  ...(
    [
      [
        "schema-dataset-created-at-integer",
        ["dataset.fields"],
        "GET",
        P.dataset,
        "created_at",
        "created-readable-at-once",
      ],
      [
        "schema-dataset-create-without-created-at",
        ["dataset.create-response-fields"],
        "POST",
        P.datasets,
        "created_at",
        "created-readable-at-once",
        () => undefined,
      ],
      [
        "schema-dataset-estimated-count-string",
        ["dataset.estimated-mentions-count"],
        "GET",
        P.dataset,
        "estimated_mentions_count",
        "created-readable-at-once",
      ],
      [
        "schema-dataset-mentions-count-string",
        ["dataset.mentions-count-dedup"],
        "GET",
        P.dataset,
        "mentions_count",
        "created-readable-at-once",
      ],
      [
        "schema-dataset-name-too-long",
        ["dataset.name-bounds"],
        "GET",
        P.dataset,
        "name",
        "created-readable-at-once",
        () => "n".repeat(256),
      ],
      ["schema-run-dataset-id-number", ["dataset-run.fields"], "GET", P.run, "dataset_id", "run-state-machine"],
      [
        "schema-run-create-without-requested-count",
        ["dataset-run.create-response"],
        "POST",
        P.runs,
        "requested_count",
        "run-state-machine",
        () => undefined,
      ],
      [
        "schema-run-status-type-done",
        ["dataset-run.status-types"],
        "GET",
        P.run,
        "status.type",
        "run-state-machine",
        () => "done",
      ],
      [
        "schema-run-step-completed-at-string",
        ["dataset-run.steps"],
        "GET",
        P.run,
        "status.steps[].completed_at",
        "run-state-machine",
      ],
      [
        "schema-run-params-string",
        ["dataset-run.params-echo"],
        "GET",
        P.run,
        "params",
        "run-state-machine",
        () => "count=20",
      ],
      [
        "schema-run-params-unknown-action",
        ["datasets.runs.body.actions"],
        "GET",
        P.run,
        "params.content_analysis_actions",
        "run-state-machine",
        () => ["zz_unknown_action"],
      ],
      [
        "schema-run-params-sources-string",
        ["search-query.prompt-fields"],
        "GET",
        P.run,
        "params.search_query.sources",
        "run-state-machine",
        () => "reddit",
      ],
      [
        "schema-audience-run-created-at-integer",
        ["conventions.timestamps.iso"],
        "GET",
        P.audienceRun,
        "created_at",
        "audience-run-state-machine",
        () => 1767225600,
      ],
      [
        "schema-audience-profile-count-string",
        ["audience-dataset.fields"],
        "GET",
        P.audience,
        "profile_count",
        "audience-run-state-machine",
      ],
      [
        "schema-profile-username-number",
        ["audience-profile.fields"],
        "POST",
        P.profiles,
        "username",
        "audience-profiles-omit-spans-all",
      ],
      [
        "schema-mention-source-myspace",
        ["mention.fields", "service.sources"],
        "POST",
        P.mentions,
        "source",
        "dataset-mentions-consistent",
        () => "myspace",
      ],
      [
        "schema-mention-parameter-value-computed-at-string",
        ["mention.parameters"],
        "POST",
        P.mentions,
        "parameters",
        "custom-parameter-values-via-parameter-ids",
        (v: unknown) =>
          v && typeof v === "object"
            ? Object.fromEntries(Object.entries(v as Body).map(([k, x]) => [k, { ...(x as Body), computed_at: "now" }]))
            : v,
      ],
      [
        "schema-mention-assignment-confidence-string",
        ["mention.pattern-assignments"],
        "POST",
        P.mentions,
        "pattern_assignments",
        "pattern-assignments-real-items",
        (v: unknown) =>
          v && typeof v === "object"
            ? Object.fromEntries(
                Object.entries(v as Body).map(([k, xs]) => [
                  k,
                  Array.isArray(xs) ? xs.map((x) => ({ ...(x as Body), pattern_item_id: 7 })) : xs,
                ]),
              )
            : v,
      ],
      [
        "schema-parameter-instructions-number",
        ["custom-parameter.fields"],
        "GET",
        P.parameter,
        "instructions",
        "custom-parameter-run-state-machine",
      ],
      [
        "schema-parameter-created-at-iso",
        ["conventions.timestamps.unix"],
        "GET",
        P.parameter,
        "created_at",
        "custom-parameter-run-state-machine",
        () => "2026-01-01T00:00:00Z",
      ],
      [
        "schema-parameter-run-done-string",
        ["custom-parameter-run.fields"],
        "GET",
        P.parameterRun,
        "mentions_done",
        "custom-parameter-run-state-machine",
      ],
      ["schema-agent-count-string", ["tracking-agent.fields"], "GET", P.agent, "count", "tracking-agent-pause-resume"],
      [
        "schema-agent-run-ids-string",
        ["agent-run.fields"],
        "POST",
        P.trigger,
        "dataset_run_ids",
        "tracking-agent-trigger-202-then-409",
        () => "dsr_1",
      ],
      [
        "schema-agent-message-counts-string",
        ["agent-message.fields"],
        "GET",
        P.messages,
        "new_mention_count",
        "tracking-agent-feed-newest-first",
      ],
      [
        "schema-detection-created-at-string",
        ["pattern-detection-run.fields"],
        "GET",
        P.detection,
        "created_at",
        "pattern-detection-run-state-machine",
        () => "2026-01-01T00:00:00Z",
      ],
      [
        "schema-pattern-items-object",
        ["pattern.items"],
        "GET",
        P.pattern,
        "items",
        "pattern-item-post-count",
        () => ({}),
      ],
      [
        "schema-preview-estimate-string",
        ["preview.prompt-result"],
        "POST",
        P.researchPreviews,
        "estimated_number_of_results",
        "preview-charge-per-source",
      ],
      [
        "schema-preview-without-private-profiles",
        ["preview.url-result"],
        "POST",
        P.researchPreviews,
        "private_profiles",
        "preview-url-charge-per-returning-url",
        () => undefined,
      ],
      [
        "schema-chat-created-at-iso",
        ["conventions.timestamps.unix"],
        "GET",
        P.chat,
        "created_at",
        "chat-after-ask-shapes",
        () => "2026-01-01T00:00:00Z",
      ],
      ["schema-chat-name-number", ["chat.fields"], "GET", P.chat, "name", "chat-after-ask-shapes", () => 7],
      [
        "schema-chat-message-role-system",
        ["chat-message.fields"],
        "GET",
        P.chatMessages,
        "role",
        "chat-after-ask-shapes",
        () => "system",
      ],
      [
        "schema-chat-message-references-object",
        ["chat-message.assistant-references"],
        "GET",
        P.chatMessages,
        "references",
        "chat-after-ask-shapes",
        () => ({}),
      ],
      [
        "schema-post-reference-without-end",
        ["references.post-one-per-post"],
        "GET",
        P.chatMessage,
        "references",
        "ask-citation-invariants",
        (v: unknown) =>
          Array.isArray(v) ? v.map((r) => (r?.type === "post" ? { ...r, end_index: undefined } : r)) : v,
      ],
      ["schema-me-without-team-name", ["me.fields"], "GET", P.me, "team_name", "me-usage-adds-up", () => undefined],
      ["schema-me-without-teams", ["me.read"], "GET", P.me, "teams", "me-usage-adds-up", () => undefined],
      [
        "schema-me-flags-without-mcp",
        ["auth.plan-flags-reported"],
        "GET",
        P.me,
        "plan.features",
        "me-usage-adds-up",
        (v: unknown) => (v && typeof v === "object" ? { ...(v as Body), mcp: undefined } : v),
      ],
      [
        "schema-me-usage-currency-dollars",
        ["me.usage"],
        "GET",
        P.me,
        "usage.balance_total",
        "me-usage-adds-up",
        () => undefined,
      ],
      [
        "schema-prices-without-mention",
        ["prices.fields"],
        "GET",
        P.prices,
        "prices.mention",
        "prices-match-unit-ratios",
        () => undefined,
      ],
      [
        "schema-usage-basis-historic",
        ["usage-history.credit-value-basis"],
        "GET",
        P.usage,
        "credit_value_basis",
        "billing-usage-history-matches",
        () => "historic",
      ],
      ["schema-list-data-object", ["conventions.success-envelope"], "GET", P.datasets, "", "pagination-full-walk"],
    ] as Array<[string, string[], string, RegExp, string, string, ((v: unknown) => unknown)?]>
  ).map(([id, rows, method, path, field, producer, make]) =>
    field
      ? fieldFault(
          id,
          rows,
          `${rows.join(", ")}: ${field} of the ${method} ${path.source} answer is not what the seed types`,
          method,
          path,
          field,
          producer,
          make,
        )
      : {
          id,
          rows,
          breaks: "A success answer is the envelope {status: success, data} (this list answers data as an object)",
          expect: RSC,
          only: [producer, RSC],
          response: (q: ProxyRequest, res: ProxyResponse) =>
            q.method === method && path.test(q.url.pathname) && res.status === 200 && Array.isArray(res.json?.data)
              ? json(res, { ...res.json, data: { items: res.json.data } })
              : res,
        },
  ),
  {
    id: "schema-error-status-error",
    rows: ["conventions.status-mapping"],
    breaks: "A 4xx body's status is client_error (this deployment says error)",
    expect: RSC,
    only: ["unknown-id-codes", RSC],
    response: (q, res) =>
      REST(q) && res.status === 404 && res.json?.status ? json(res, { ...res.json, status: "error" }) : res,
  },
  {
    id: "schema-error-without-transient",
    rows: ["conventions.error-envelope"],
    breaks: "An error body is {status, error_code, detail, transient} (this deployment leaves transient out)",
    expect: RSC,
    only: ["unknown-id-codes", RSC],
    response: (q, res) => {
      if (!REST(q) || res.status !== 404 || !res.json) return res;
      const { transient: _t, ...rest } = res.json;
      return json(res, rest);
    },
  },
  {
    id: "schema-validation-loc-integer",
    rows: ["conventions.422-validation-body"],
    breaks: "A 422 validation body's loc is [string] (this deployment puts array indexes as integers)",
    expect: RSC,
    only: ["invalid-request-rejected", RSC],
    response: (q, res) =>
      REST(q) && res.status === 422 && Array.isArray(res.json?.detail)
        ? json(res, { ...res.json, detail: res.json.detail.map((d: Body) => ({ ...d, loc: [...(d.loc ?? []), 0] })) })
        : res,
  },
  {
    id: "schema-prices-text",
    rows: ["service.json-bodies"],
    breaks: "All bodies are JSON (GET /v1/prices answers text)",
    expect: RSC,
    only: ["prices-match-unit-ratios", RSC],
    response: (q, res) =>
      q.method === "GET" && P.prices.test(q.url.pathname) && res.status === 200
        ? { ...res, headers: { ...res.headers, "content-type": "text/plain" }, body: "mention=0.0225", json: undefined }
        : res,
  },
  // ---- response-schema-conformance: an error code the seed states for the operation, swapped
  codeFault(
    "schema-code-mentions-404",
    ["mentions.404"],
    "POST /v1/mentions answers 404 dataset_not_found",
    "POST",
    P.mentions,
    404,
    "lists-never-leak-foreign",
  ),
  codeFault(
    "schema-code-profiles-404",
    ["audience-profiles.404"],
    "POST /v1/audience_profiles answers 404 audience_dataset_not_found",
    "POST",
    P.profiles,
    404,
    "unknown-id-codes",
  ),
  codeFault(
    "schema-code-run-create-404",
    ["datasets.runs.create.404"],
    "A run create on an unknown dataset answers 404 dataset_not_found",
    "POST",
    P.runs,
    404,
    "unknown-id-codes",
  ),
  codeFault(
    "schema-code-run-list-404",
    ["datasets.runs.list.404"],
    "A run list of an unknown dataset answers 404 dataset_not_found",
    "GET",
    P.runs,
    404,
    "deleted-gone-everywhere",
  ),
  codeFault(
    "schema-code-run-create-402",
    ["datasets.runs.create.402"],
    "A run the balance cannot fund answers 402 insufficient_credits_dataset_run",
    "POST",
    P.runs,
    402,
    "billing-402-refused-charges-nothing",
  ),
  codeFault(
    "schema-code-audience-run-402",
    ["audience-datasets.runs.402"],
    "An audience run the balance cannot fund answers 402 insufficient_credits_audience_dataset_run",
    "POST",
    P.audienceRuns,
    402,
    "audience-run-402",
  ),
  codeFault(
    "schema-code-audience-update-404",
    ["audience-datasets.update.404"],
    "An audience dataset update of an unknown id answers 404 audience_dataset_not_found",
    "PATCH",
    P.audience,
    404,
    "foreign-id-404-indistinguishable",
  ),
  codeFault(
    "schema-code-ask-402",
    ["ask.402"],
    "A spent balance refuses the ask with 402 insufficient_credits_ask",
    "POST",
    P.ask,
    402,
    "ask-402-creates-nothing",
  ),
  codeFault(
    "schema-code-chat-404",
    ["chats.messages.not-found"],
    "A chat's messages of an unknown chat answer 404 chat_not_found",
    "GET",
    P.chatMessages,
    404,
    "chats-private-to-seat",
  ),
  codeFault(
    "schema-code-parameter-404",
    ["custom-parameters.read.404"],
    "An unknown custom parameter answers 404 custom_parameter_not_found",
    "GET",
    P.parameter,
    404,
    "unknown-id-codes",
  ),
  codeFault(
    "schema-code-parameter-run-404",
    ["custom-parameters.runs.read.404"],
    "A run read under an unknown custom parameter answers 404 custom_parameter_not_found",
    "GET",
    P.parameterRun,
    404,
    "unknown-id-codes",
  ),
  codeFault(
    "schema-code-detection-create-404",
    ["pattern-detections.create.404"],
    "A detection on an unknown dataset answers 404 dataset_not_found",
    "POST",
    P.detections,
    404,
    "pattern-detection-codes",
  ),
  codeFault(
    "schema-code-detection-read-404",
    ["pattern-detections.read.404"],
    "An unknown pattern detection run answers 404 pattern_detection_run_not_found",
    "GET",
    P.detection,
    404,
    "unknown-id-codes",
  ),
  codeFault(
    "schema-code-preview-402",
    ["previews.create.402"],
    "A preview the balance cannot fund answers 402 insufficient_credits_research_preview",
    "POST",
    P.researchPreviews,
    402,
    "preview-402-before-work",
  ),
  codeFault(
    "schema-code-agent-404",
    ["tracking-agents.read.404"],
    "An unknown tracking agent answers 404 not_found",
    "GET",
    P.agent,
    404,
    "tracking-agent-deleted-hidden",
  ),
  codeFault(
    "schema-code-agent-messages-404",
    ["tracking-agents.messages.not-found"],
    "An unknown agent's messages answer 404 not_found",
    "GET",
    P.messages,
    404,
    "tracking-agent-deleted-hidden",
  ),
  codeFault(
    "schema-code-trigger-404",
    ["tracking-agents.trigger.codes"],
    "A trigger of an unknown agent answers 404 not_found",
    "POST",
    P.trigger,
    404,
    "tracking-agent-deleted-hidden",
  ),

  // ---- documented-status-only: the seed row's success status answered otherwise
  statusFault(
    "status-dataset-delete-200",
    ["datasets.delete.204"],
    "DELETE /v1/datasets/{id} answers 204",
    "DELETE",
    P.dataset,
    204,
    200,
    "deleted-gone-everywhere",
  ),
  statusFault(
    "status-run-create-200",
    ["dataset-run.create-pending-202"],
    "A dataset run create answers 202",
    "POST",
    P.runs,
    202,
    200,
    "run-state-machine",
  ),
  statusFault(
    "status-audience-run-create-200",
    ["audience-datasets.runs.create.202"],
    "An audience run create answers 202",
    "POST",
    P.audienceRuns,
    202,
    201,
    "audience-run-state-machine",
  ),
  statusFault(
    "status-ask-200",
    ["ask.202"],
    "POST /v1/ask answers 202",
    "POST",
    P.ask,
    202,
    200,
    "ask-202-polls-to-completion",
  ),
  statusFault(
    "status-dataset-list-202",
    ["datasets.list.sorted"],
    "GET /v1/datasets answers 200",
    "GET",
    P.datasets,
    200,
    202,
    "pagination-full-walk",
  ),
  statusFault(
    "status-dataset-read-202",
    ["datasets.read.200"],
    "GET /v1/datasets/{id} answers 200",
    "GET",
    P.dataset,
    200,
    202,
    "created-readable-at-once",
  ),
  statusFault(
    "status-dataset-patch-204",
    ["datasets.update.semantics"],
    "PATCH /v1/datasets/{id} answers 200 with the dataset",
    "PATCH",
    P.dataset,
    200,
    204,
    "rename-updates-name",
  ),
  statusFault(
    "status-run-list-202",
    ["datasets.runs.list.404"],
    "GET /v1/datasets/{id}/runs answers 200",
    "GET",
    P.runs,
    200,
    202,
    "pagination-runs-default-page",
  ),
  statusFault(
    "status-run-read-202",
    ["datasets.runs.read.404"],
    "GET /v1/datasets/{id}/runs/{run_id} answers 200",
    "GET",
    P.run,
    200,
    202,
    "run-state-machine",
  ),
  statusFault(
    "status-audience-list-202",
    ["audience-datasets.list"],
    "GET /v1/audience_datasets answers 200",
    "GET",
    P.audiences,
    200,
    202,
    "pagination-full-walk",
  ),
  statusFault(
    "status-audience-read-202",
    ["audience-datasets.read"],
    "GET /v1/audience_datasets/{id} answers 200",
    "GET",
    P.audience,
    200,
    202,
    "created-readable-at-once",
  ),
  statusFault(
    "status-audience-patch-201",
    ["audience-datasets.update"],
    "PATCH /v1/audience_datasets/{id} answers 200",
    "PATCH",
    P.audience,
    200,
    201,
    "rename-updates-name",
  ),
  statusFault(
    "status-audience-runs-202",
    ["audience-datasets.runs.list"],
    "GET /v1/audience_datasets/{id}/runs answers 200",
    "GET",
    P.audienceRuns,
    200,
    202,
    "audience-run-state-machine",
  ),
  statusFault(
    "status-audience-run-202",
    ["audience-datasets.runs.read"],
    "GET /v1/audience_datasets/{id}/runs/{run_id} answers 200",
    "GET",
    P.audienceRun,
    200,
    202,
    "audience-run-state-machine",
  ),

  // ---- invalid-request-rejected: a request the seed refuses, accepted
  acceptedFault(
    "accepted-audience-run-2001-profiles",
    ["audience-datasets.runs.body"],
    "An audience run's total_profile_count is 1-2000",
    "POST",
    /^\/v1\/audience_datasets\/[^/]+\/runs$/,
    (b) => {
      if (typeof b.total_profile_count !== "number" || (b.total_profile_count >= 1 && b.total_profile_count <= 2000))
        return false;
      b.total_profile_count = Math.min(2000, Math.max(1, Math.trunc(b.total_profile_count)));
      return true;
    },
  ),
  acceptedFault(
    "accepted-run-count-1001",
    ["datasets.runs.body.count-range"],
    "A dataset run's count is 20-1000",
    "POST",
    P.runs,
    (b) => {
      if (typeof b.count !== "number" || b.count <= 1000) return false;
      b.count = 1000;
      return true;
    },
  ),
  acceptedFault(
    "accepted-run-comments-101",
    ["datasets.runs.body.comments-range"],
    "num_comments_per_post is 0-100",
    "POST",
    P.runs,
    (b) => {
      if (typeof b.num_comments_per_post !== "number" || b.num_comments_per_post <= 100) return false;
      b.num_comments_per_post = 100;
      return true;
    },
  ),
  acceptedFault(
    "accepted-run-without-search-query",
    ["datasets.runs.body.search-query-required"],
    "search_query is required",
    "POST",
    P.runs,
    (b) => {
      if ("search_query" in b) return false;
      b.search_query = { type: "prompt", sources: ["reddit"], search_query: "oat milk" };
      return true;
    },
  ),
  acceptedFault(
    "accepted-run-language-number",
    ["datasets.runs.body.language"],
    "language is a string (a BCP-47 tag)",
    "POST",
    P.runs,
    (b) => {
      if (b.language === undefined || typeof b.language === "string" || b.language === null) return false;
      b.language = "en";
      return true;
    },
  ),
  acceptedFault(
    "accepted-run-country-number",
    ["datasets.runs.body.country-code"],
    "country_code is a string (ISO 3166-1 alpha-2)",
    "POST",
    P.runs,
    (b) => {
      if (b.country_code === undefined || typeof b.country_code === "string") return false;
      b.country_code = "US";
      return true;
    },
  ),
  acceptedFault(
    "accepted-mentions-unknown-source",
    ["service.sources"],
    "Supported sources are reddit, tiktok, youtube, instagram, linkedin (this search takes any)",
    "POST",
    P.mentions,
    (b) => {
      const known = ["reddit", "tiktok", "youtube", "instagram", "linkedin"];
      if (!Array.isArray(b.sources) || b.sources.every((x: unknown) => known.includes(String(x)))) return false;
      b.sources = b.sources.filter((x: unknown) => known.includes(String(x)));
      return true;
    },
  ),

  acceptedFault("accepted-ask-without-message", ["ask.body"], "The ask's message is required", "POST", P.ask, (b) => {
    if (typeof b.message === "string") return false;
    b.message = "Summarise this dataset.";
    return true;
  }),

  acceptedFault(
    "accepted-parameter-without-name",
    ["custom-parameter.name-required-unique"],
    "A custom parameter's name is required",
    "POST",
    P.parameters,
    (b) => {
      if (typeof b.name === "string") return false;
      b.name = `kit-repaired-${Date.now()}`;
      return true;
    },
  ),
  acceptedFault(
    "accepted-parameter-instructions-number",
    ["custom-parameter.fields"],
    "instructions is a string",
    "POST",
    P.parameters,
    (b) => {
      if (b.instructions === undefined || typeof b.instructions === "string") return false;
      b.instructions = "Extract the drink.";
      return true;
    },
  ),
  acceptedFault(
    "accepted-agent-count-string",
    ["tracking-agent.fields"],
    "A tracking agent's count is an integer",
    "POST",
    P.agents,
    (b) => {
      if (b.count === undefined || typeof b.count === "number") return false;
      b.count = 20;
      return true;
    },
  ),
  acceptedFault(
    "accepted-agent-time-25h",
    ["tracking-agent.schedule"],
    "A schedule's time is a 24-hour HH:MM string",
    "POST",
    P.agents,
    (b) => {
      const t = b.schedule?.time;
      if (typeof t !== "string" || /^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(t)) return false;
      b.schedule.time = "09:00";
      return true;
    },
  ),
  acceptedFault(
    "accepted-mentions-parameter-ids-string",
    ["mentions.parameter-ids"],
    "parameter_ids is an array of string",
    "POST",
    P.mentions,
    (b) => {
      if (b.parameter_ids === undefined || Array.isArray(b.parameter_ids)) return false;
      b.parameter_ids = [];
      return true;
    },
  ),
  acceptedFault(
    "accepted-mentions-filters-object",
    ["mentions.filters.or-and"],
    "filters is a list of groups",
    "POST",
    P.mentions,
    (b) => {
      if (b.filters === undefined || Array.isArray(b.filters)) return false;
      b.filters = [];
      return true;
    },
  ),
  acceptedFault(
    "accepted-mentions-post-refs-object",
    ["references.post-resolves"],
    "post_refs is an array of {source, id}",
    "POST",
    P.mentions,
    (b) => {
      if (b.post_refs === undefined || Array.isArray(b.post_refs)) return false;
      b.post_refs = [];
      return true;
    },
  ),
  acceptedFault(
    "accepted-mentions-limit-101",
    ["mentions.limit"],
    "A mention search's limit is 1-100",
    "POST",
    P.mentions,
    (b) => {
      if (typeof b.limit !== "number" || (b.limit >= 1 && b.limit <= 100)) return false;
      b.limit = 20;
      return true;
    },
  ),
  acceptedFault(
    "accepted-profiles-limit-0",
    ["audience-profiles.limit"],
    "A profile search's limit is 1-100",
    "POST",
    P.profiles,
    (b) => {
      if (typeof b.limit !== "number" || (b.limit >= 1 && b.limit <= 100)) return false;
      b.limit = 20;
      return true;
    },
  ),
  acceptedFault(
    "accepted-profiles-unknown-sort",
    ["audience-profiles.sort-order"],
    "A profile search sorts by created_at or audience_dataset_run_at",
    "POST",
    P.profiles,
    (b) => {
      if (b.sort === undefined || ["created_at", "audience_dataset_run_at"].includes(b.sort)) return false;
      b.sort = "created_at";
      return true;
    },
  ),
  acceptedQueryFault(
    "accepted-datasets-limit-0",
    ["pagination.limit-range"],
    "A list's limit is 1-100",
    P.datasets,
    "limit",
    "10",
  ),
  acceptedQueryFault(
    "accepted-agent-messages-limit-101",
    ["tracking-agents.messages.limit"],
    "The agent message list's limit is 1-100",
    P.messages,
    "limit",
    "25",
  ),
  acceptedQueryFault(
    "accepted-usage-limit-101",
    ["usage-history.limit"],
    "The usage history's limit is 1-100",
    P.usage,
    "limit",
    "25",
  ),

  // ---- valid-request-accepted / valid-run-body-accepted: a request the seed accepts, refused
  refusedFault(
    "refused-name-over-200",
    ["dataset.name-bounds", "datasets.create.201"],
    "A dataset name of 1-255 characters is accepted (this deployment stops at 200)",
    "valid-request-accepted",
    "POST",
    P.datasets,
    (b) => (typeof b.name === "string" && b.name.length > 200 ? "name" : undefined),
  ),
  refusedFault(
    "refused-rename-over-200",
    ["datasets.update.semantics", "dataset.name-bounds"],
    "A rename to a name of 1-255 characters is accepted (this deployment stops at 200)",
    "valid-request-accepted",
    "PATCH",
    P.dataset,
    (b) => (typeof b.name === "string" && b.name.length > 200 ? "name" : undefined),
  ),
  refusedFault(
    "refused-run-language-not-en",
    ["datasets.runs.body.language"],
    "Any BCP-47 language tag is accepted (this deployment takes en only)",
    "valid-run-body-accepted",
    "POST",
    P.runs,
    (b) => (typeof b.language === "string" && b.language !== "en" ? "language" : undefined),
  ),
  refusedFault(
    "refused-run-country-not-us",
    ["datasets.runs.body.country-code"],
    "Any ISO 3166-1 alpha-2 country is accepted (this deployment takes US only)",
    "valid-run-body-accepted",
    "POST",
    P.runs,
    (b) => (typeof b.country_code === "string" && b.country_code !== "US" ? "country_code" : undefined),
  ),
  {
    id: "refused-second-run-in-flight",
    rows: ["datasets.runs.several-in-flight"],
    breaks: "Regular datasets allow several runs in flight at once (this deployment refuses a second one with 400)",
    expect: "valid-run-body-accepted",
    only: ["valid-run-body-accepted"],
    request: (q, s) => {
      if (q.method !== "POST" || !P.runs.test(q.url.pathname)) return q;
      const n = (s.memo.get(`runs:${q.url.pathname}`) as number | undefined) ?? 0;
      s.memo.set(`runs:${q.url.pathname}`, n + 1);
      return n === 0
        ? q
        : {
            status: 400,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              status: "client_error",
              error_code: "bad_request",
              detail: "A run is in flight.",
              transient: false,
            }),
          };
    },
  },
  statusFault(
    "status-valid-run-200",
    ["dataset-run.create-pending-202"],
    "A valid run body answers 202 pending",
    "POST",
    P.runs,
    202,
    200,
    "valid-run-body-accepted",
  ),
];

// appended to this area's faults (the list above is shared; nothing before this line changes)
kitRequestsFaults.push(
  ...schemaFaults.map((f) =>
    f.id === "status-valid-run-200"
      ? { ...f, expect: "valid-run-body-accepted", only: ["valid-run-body-accepted"] }
      : f,
  ),
);

// the rows the tables above leave: a server fault's code, and what the run's params echo
kitRequestsFaults.push(
  {
    id: "schema-server-error-own-code",
    rows: ["errors.5xx"],
    breaks: "A server fault is 5xx internal_server_error (this deployment answers 500 server_fault)",
    expect: RSC,
    only: ["prices-match-unit-ratios", RSC],
    response: (q, res) =>
      q.method === "GET" && P.prices.test(q.url.pathname) && res.status === 200
        ? json(res, { status: "server_error", error_code: "server_fault", detail: "Try later.", transient: true }, 500)
        : res,
  },
  fieldFault(
    "schema-run-params-country-lowercase",
    ["mentions.filters.country-code"],
    "A country code is uppercase ISO 3166-1 alpha-2 (the run's params echo it lowercase)",
    "GET",
    P.run,
    "params.country_code",
    "run-state-machine",
    (v) => (typeof v === "string" ? v.toLowerCase() : v),
  ),
  fieldFault(
    "schema-run-params-101-urls",
    ["search-query.url-max-100"],
    "A url search holds at most 100 source_urls (the run's params echo 101)",
    "GET",
    P.run,
    "params.search_query.source_urls",
    "valid-run-body-accepted",
    (v) => (Array.isArray(v) && v.length ? Array.from({ length: 101 }, (_, i) => v[i % v.length]) : v),
  ),
  codeFault(
    "schema-code-parameter-update-404",
    ["custom-parameters.update.errors"],
    "An update of an unknown custom parameter answers 404 custom_parameter_not_found",
    "PATCH",
    P.parameter,
    404,
    "foreign-id-404-indistinguishable",
  ),
);

kitRequestsFaults.push({
  id: "schema-entity-reference-without-id",
  rows: ["references.entity"],
  breaks: "An entity reference is {type, id} (this deployment leaves the id out)",
  expect: RSC,
  only: ["ask-citation-invariants", RSC],
  response: (q, res) => {
    const refs: unknown = res.json?.data?.references;
    if (q.method !== "GET" || !P.chatMessage.test(q.url.pathname) || res.status !== 200 || !Array.isArray(refs))
      return res;
    if (!refs.some((r: Body) => r?.type && r.type !== "post")) return res;
    const next = refs.map((r: Body) => (r?.type && r.type !== "post" ? { type: r.type } : r));
    return json(res, { ...res.json, data: { ...res.json.data, references: next } });
  },
});
