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
