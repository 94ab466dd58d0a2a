// One idea, kept long on purpose: a table of single-rule faults, one entry per
// fault, of the MCP surface: the redirect, the 401 challenge and
// metadata document, auth order, the tool catalogue, tool errors, list
// cursors, REST↔MCP agreement, free reads, the ask flow and the shared rate
// limit. Responses are JSON-RPC over JSON or SSE; `rewrite` keeps the format.
import {
  json,
  memoNumber,
  type Body,
  type Fault,
  type ProxyRequest,
  type ProxyResponse,
  type ProxyState,
} from "./proxy.ts";

export const isMcp = (q: ProxyRequest) => q.method === "POST" && /^\/mcp\/$/.test(q.url.pathname);
export const rpcOf = (q: ProxyRequest): Body => {
  try {
    return q.body ? JSON.parse(q.body) : undefined;
  } catch {
    return undefined;
  }
};
export const toolOf = (q: ProxyRequest): string | undefined =>
  rpcOf(q)?.method === "tools/call" ? rpcOf(q)?.params?.name : undefined;
const methodOf = (q: ProxyRequest): string | undefined => rpcOf(q)?.method;

/** The JSON-RPC response in a body (JSON or the last `data:` event of an SSE stream). */
export function messageOf(res: ProxyResponse): Body {
  if (/event-stream/.test(res.headers["content-type"] ?? "")) {
    const datas = res.body.split(/\r?\n/).filter((l) => l.startsWith("data:"));
    for (const d of datas.reverse()) {
      try {
        const m = JSON.parse(d.slice(5).trim());
        if (m && typeof m === "object" && "id" in m) return m;
      } catch {
        /* keep looking */
      }
    }
    return undefined;
  }
  return res.json;
}

/** Rewrite the JSON-RPC response, keeping the body's format (JSON or SSE). */
export function rewrite(res: ProxyResponse, f: (m: Body) => unknown): ProxyResponse {
  const m = messageOf(res);
  if (!m) return res;
  const next = f(structuredClone(m));
  if (/event-stream/.test(res.headers["content-type"] ?? ""))
    return { ...res, body: `event: message\ndata: ${JSON.stringify(next)}\n\n`, json: undefined };
  return json(res, next);
}

/** The tool result's payload (structuredContent, else the JSON of its text), rewritten in both places. */
export function payload(res: ProxyResponse, f: (p: Body) => unknown): ProxyResponse {
  return rewrite(res, (m) => {
    const r = m.result;
    if (!r || r.isError) return m;
    let p = r.structuredContent;
    if (p === undefined) {
      try {
        p = JSON.parse(r.content?.[0]?.text ?? "null");
      } catch {
        return m;
      }
    }
    const q = f(p);
    return {
      ...m,
      result: {
        ...r,
        ...(r.structuredContent !== undefined ? { structuredContent: q } : {}),
        content: [{ type: "text", text: JSON.stringify(q) }],
      },
    };
  });
}

export const toolError = (res: ProxyResponse, f: (e: Body, r: Body) => unknown): ProxyResponse =>
  rewrite(res, (m) => {
    if (!m.result?.isError) return m;
    let e: Body;
    try {
      e = JSON.parse(m.result.content?.[0]?.text ?? "null");
    } catch {
      return m;
    }
    return { ...m, result: f(e, m.result) };
  });

const forwardTo = async (q: ProxyRequest, s: ProxyState, path: string) =>
  s.forward({ ...q, path, url: new URL(path, q.url) });
const mcpShift = (q: ProxyRequest, res: ProxyResponse, s: ProxyState): ProxyResponse => {
  const delta = memoNumber(s, "mcp-read-charge");
  if (
    !delta ||
    q.method !== "GET" ||
    q.url.pathname !== "/v1/me" ||
    q.key !== s.keys.main ||
    typeof res.json?.data?.usage?.balance !== "number"
  )
    return res;
  return json(res, {
    ...res.json,
    data: {
      ...res.json.data,
      usage: { ...res.json.data.usage, balance: Math.round((res.json.data.usage.balance + delta) * 1e6) / 1e6 },
    },
  });
};

export const mcpFaults: Fault[] = [
  {
    id: "mcp-bare-path-served",
    rows: ["mcp-auth.trailing-slash-307"],
    breaks: "The MCP URL without its trailing slash answers 307",
    expect: "mcp-trailing-slash-307",
    request: async (q, s) => (q.method === "POST" && q.url.pathname === "/mcp" ? forwardTo(q, s, "/mcp/") : q),
  },
  {
    id: "mcp-redirect-308-elsewhere",
    rows: ["mcp-auth.trailing-slash-307"],
    breaks: "The redirect is a 307 to the slashed MCP URL",
    expect: "mcp-trailing-slash-307",
    response: (q, res) =>
      q.url.pathname === "/mcp" && res.status === 307
        ? { ...res, status: 308, headers: { ...res.headers, location: "/mcp/v2/" } }
        : res,
  },
  {
    id: "mcp-401-unquoted-metadata",
    decision: "D-OAUTH",
    breaks: "WWW-Authenticate quotes the resource_metadata URL",
    expect: "mcp-unauthenticated-401",
    response: (_q, res) =>
      res.status === 401 && res.headers["www-authenticate"]
        ? { ...res, headers: { ...res.headers, "www-authenticate": res.headers["www-authenticate"].replace(/"/g, "") } }
        : res,
  },
  {
    id: "mcp-401-without-challenge",
    rows: ["mcp-auth.401-challenge"],
    breaks: "An MCP 401 carries WWW-Authenticate",
    expect: "mcp-unauthenticated-401",
    response: (q, res) => {
      if (!isMcp(q) || res.status !== 401) return res;
      const h = { ...res.headers };
      delete h["www-authenticate"];
      return { ...res, headers: h };
    },
  },
  {
    id: "mcp-metadata-document-missing",
    rows: ["mcp-auth.401-challenge"],
    breaks: "The protected-resource metadata document is served",
    expect: "mcp-unauthenticated-401",
    response: (q, res) =>
      q.url.pathname.startsWith("/.well-known/oauth-protected-resource")
        ? json(
            res,
            { status: "client_error", error_code: "not_found", detail: "No such route.", transient: false },
            404,
          )
        : res,
  },
  {
    id: "mcp-metadata-no-authorization-servers",
    decision: "D-MCP-OAUTH-METADATA",
    breaks: "The metadata document names at least one authorization server",
    expect: "mcp-unauthenticated-401",
    response: (q, res) =>
      q.url.pathname.startsWith("/.well-known/oauth-protected-resource") && res.status === 200
        ? json(res, { ...res.json, authorization_servers: [] })
        : res,
  },
  {
    id: "mcp-bad-key-blocks-bearer",
    rows: ["mcp-auth.order"],
    breaks: "An invalid x-api-key falls back to the bearer token",
    expect: "mcp-auth-order",
    request: (q, s) =>
      isMcp(q) && q.headers.authorization && q.key && !Object.values(s.keys).includes(q.key)
        ? {
            status: 401,
            headers: {
              "content-type": "application/json",
              "www-authenticate":
                'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp/"',
            },
            body: JSON.stringify({
              status: "client_error",
              error_code: "unauthorized",
              detail: "Invalid API key.",
              transient: false,
            }),
          }
        : q,
  },
  {
    id: "mcp-bearer-checked-first",
    rows: ["mcp-auth.order"],
    breaks: "x-api-key is checked before the bearer token",
    expect: "mcp-auth-order",
    request: (q) =>
      isMcp(q) && q.key && /^Bearer slk-invalid/.test(q.headers.authorization ?? "")
        ? {
            status: 401,
            headers: {
              "content-type": "application/json",
              "www-authenticate":
                'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp/"',
            },
            body: JSON.stringify({
              status: "client_error",
              error_code: "unauthorized",
              detail: "Invalid token.",
              transient: false,
            }),
          }
        : q,
  },
  {
    id: "mcp-bearer-other-account",
    rows: ["mcp.get-me", "mcp-auth.two-methods"],
    breaks: "The bearer token resolves to the same account as the key",
    expect: "mcp-auth-order",
    request: (q, s) =>
      isMcp(q) && !q.key && q.headers.authorization && toolOf(q) === "svc__get_me"
        ? { ...q, key: s.keys.foreign, headers: { ...q.headers, "x-api-key": s.keys.foreign! } }
        : q,
  },
  {
    id: "mcp-extra-write-tool",
    rows: ["service.mcp.ask-plus-read-only", "mcp.tools"],
    breaks: "Exactly the fifteen documented tools, no write tools",
    expect: "mcp-tool-catalogue",
    response: (q, res) =>
      isMcp(q) && methodOf(q) === "tools/list"
        ? rewrite(res, (m) => ({
            ...m,
            result: {
              ...m.result,
              tools: [
                ...m.result.tools,
                {
                  name: "svc__create_dataset",
                  inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
                },
              ],
            },
          }))
        : res,
  },
  {
    id: "mcp-tool-missing",
    rows: ["mcp.tools"],
    breaks: "Every documented tool is listed",
    expect: "mcp-tool-catalogue",
    response: (q, res) =>
      isMcp(q) && methodOf(q) === "tools/list"
        ? rewrite(res, (m) => ({
            ...m,
            result: { ...m.result, tools: m.result.tools.filter((t: Body) => !/render$/.test(t.name)) },
          }))
        : res,
  },
  {
    id: "mcp-required-args-dropped",
    decision: "D-MCP-TOOL-ARGS",
    breaks: "Each tool requires its documented arguments",
    expect: "mcp-tool-catalogue",
    response: (q, res) =>
      isMcp(q) && methodOf(q) === "tools/list"
        ? rewrite(res, (m) => ({
            ...m,
            result: {
              ...m.result,
              tools: m.result.tools.map((t: Body) =>
                /get_dataset$/.test(t.name) ? { ...t, inputSchema: { ...t.inputSchema, required: [] } } : t,
              ),
            },
          }))
        : res,
  },
  {
    id: "mcp-readonly-hint-missing",
    decision: "D-MCP-ANNOTATIONS",
    breaks: "Read tools are annotated readOnlyHint",
    expect: "mcp-tool-catalogue",
    response: (q, res) =>
      isMcp(q) && methodOf(q) === "tools/list"
        ? rewrite(res, (m) => ({
            ...m,
            result: { ...m.result, tools: m.result.tools.map(({ annotations: _a, ...t }: Body) => t) },
          }))
        : res,
  },
  {
    id: "mcp-tool-error-structured",
    decision: "D-MCP-TOOL-ERROR",
    breaks: "A tool error carries no structuredContent",
    expect: "mcp-tool-error-shape",
    response: (q, res) => (isMcp(q) && toolOf(q) ? toolError(res, (e, r) => ({ ...r, structuredContent: e })) : res),
  },
  {
    id: "mcp-tool-error-generic-code",
    decision: "D-MCP-TOOL-ERROR",
    breaks: "A tool error's code is the REST twin's error_code",
    expect: "mcp-tool-error-shape",
    response: (q, res) =>
      isMcp(q) && toolOf(q)
        ? toolError(res, (e, r) => ({
            ...r,
            content: [
              {
                type: "text",
                text: JSON.stringify({
                  error: { ...e.error, code: e.error?.status === 404 ? "not_found" : e.error?.code },
                }),
              },
            ],
          }))
        : res,
  },
  {
    id: "mcp-tool-error-plain-text",
    rows: ["mcp.tool-errors", "mcp.get-dataset"],
    breaks: "A tool error is {error: {code, message, status}}",
    expect: "mcp-tool-error-shape",
    response: (q, res) =>
      isMcp(q) && toolOf(q)
        ? toolError(res, (e, r) => ({ ...r, content: [{ type: "text", text: e?.error?.message ?? "Not found." }] }))
        : res,
  },
  {
    id: "mcp-bad-arguments-500",
    rows: ["mcp-auth.transport-vs-tool-errors"],
    breaks: "Bad tool arguments never give a transport 5xx",
    expect: "mcp-bad-arguments-tool-error",
    response: (q, res) => {
      if (!isMcp(q) || !toolOf(q)) return res;
      const m = messageOf(res);
      return m?.result?.isError && /unprocessable_entity/.test(m.result.content?.[0]?.text ?? "")
        ? json(
            res,
            { status: "server_error", error_code: "internal_server_error", detail: "boom", transient: true },
            500,
          )
        : res;
    },
  },
  {
    id: "mcp-bad-arguments-succeed",
    rows: ["mcp.list-mentions", "mentions.limit", "mentions.filters.at-most-10", "mcp.ask"],
    breaks: "Bad tool arguments are a tool error, not a success",
    expect: "mcp-bad-arguments-tool-error",
    response: (q, res) =>
      isMcp(q) && toolOf(q)
        ? toolError(res, (e, r) =>
            e?.error?.status === 422 ? { content: [{ type: "text", text: "{}" }], isError: false } : r,
          )
        : res,
  },
  {
    id: "mcp-list-duplicates-across-pages",
    rows: ["mcp.list-cursor", "pagination.cursor-walk"],
    breaks: "A list tool's cursor walk returns each item once",
    expect: "mcp-list-cursor-walk",
    response: (q, res, s) => {
      const tool = toolOf(q);
      if (!isMcp(q) || !tool?.includes("list_datasets")) return res;
      const prev = s.memo.get("mcp-last-item");
      const args = rpcOf(q)?.params?.arguments ?? {};
      return payload(res, (p) => {
        if (!Array.isArray(p?.content)) return p;
        s.memo.set("mcp-last-item", p.content.at(-1));
        return args.cursor && prev ? { ...p, content: [prev, ...p.content.slice(0, -1)] } : p;
      });
    },
  },
  {
    id: "mcp-list-end-cursor-set",
    rows: ["mcp.list-cursor"],
    breaks: "A list tool's last page has cursor null",
    expect: "mcp-list-cursor-walk",
    response: (q, res) =>
      isMcp(q) && toolOf(q)?.includes("list_")
        ? payload(res, (p) => (p && p.cursor === null ? { ...p, cursor: "ZW5k" } : p))
        : res,
  },
  {
    id: "mcp-invalid-cursor-ignored",
    decision: "D-MCP-PAGING",
    breaks: "A garbage cursor is ToolError invalid_cursor",
    expect: "mcp-list-cursor-walk",
    request: (q) => {
      const m = rpcOf(q);
      const c = m?.params?.arguments?.cursor;
      if (!isMcp(q) || m?.method !== "tools/call" || typeof c !== "string" || !/^(Zm9vYmFy|!!)/.test(c)) return q;
      const { cursor: _c, ...args } = m.params.arguments;
      return { ...q, body: JSON.stringify({ ...m, params: { ...m.params, arguments: args } }) };
    },
  },
  {
    id: "mcp-get-dataset-stale",
    rows: ["mcp.get-dataset"],
    breaks: "svc__get_dataset returns what GET /v1/datasets/{id} returns",
    expect: "mcp-rest-agreement",
    response: (q, res) =>
      isMcp(q) && toolOf(q)?.endsWith("get_dataset")
        ? payload(res, (p) => ({ ...p, mentions_count: (p?.mentions_count ?? 0) + 1 }))
        : res,
  },
  {
    id: "mcp-list-datasets-reordered",
    decision: "D-MCP-PAGING",
    breaks: "svc__list_datasets lists what GET /v1/datasets lists, in order",
    expect: "mcp-rest-agreement",
    response: (q, res) =>
      isMcp(q) && toolOf(q)?.endsWith("list_datasets")
        ? payload(res, (p) =>
            Array.isArray(p?.content) && p.content.length > 1 ? { ...p, content: [...p.content].reverse() } : p,
          )
        : res,
  },
  {
    id: "mcp-mentions-ignore-sort",
    rows: ["mcp.list-mentions"],
    breaks: "svc__list_mentions applies sort like REST",
    expect: "mcp-rest-agreement",
    request: (q) => {
      const m = rpcOf(q);
      if (!isMcp(q) || !m?.params?.name?.endsWith("list_mentions") || !m.params.arguments?.sort) return q;
      const { sort: _s, ...args } = m.params.arguments;
      return { ...q, body: JSON.stringify({ ...m, params: { ...m.params, arguments: args } }) };
    },
  },
  {
    id: "mcp-pdr-result-drops-pattern",
    rows: ["mcp.get-pattern-detection-run"],
    breaks: "svc__get_pattern_detection_run carries pattern_id once completed",
    expect: "mcp-rest-agreement",
    response: (q, res) =>
      isMcp(q) && toolOf(q)?.endsWith("get_pattern_detection_run")
        ? payload(res, ({ pattern_id: _p, ...p }) => p)
        : res,
  },
  {
    id: "mcp-read-tools-charge",
    rows: ["mcp.tools"],
    breaks: "Read tools charge nothing",
    expect: "mcp-read-tools-free",
    response: (q, res, s) => {
      if (isMcp(q) && toolOf(q) && toolOf(q) !== "svc__ask")
        s.memo.set("mcp-read-charge", memoNumber(s, "mcp-read-charge") - 0.001);
      return mcpShift(q, res, s);
    },
  },
  {
    id: "mcp-ask-answers-completed",
    rows: ["mcp.ask"],
    breaks: "svc__ask answers status working at once",
    expect: "mcp-ask-flow",
    response: (q, res) =>
      isMcp(q) && toolOf(q) === "svc__ask" ? payload(res, (p) => ({ ...p, status: "completed" })) : res,
  },
  {
    // (the long poll answers once the turn settles, so a "working" answer is rarely seen: the finished side is checked)
    id: "mcp-stop-reason-null-when-done",
    rows: ["assistant-turn.mcp-stop-reason"],
    breaks: "stop_reason is non-null once the turn has finished",
    expect: "mcp-ask-flow",
    response: (q, res) =>
      isMcp(q) && toolOf(q) === "svc__get_message"
        ? payload(res, (p) => (p?.status === "completed" ? { ...p, stop_reason: null } : p))
        : res,
  },
  {
    id: "mcp-text-block-without-text",
    rows: ["mcp.blocks"],
    breaks: "A render: false block carries its markdown text",
    expect: "mcp-ask-flow",
    response: (q, res) =>
      isMcp(q) && toolOf(q) === "svc__get_message"
        ? payload(res, (p) =>
            Array.isArray(p?.blocks) ? { ...p, blocks: p.blocks.map(({ text: _t, ...b }: Body) => b) } : p,
          )
        : res,
  },
  {
    id: "mcp-rate-limit-separate-bucket",
    rows: ["rate-limit.per-key"],
    breaks: "REST and MCP share one rate-limit bucket per key",
    expect: "mcp-rate-limit-shared",
    response: async (q, res, s) => {
      let r = res;
      for (let i = 0; isMcp(q) && i < 20 && r.status === 429; i++) {
        await new Promise((w) => setTimeout(w, 250));
        r = await s.forward(q);
      }
      return r;
    },
  },
  {
    id: "mcp-429-as-tool-error",
    rows: ["mcp-auth.transport-vs-tool-errors"],
    breaks: "An MCP 429 is a transport error, not a tool result",
    expect: "mcp-rate-limit-shared",
    response: (q, res) => {
      if (!isMcp(q) || res.status !== 429) return res;
      const id = rpcOf(q)?.id;
      return json(
        { ...res, headers: { ...res.headers } },
        {
          jsonrpc: "2.0",
          id,
          result: {
            isError: true,
            content: [
              {
                type: "text",
                text: JSON.stringify({ error: { code: "too_many_requests", message: "Slow down.", status: 429 } }),
              },
            ],
          },
        },
        200,
      );
    },
  },
];
