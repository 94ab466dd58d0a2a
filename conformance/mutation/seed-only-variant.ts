// The seed-only variant of the reference: a foreign deployment built from the
// seed alone. Wherever the seed leaves a point open (a D- row of
// spec/DECISIONS.md whose seed column says "not shown", "not stated" or gives
// two readings) it takes another reasonable choice than the contract, as far
// as a proxy in front of the reference can show it; every other open row is in
// `notVaried` with the reason. On top of the re-decided rows (deviations.ts)
// it varies, derived from the seed and the contract (open-points.ts):
//   - every error code whose status the seed does not show answers another
//     status (status:*), over REST and in MCP tool errors;
//   - every request field the seed does not call required may be left out
//     (optional:*; filled from the contract's default, enum or example);
//   - extra fields wherever no "only"/"absent" sentence of the seed closes a
//     response (CLOSED_BY; unjudged where the contract's schemas are open);
// and, by hand:
//   - a dataset run's count capped below requested_count (count-capped);
//   - two distinct post URLs of a URL run giving one post (urls-share-posts);
//   - pipelines that finish at once (0 ms steps) and slow ones (PIPELINE_MS);
//   - a 413 answered before authentication from Content-Length alone, the
//     connection closed without reading the body (EARLY_413_BYTES);
//   - every dollar amount whose JSON form the seed leaves open as a decimal
//     string (the 402's `required`/`available` are the seed's strings anyway);
//   - request bounds the seed does not state left unbounded (an over-long
//     string or array, a number past a decided range, is accepted).
// The whole kit at --level seed passes against it with one warning per
// decision (test/deviation-mode.test.ts); at --level contract each judged
// deviation fails naming its decision.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { deviatingDeployment, deviations, type Deviation } from "./deviations.ts";
import { groupFaults } from "./faults-groups.ts";
import { mcpFaults, toolError } from "./faults-mcp.ts";
import {
  closingSentences,
  NOT_OBSERVABLE,
  operationOf,
  optionalFields,
  schemaFill,
  statusVariations,
  walkBody,
  type StatusVariation,
} from "./open-points.ts";
import {
  json,
  proxyError,
  proxyRequestOf,
  startProxy,
  type Body,
  type Fault,
  type FetchHandler,
  type ProxyRequest,
  type ProxyResponse,
  type ProxyState,
  type RunningProxy,
} from "./proxy.ts";

const P = (q: ProxyRequest) => q.url.pathname;
const is = (q: ProxyRequest, method: string, re: RegExp) => q.method === method && re.test(P(q));
const envelope = (res: ProxyResponse, status: number, code: string, detail: string) =>
  json(res, { status: "client_error", error_code: code, detail, transient: false }, status);
const reuse = (id: string): Pick<Fault, "request" | "response"> => {
  const f = [...groupFaults, ...mcpFaults].find((x) => x.id === id);
  if (!f) throw new Error(`seed-only variant: no fault ${id} in faults-groups.ts or faults-mcp.ts`);
  return { request: f.request, response: f.response };
};

/** Pipeline step delays of the two whole-kit runs: runs that finish at once, and slow ones. */
export const PIPELINE_MS = { fast: 0, slow: 100 } as const;
/** The variant's body limit (the seed states none): larger bodies are refused from Content-Length alone. */
export const EARLY_413_BYTES = 256 * 1024;

// ---- money: every amount whose JSON form the seed leaves open, as a decimal string
const str = (v: unknown) => (typeof v === "number" ? v.toFixed(6).replace(/0+$/, "").replace(/\.$/, ".0") : v);
const strings = (o: Body, keys: string[]) => {
  if (o && typeof o === "object") for (const k of keys) if (typeof o[k] === "number") o[k] = str(o[k]);
};
/** Dollars (D-MONEY-NUMBER): prices and rate, the balances, usage quantities. */
function dollarsAsStrings(path: string, d: Body): void {
  if (path === "/v1/prices") {
    strings(d, ["rate"]);
    if (d.prices) strings(d.prices, Object.keys(d.prices));
  } else if (path === "/v1/me") strings(d.usage, ["balance", "balance_used", "balance_total"]);
  else if (path === "/v1/me/usage_history" && Array.isArray(d)) for (const row of d) strings(row, ["quantity"]);
}
/** The additive credit fields (D-CREDIT-FIELDS): credit amounts and the dollars-per-credit rate. */
function creditsAsStrings(path: string, d: Body): void {
  if (path === "/v1/me") strings(d.usage, ["credits_used", "credits_total"]);
  else if (path === "/v1/me/usage_history" && Array.isArray(d))
    for (const row of d) strings(row, ["quantity_credits", "credit_rate_usd"]);
}
const onData =
  (f: (path: string, d: Body) => void) =>
  (q: ProxyRequest, res: ProxyResponse): ProxyResponse => {
    if (q.method !== "GET" || res.status !== 200 || !res.json?.data) return res;
    const d = structuredClone(res.json.data);
    f(P(q), d);
    return json(res, { ...res.json, data: d });
  };

// ---- the same representation over MCP: a tool result's payload rewritten as its REST twin
// (messageOf/rewrite/payload as in faults-mcp.ts: JSON or the last SSE `data:` event)
const rpcOf = (q: ProxyRequest): Body => {
  try {
    return q.body ? JSON.parse(q.body) : undefined;
  } catch {
    return undefined;
  }
};
const toolOf = (q: ProxyRequest): string | undefined =>
  q.method === "POST" && P(q) === "/mcp/" && rpcOf(q)?.method === "tools/call"
    ? String(rpcOf(q)?.params?.name ?? "").replace(/^.*__/, "svc__")
    : undefined;
function messageOf(res: ProxyResponse): Body {
  if (!/event-stream/.test(res.headers["content-type"] ?? "")) return res.json;
  for (const d of res.body
    .split(/\r?\n/)
    .filter((l) => l.startsWith("data:"))
    .reverse()) {
    try {
      const m = JSON.parse(d.slice(5).trim());
      if (m && typeof m === "object" && "id" in m) return m;
    } catch {
      /* keep looking */
    }
  }
  return undefined;
}
function payload(res: ProxyResponse, f: (p: Body) => void): ProxyResponse {
  const m = messageOf(res);
  const r = m?.result;
  if (!r || r.isError) return res;
  let p = r.structuredContent;
  if (p === undefined)
    try {
      p = JSON.parse(r.content?.[0]?.text ?? "null");
    } catch {
      return res;
    }
  if (!p || typeof p !== "object") return res;
  p = structuredClone(p);
  f(p);
  const next = {
    ...m,
    result: {
      ...r,
      ...(r.structuredContent !== undefined ? { structuredContent: p } : {}),
      content: [{ type: "text", text: JSON.stringify(p) }],
    },
  };
  if (/event-stream/.test(res.headers["content-type"] ?? ""))
    return { ...res, body: `event: message\ndata: ${JSON.stringify(next)}\n\n`, json: undefined };
  return json(res, next);
}
/** Applies `f` to the payload of `tool`'s results too (REST and MCP show one representation). */
const mcpToo = (q: ProxyRequest, res: ProxyResponse, tool: RegExp | string, f: (p: Body) => void) => {
  const t = toolOf(q);
  return t && (typeof tool === "string" ? t === tool : tool.test(t)) ? payload(res, f) : res;
};

// ---- extra fields where the seed does not say "only"
/**
 * What each of the seed's sentences that close a response's fields
 * (open-points.ts closingSentences) closes: the dataset create response
 * carries only its three fields; a chat has no heavier field, so a light
 * scalar one is another reading (chat-light-field, D-CHAT-FIELDS).
 */
export const CLOSED_BY: Record<string, { what: string; applies: (q: ProxyRequest) => boolean }> = {
  "The create response carries only `id`, `name`, `created_at`.": {
    what: "the dataset create response",
    applies: (q) => is(q, "POST", /^\/v1\/datasets$/),
  },
  "Heavier in-app fields are absent.": { what: "a chat", applies: (q) => is(q, "GET", CHAT_ONE) },
};
const CHAT_ONE = /^\/v1\/chats\/[^/]+$/;
const CLOSED = (q: ProxyRequest) => closingSentences().some((s) => CLOSED_BY[s]?.applies(q));
function extraFields(q: ProxyRequest, res: ProxyResponse): ProxyResponse {
  if (res.status < 200 || res.status >= 300 || !res.json || typeof res.json !== "object" || CLOSED(q)) return res;
  if (!P(q).startsWith("/v1/") || !("data" in res.json)) return res;
  const add = (o: Body) => (o && typeof o === "object" && !Array.isArray(o) ? { ...o, revision: 1 } : o);
  const data = Array.isArray(res.json.data) ? res.json.data.map(add) : add(res.json.data);
  return json(res, { ...res.json, data, request_id: `req_${Math.random().toString(36).slice(2, 10)}` });
}
/** The same extra field on the resources the read tools return (the picked run is pdr-result-extra-field's). */
const extraOnTools = (q: ProxyRequest, res: ProxyResponse) =>
  mcpToo(q, res, /^svc__(get_(?!pattern_detection_run)|list_)/, (p) => {
    if (Array.isArray(p.content)) for (const o of p.content) if (o && typeof o === "object") o.revision = 1;
    if (!Array.isArray(p.content) && !p.error) p.revision = 1;
  });

// ---- request bounds the seed does not state, left unbounded
type Kind = "maxLength" | "maxItems" | "maximum" | "minimum";
interface OpSchema {
  method: string;
  path: string;
  re: RegExp;
  body?: Body;
}
const doc = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../generated/openapi.json", import.meta.url)), "utf8"),
) as Body;
const ops: OpSchema[] = Object.entries(doc.paths as Record<string, Body>).flatMap(([path, item]) =>
  Object.entries(item as Record<string, Body>)
    .filter(([m]) => ["post", "patch", "put"].includes(m))
    .map(([m, op]) => ({
      method: m.toUpperCase(),
      path,
      re: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
      body: op.requestBody?.content?.["application/json"]?.schema,
    })),
);
const deref = (s: Body): Body => {
  for (let i = 0; s?.$ref && i < 20; i++) s = doc.components.schemas[s.$ref.split("/").pop()];
  return s;
};

const typeOf = (v: unknown) =>
  v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" ? "number" : typeof v;
/** Whether a value can be of a union's branch: its JSON type, and every single-valued enum property it carries. */
function fits(v: Body, s: Body): boolean {
  if (!s) return false;
  const types = [s.type ?? []].flat().map((t: string) => (t === "integer" ? "number" : t));
  if (types.length && !types.includes(typeOf(v))) return false;
  if (typeOf(v) !== "object" || !s.properties) return true;
  return Object.entries(s.properties as Record<string, Body>).every(([k, ps]) => {
    const e = deref(ps);
    const one = e?.const !== undefined ? [e.const] : e?.enum?.length === 1 ? e.enum : undefined;
    return !one || !(k in v) || one.includes(v[k]);
  });
}

/** The decision a request bound belongs to; undefined where the seed states the bound. */
export function boundDecision(op: string, path: string, kind: Kind): string | undefined {
  const seedStates = [
    /^(POST|PATCH) \/v1\/(audience_)?datasets(\/\{[a-z_]+\})? name$/, // name 1-255
    /^POST \/v1\/datasets\/\{dataset_id\}\/runs (search_query\.search_query|search_query\.source_urls|count|num_comments_per_post)$/,
    /^POST \/v1\/audience_datasets\/\{audience_dataset_id\}\/runs total_profile_count$/,
    /^POST \/v1\/ask context\.post_refs$/, // at most 50
    /^POST \/v1\/custom_parameters\/preview post_refs$/, // 1-5
    / filters(\[\])?$/, // at most 10 in total
  ];
  if (seedStates.some((re) => re.test(`${op} ${path}`))) return undefined;
  if (/^POST \/v1\/custom_parameters name$|^PATCH \/v1\/custom_parameters\/\{[a-z_]+\} name$/.test(`${op} ${path}`))
    return "D-CP-NAME";
  if (/ \/v1\/tracking_agents(\/\{[a-z_]+\})? name$/.test(`${op} ${path}`)) return "D-TA-NAME";
  if (/ \/v1\/tracking_agents(\/\{[a-z_]+\})? (count|num_comments_per_post)$/.test(`${op} ${path}`))
    return "D-TA-CREATE";
  if (/^POST \/v1\/pattern_detections (name|research_question)$/.test(`${op} ${path}`)) return "D-PDR-BODY";
  if (/^POST \/v1\/research_previews source_urls$/.test(`${op} ${path}`)) return "D-PREVIEW-URL-CAP";
  if (/^POST \/v1\/research_previews search_query$/.test(`${op} ${path}`)) return "D-PREVIEW-QUERY-BOUNDS";
  if (kind === "maxLength") return "D-BOUND-STRINGS";
  if (kind === "maxItems") return "D-BOUND-ARRAYS";
  return undefined; // other numeric ranges (limits, counts, depth) are the seed's or not lifted
}

/** Brings every value over a bound of `decision` back inside it (the upstream then accepts what the variant accepts). */
function liftBounds(q: ProxyRequest, decision: string): ProxyRequest {
  if (!q.body || !["POST", "PATCH", "PUT"].includes(q.method) || !P(q).startsWith("/v1/")) return q;
  const op = ops.find((o) => o.method === q.method && o.re.test(P(q)));
  if (!op?.body) return q;
  let b: Body;
  try {
    b = JSON.parse(q.body);
  } catch {
    return q;
  }
  let changed = false;
  const key = `${op.method} ${op.path}`;
  const mine = (path: string, kind: Kind) => boundDecision(key, path, kind) === decision;
  const walk = (v: Body, schema: Body, path: string): Body => {
    const s = deref(schema);
    if (!s || v === null || v === undefined) return v;
    // a union: only the branches the value can be (its JSON type, its discriminator's value)
    for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])])
      if (s.allOf || fits(v, deref(alt))) v = walk(v, alt, path);
    if (typeof v === "string" && typeof s.maxLength === "number" && v.length > s.maxLength && mine(path, "maxLength"))
      return ((changed = true), v.slice(0, s.maxLength));
    if (typeof v === "number") {
      if (typeof s.maximum === "number" && v > s.maximum && mine(path, "maximum")) return ((changed = true), s.maximum);
      if (typeof s.minimum === "number" && v < s.minimum && mine(path, "minimum")) return ((changed = true), s.minimum);
      return v;
    }
    if (Array.isArray(v)) {
      let out = v;
      if (typeof s.maxItems === "number" && v.length > s.maxItems && mine(path, "maxItems"))
        ((changed = true), (out = v.slice(0, s.maxItems)));
      return s.items ? out.map((x) => walk(x, s.items, `${path}[]`)) : out;
    }
    if (typeof v === "object" && s.properties)
      for (const [k, ps] of Object.entries(s.properties as Record<string, Body>))
        if (k in v) v[k] = walk(v[k], ps, path ? `${path}.${k}` : k);
    return v;
  };
  b = walk(b, op.body, "");
  return changed ? { ...q, body: JSON.stringify(b) } : q;
}
const unbounded = (decision: string, decides: string, unjudged?: string): Deviation => ({
  id: `unbounded:${decision.slice(2).toLowerCase()}`,
  decision,
  decides,
  ...(unjudged ? { unjudged } : {}),
  request: (q) => liftBounds(q, decision),
});

// ---- derived open points (open-points.ts): statuses the seed does not show, fields it does not require
/** The same error code at its other status in a tool error (`status` mirrors REST), content and structuredContent alike. */
const toolStatus = (res: ProxyResponse, to: (code: string, status: number) => number | undefined) =>
  toolError(res, (e, r) => {
    const code = e?.error?.code;
    const next = typeof code === "string" && typeof e.error.status === "number" ? to(code, e.error.status) : undefined;
    if (next === undefined) return r;
    const body = { ...e, error: { ...e.error, status: next } };
    return {
      ...r,
      ...(r.structuredContent !== undefined ? { structuredContent: body } : {}),
      content: [{ type: "text", text: JSON.stringify(body) }, ...(r.content ?? []).slice(1)],
    };
  });

/**
 * One deviation per decision that places a code at a status the seed does
 * not show: each such code answers its other status (OTHER_STATUS) with the
 * same error envelope, over REST on the operations that decision covers and
 * in MCP tool errors.
 */
export function statusDeviations(): Deviation[] {
  const byDecision = new Map<string, Array<{ v: StatusVariation; ops: string[] }>>();
  for (const v of statusVariations().varied)
    for (const [op, d] of Object.entries(v.decisions)) {
      const list = byDecision.get(d) ?? byDecision.set(d, []).get(d)!;
      const hit = list.find((x) => x.v === v);
      if (hit) hit.ops.push(op);
      else list.push({ v, ops: [op] });
    }
  // a tool error has no REST operation: its code's first decision carries it
  const toolOwner = new Map<string, string>();
  for (const [d, list] of byDecision) for (const { v } of list) if (!toolOwner.has(v.code)) toolOwner.set(v.code, d);
  return [...byDecision].map(([decision, list]) => {
    const rest = (q: ProxyRequest, code: string, status: number) =>
      list.find(
        ({ v, ops }) =>
          v.code === code &&
          v.from === status &&
          ops.some((k) => {
            const o = operationOf(q.method, P(q));
            return !!o && `${o.method} ${o.path}` === k;
          }),
      )?.v.to;
    const tool = (code: string, status: number) =>
      toolOwner.get(code) === decision ? list.find(({ v }) => v.code === code && v.from === status)?.v.to : undefined;
    return {
      id: `status:${decision.slice(2).toLowerCase()}`,
      decision,
      // a 422 with the error envelope is D-UNPROCESSABLE's lenient reading
      names: ["D-OP-STATUSES", ...(list.some(({ v }) => v.to === 422) ? ["D-UNPROCESSABLE"] : [])],
      ...(list.every(({ v }) => NOT_OBSERVABLE[v.code])
        ? { unjudged: `not observable: ${NOT_OBSERVABLE[list[0]!.v.code]}` }
        : {}),
      decides:
        list.map(({ v }) => `${v.code} ${v.from} → ${v.to}`).join(", ") + " (same error envelope; tool errors too)",
      response: (q: ProxyRequest, res: ProxyResponse) => {
        const code = res.json?.error_code;
        const to = typeof code === "string" ? rest(q, code, res.status) : undefined;
        if (to !== undefined) return json(res, { ...res.json }, to);
        return toolOf(q) ? toolStatus(res, tool) : res;
      },
    };
  });
}

const SOURCE_HOSTS: Array<[RegExp, string]> = [
  [/(^|\.)reddit\.com$/, "reddit"],
  [/(^|\.)tiktok\.com$/, "tiktok"],
  [/(^|\.)(youtube\.com|youtu\.be)$/, "youtube"],
  [/(^|\.)instagram\.com$/, "instagram"],
  [/(^|\.)linkedin\.com$/, "linkedin"],
];
const sourceOfUrl = (url: unknown) => {
  try {
    const host = new URL(String(url)).hostname.toLowerCase();
    return SOURCE_HOSTS.find(([re]) => re.test(host))?.[1];
  } catch {
    return undefined;
  }
};
const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The value the variant puts in a left-out field (undefined: it leaves the request as it is). */
function fillValue(element: string, obj: Record<string, unknown>): unknown {
  switch (element) {
    case "Datasets.SourceUrl.source":
    case "Previews.PreviewSourceUrl.source":
      return sourceOfUrl(obj.url);
    case "Datasets.DateRange.from":
      return typeof obj.to === "string" && !Number.isNaN(Date.parse(obj.to))
        ? isoDay(Date.parse(obj.to) - 365 * DAY_MS)
        : undefined;
    case "Datasets.DateRange.to":
      return isoDay(Date.now());
    default:
      return structuredClone(schemaFill(element)?.value);
  }
}

/** Optional fields no check leaves out (its negative cases remove top-level fields and a tagged union's own). */
const OPTIONAL_UNJUDGED: Record<string, string> = {
  "D-AUD-PROFILE-FILTERS": "no check leaves a field out of a profile filter (inside the filters' arrays)",
  "D-RUN-SOURCE-URL": "no check leaves `source` out of a source_urls item (inside an array)",
  "D-PREVIEW-URL-ITEM": "no check leaves `source` out of a preview's source_urls item (inside an array)",
};
const AUD_PATCH = /^\/v1\/audience_datasets\/[^/]+$/;
const withoutBodyHeaders = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).filter(([k]) => !["content-type", "content-length"].includes(k)));
/**
 * One deviation per decision that requires a request field the seed does not
 * call required: a request without it is served as if it carried the value
 * open-points.ts derives (default, only value, every value, empty string,
 * the contract's example, or a rule of FILL_RULES). An audience dataset
 * PATCH without `name` reads the current audience dataset.
 */
export function optionalDeviations(): Deviation[] {
  const varied = optionalFields().filter((x) => x.varied);
  return [...new Set(varied.map((x) => x.decision))].map((decision) => {
    const mine = new Set(varied.filter((x) => x.decision === decision).map((x) => x.element));
    const unjudged = OPTIONAL_UNJUDGED[decision];
    return {
      id: `optional:${decision.slice(2).toLowerCase()}`,
      decision,
      ...(unjudged ? { unjudged } : {}),
      decides: `${[...mine].map((e) => e.split(".").slice(-2).join(".")).join(", ")} may be left out`,
      request: (q: ProxyRequest) => {
        if (!["POST", "PATCH", "PUT"].includes(q.method) || !P(q).startsWith("/v1/")) return q;
        let b: Body;
        try {
          b = q.body ? JSON.parse(q.body) : {};
        } catch {
          return q;
        }
        if (mine.has("Audiences.UpdateAudienceDatasetBody.name") && q.method === "PATCH" && AUD_PATCH.test(P(q)))
          return b && typeof b === "object" && !Array.isArray(b) && !("name" in b)
            ? { ...q, method: "GET", body: undefined, headers: withoutBodyHeaders(q.headers) }
            : q;
        const op = operationOf(q.method, P(q));
        if (!op?.body || !q.body) return q;
        let changed = false;
        walkBody(b, op.body, (element, s, obj) => {
          for (const k of s.required ?? []) {
            if (k in obj || !mine.has(`${element}.${k}`)) continue;
            const v = fillValue(`${element}.${k}`, obj);
            if (v !== undefined) ((obj[k] = v), (changed = true));
          }
        });
        return changed ? { ...q, body: JSON.stringify(b) } : q;
      },
    };
  });
}

// ---- dataset runs capped below what they ask for, and URLs that share a post
/** The variant's plan.limits.max_research_depth: the most results one dataset run collects. */
export const RESEARCH_DEPTH = 25;
const RUNS = /^\/v1\/datasets\/[^/]+\/runs$/;
const RUN_ONE = /^\/v1\/datasets\/[^/]+\/runs\/[^/]+$/;
/** The header naming the memo entry that keeps a rewritten run body as the client sent it. */
const ASKED = "x-slk-variant-asked";
let askedSeq = 0;
/** Keeps the body as the client sent it (once, before the first rewrite) and names it in a header. */
function keepAsked(q: ProxyRequest, s: ProxyState): ProxyRequest {
  if (q.headers[ASKED]) return q;
  let b: Body;
  try {
    b = JSON.parse(q.body ?? "");
  } catch {
    return q;
  }
  const key = `asked#${++askedSeq}`;
  s.memo.set(key, b);
  return { ...q, headers: { ...q.headers, [ASKED]: key } };
}
const askedOf = (q: ProxyRequest, s: ProxyState): Body => (q.headers[ASKED] ? s.memo.get(q.headers[ASKED]) : undefined);
const withBody = (q: ProxyRequest, f: (b: Body) => boolean): ProxyRequest => {
  let b: Body;
  try {
    b = JSON.parse(q.body ?? "");
  } catch {
    return q;
  }
  return b && typeof b === "object" && f(b) ? { ...q, body: JSON.stringify(b) } : q;
};
/** A run's params echo the request as asked (the seed: "echo of request"), whatever the variant collected. */
const echoAsked = (s: ProxyState, run: Body) => {
  const asked = s.memo.get(`asked-run:${run?.id}`) as Body;
  if (!asked || !run?.params || typeof run.params !== "object") return;
  run.params.count = asked.count ?? 200;
  if (asked.search_query !== undefined) run.params.search_query = asked.search_query;
};

/**
 * A dataset run collects at most RESEARCH_DEPTH results: a larger `count`
 * (given or the default 200) is capped, not refused; the create answer shows
 * `count` = the cap and `requested_count` = what was asked, the run's params
 * echo what was asked (as they do the URLs urls-share-posts rewrites), and
 * GET /v1/me shows the cap as plan.limits.max_research_depth. A 402 is sized
 * by the capped count (D-402-AMOUNTS takes the run's `count`).
 */
const countCapped: Deviation = {
  id: "count-capped",
  decision: "D-RUN-COUNT",
  names: ["D-402-AMOUNTS"],
  decides: `a dataset run's count is capped at plan.limits.max_research_depth (${RESEARCH_DEPTH}); requested_count keeps what was asked, and a 402 is sized by the capped count`,
  request: (q, s) => {
    if (!is(q, "POST", RUNS)) return q;
    const kept = keepAsked(q, s);
    return withBody(kept, (b) => {
      const c = b.count === undefined ? 200 : b.count;
      if (!Number.isInteger(c) || c < 20 || c > 1000 || c <= RESEARCH_DEPTH) return false;
      b.count = RESEARCH_DEPTH;
      return true;
    });
  },
  response: (q, res, s) => {
    const asked = askedOf(q, s);
    if (is(q, "POST", RUNS) && asked && res.status === 202 && res.json?.data) {
      s.memo.set(`asked-run:${res.json.data.id}`, asked);
      return json(res, { ...res.json, data: { ...res.json.data, requested_count: asked.count ?? 200 } });
    }
    if ((is(q, "GET", RUNS) || is(q, "GET", RUN_ONE)) && res.status === 200 && res.json?.data) {
      const data = structuredClone(res.json.data);
      for (const run of [data].flat()) echoAsked(s, run);
      return json(res, { ...res.json, data });
    }
    if (is(q, "GET", /^\/v1\/me$/) && res.status === 200 && res.json?.data?.plan?.limits)
      return json(res, {
        ...res.json,
        data: {
          ...res.json.data,
          plan: {
            ...res.json.data.plan,
            limits: { ...res.json.data.plan.limits, max_research_depth: RESEARCH_DEPTH },
          },
        },
      });
    const t = toolOf(q);
    if (t?.endsWith("get_dataset_run")) return mcpToo(q, res, /get_dataset_run$/, (p) => echoAsked(s, p));
    if (t?.endsWith("get_me"))
      return mcpToo(q, res, /get_me$/, (p) => {
        if (p.plan?.limits) p.plan.limits.max_research_depth = RESEARCH_DEPTH;
      });
    return res;
  },
};

/** A post URL of each source (the deployment reads the post id out of these); other URLs are profiles or pages. */
const POST_URL: Record<string, RegExp> = {
  reddit: /\/comments\/[a-z0-9]+/i,
  tiktok: /\/video\/\d+/,
  youtube: /[?&]v=|youtu\.be\//,
  instagram: /\/(p|reel)\/[\w-]+/,
  linkedin: /\/feed\/update\//,
};
/**
 * Distinct URLs may give one post: in a URL run, every second post URL of a
 * source resolves to the post of the one before it (the first time the
 * variant meets a URL it decides which post it gives, and keeps to it), so a
 * run of n post URLs of one source collects about n/2 posts.
 */
const urlsSharePosts: Deviation = {
  id: "urls-share-posts",
  decision: "D-URL-POST",
  decides: "in a URL run, every second post URL of a source gives the post of the URL before it",
  unjudged:
    "no check may judge it: pools and charges are read from what the deployment reports (mentions_count, the posts it lists, its charge)",
  request: (q, s) =>
    is(q, "POST", RUNS)
      ? withBody(keepAsked(q, s), (b) => {
          const urls = b.search_query?.type === "url" ? b.search_query.source_urls : undefined;
          if (!Array.isArray(urls)) return false;
          let changed = false;
          const last = new Map<string, string>();
          const nth = new Map<string, number>();
          for (const [i, u] of urls.entries()) {
            if (!u || typeof u.url !== "string" || !POST_URL[u.source]?.test(u.url)) continue;
            const n = nth.get(u.source) ?? 0;
            nth.set(u.source, n + 1);
            const key = `post-of:${u.url}`;
            // the second of each pair of post URLs of a source takes the first one's post, once and for all
            if (!s.memo.has(key)) s.memo.set(key, (n % 2 === 1 && last.get(u.source)) || u.url);
            const to = s.memo.get(key) as string;
            if (n % 2 === 0) last.set(u.source, to);
            if (to !== u.url) ((urls[i] = { ...u, url: to }), (changed = true));
          }
          return changed;
        })
      : q,
};

const TA_ONE = /^\/v1\/tracking_agents\/[^/]+$/;

/** The deviations of the variant that deviations.ts does not already make. */
export const variantDeviations: Deviation[] = [
  // ---- transport: a small body limit answered before authentication (replaces body-limit-400)
  {
    id: "early-413-before-auth",
    decision: "D-BODY-LIMIT",
    names: ["D-ERROR-CODES"],
    decides: `a body over ${EARLY_413_BYTES} bytes (Content-Length) answers 413 request_entity_too_large before authentication, without RateLimit-* headers, and closes the connection unread`,
    // applied by the front server of startSeedOnlyVariant (it needs the socket)
  },
  // ---- money forms
  {
    id: "money-as-strings",
    decision: "D-MONEY-NUMBER",
    decides:
      "every dollar amount whose form the seed leaves open (prices, rate, balances, usage quantities) is a decimal string, like the 402 amounts",
    response: (q, res) =>
      mcpToo(q, onData(dollarsAsStrings)(q, res), "svc__get_me", (p) => dollarsAsStrings("/v1/me", p)),
  },
  {
    id: "credits-as-strings",
    decision: "D-CREDIT-FIELDS",
    decides: "the additive credit amounts and credit_rate_usd are decimal strings, like prices_credits",
    response: (q, res) =>
      mcpToo(q, onData(creditsAsStrings)(q, res), "svc__get_me", (p) => creditsAsStrings("/v1/me", p)),
  },
  // ---- extra fields (the contract's schemas are open: nothing differs from the contract)
  {
    id: "extra-fields",
    decision: "(none)",
    decides:
      "success envelopes carry request_id and every resource object revision, except the dataset create response and chats (the seed's 'only' and 'absent')",
    unjudged: "the contract's response schemas admit extra fields; a finding here would be the kit's own mistake",
    response: (q, res) => extraOnTools(q, extraFields(q, res)),
  },
  {
    id: "chat-light-field",
    decision: "D-CHAT-FIELDS",
    decides: "a chat also carries a light scalar field (revision); the seed rules out heavier in-app fields only",
    response: (q, res) =>
      is(q, "GET", CHAT_ONE) && res.status === 200 && res.json?.data && typeof res.json.data === "object"
        ? json(res, { ...res.json, data: { ...res.json.data, revision: 1 } })
        : res,
  },
  {
    id: "pdr-result-extra-field",
    decision: "D-MCP-PDR-RESULT",
    decides: "svc__get_pattern_detection_run also answers a field beyond {run_id, status, pattern_id} (revision)",
    response: (q, res) =>
      mcpToo(q, res, "svc__get_pattern_detection_run", (p) => {
        if (!p.error) p.revision = 1;
      }),
  },
  // ---- dataset runs: capped counts, URLs that share a post
  countCapped,
  urlsSharePosts,
  // ---- bounds the seed does not state
  unbounded("D-BOUND-STRINGS", "request strings are unbounded except search_query (1-5000) and names (1-255)"),
  unbounded("D-BOUND-ARRAYS", "request arrays are unbounded except those the seed caps (URLs, post_refs, filters)"),
  unbounded("D-CP-NAME", "a custom parameter name has no maximum length"),
  unbounded("D-TA-NAME", "a tracking agent name has no maximum length"),
  unbounded("D-TA-CREATE", "a tracking agent's count and num_comments_per_post are not bounded"),
  unbounded("D-PDR-BODY", "a pattern detection's name and research_question have no maximum length"),
  unbounded(
    "D-PREVIEW-URL-CAP",
    "a URL preview takes any number of URLs",
    "no check sends more than 100 URLs to a preview (invalid-request-rejected does not cross bounds inside the preview body's union)",
  ),
  unbounded(
    "D-PREVIEW-QUERY-BOUNDS",
    "a preview's search_query has no maximum length",
    "no check sends an over-long preview search_query (invalid-request-rejected does not cross bounds inside the preview body's union)",
  ),
  // ---- more open points decided otherwise
  {
    id: "audience-run-404-own-code",
    decision: "D-AUD-RUN-404",
    decides: "an unknown run of a visible audience dataset answers 404 audience_dataset_not_found",
    lenient: true,
    response: (q, res) =>
      is(q, "GET", /^\/v1\/audience_datasets\/[^/]+\/runs\/[^/]+$/) &&
      res.status === 404 &&
      res.json?.error_code === "not_found"
        ? envelope(res, 404, "audience_dataset_not_found", "No such audience run.")
        : res,
  },
  {
    id: "pattern-item-404-not-found",
    decision: "D-PATTERN-ITEM-404",
    decides: "an unknown item of a visible pattern answers 404 not_found",
    lenient: true,
    // only under a pattern the caller can read (an unknown pattern keeps pattern_not_found)
    response: async (q, res, s) =>
      is(q, "GET", /^\/v1\/patterns\/[^/]+\/items\/[^/]+$/) &&
      res.status === 404 &&
      (
        await s.forward({
          ...q,
          path: P(q).replace(/\/items\/[^/]+$/, ""),
          url: new URL(P(q).replace(/\/items\/[^/]+$/, ""), q.url),
        })
      ).status === 200
        ? envelope(res, 404, "not_found", "No such pattern item.")
        : res,
  },
  {
    id: "paused-agent-keeps-next-slot",
    decision: "D-TA-NEXT-RUN",
    decides: "a paused agent still shows its next schedule slot in next_run_at",
    response: (q, res) =>
      is(q, "GET", TA_ONE) && res.json?.data?.paused === true && res.json.data.next_run_at === null
        ? json(res, { ...res.json, data: { ...res.json.data, next_run_at: res.json.data.created_at + 86400 } })
        : res,
  },
  {
    id: "unknown-scope-nothing-to-analyze",
    decision: "D-CPR-SCOPE-404",
    decides: "a custom parameter run over an unknown dataset is an empty scope: 400 nothing_to_analyze",
    ...reuse("cp-run-unknown-dataset-400"),
  },
  {
    id: "mcp-tool-error-structured",
    decision: "D-MCP-TOOL-ERROR",
    decides: "a tool error also carries its ToolError as structuredContent",
    ...reuse("mcp-tool-error-structured"),
  },
  {
    id: "mcp-bad-cursor-first-page",
    decision: "D-MCP-PAGING",
    decides: "a list tool given a cursor it cannot read starts from the first page",
    ...reuse("mcp-invalid-cursor-ignored"),
  },
  // ---- derived (open-points.ts): fields the seed does not require; statuses it does not show (last, so
  // every answer above, the reused faults' included, is seen at its other status)
  ...optionalDeviations(),
  ...statusDeviations(),
];

/**
 * Deviations of deviations.ts the variant replaces: body-limit-400 by the
 * early 413, prices-as-strings by money-as-strings, and the hand-picked
 * statuses (domain-refusals-422, conflicts-400, cursor-422) by the derived
 * status:* deviations, which cover every code whose status the seed does not show.
 */
export const REPLACED = ["body-limit-400", "prices-as-strings", "domain-refusals-422", "conflicts-400", "cursor-422"];
/** The seed-only variant: the deviations of deviations.ts it keeps and the variant's own. */
export const seedOnlyVariant: Deviation[] = [
  ...deviations.filter((d) => !REPLACED.includes(d.id)),
  ...variantDeviations,
];

/**
 * Open rows the variant does not vary, each with the reason. Rows the seed
 * settles itself, the kit's own rules (D-KIT-*) and the reference's own choices
 * (D-REF-*, not checked) are classified by `reasonNotVaried` instead.
 */
export const notVaried: Record<string, string> = {
  "D-PAGE-FILL": "would need a second implementation: short pages before the end of a list",
  "D-MCP-ANNOTATIONS":
    "not varied yet: dropping readOnlyHint from tools/list is a proxy rewrite of the MCP stream left for a later round",
  "D-MCP-ASK-CHAT": "would need a second implementation: an MCP turn that does not read over REST as a chat",
  "D-MCP-GET-ME":
    "no other reasonable choice a proxy can show without breaking the seed's 'same capabilities' over MCP",
  "D-AUD-RUN-COUNTS": "no other reasonable choice: target_profile_count echoes total_profile_count the seed bounds",
  "D-PREVIEW-BODY-TYPES": "no other reasonable choice: the preview body mirrors the dataset run body the seed types",
  "D-PREVIEW-URL-RESULT":
    "would need a second implementation: a URL result without preview_id cannot be re-read, which the seed says it can",
  "D-RUN-404":
    "not varied: a REST-only code makes svc__get_dataset_run's tool error disagree (mcp-tool-error-shape compares codes); the tool would need the same rewrite, which needs the dataset's visibility under a bearer token",
  "D-MESSAGE-404":
    "not varied: a REST-only code makes svc__get_message's tool error disagree (mcp-tool-error-shape compares codes); see D-RUN-404",
  "D-MONEY-STRING": "the seed fixes it: the 402 required/available are US-dollar decimal strings (kept)",
  "D-UNNAMED-STATUS": "varied by early-413-before-auth: the kit names D-BODY-LIMIT for that answer",
  "D-URL-FORMAT": "not varied in this round: relative links (a dataset's web-app url) would be a candidate",
  "D-NON-NEGATIVE": "no other reasonable choice: a negative count or timestamp",
  "D-MEDIA-SHAPE": "would need a second implementation: media objects come from the provider's posts",
  "D-ERROR-DETAIL": "would need a second implementation: a structured detail on every error of the upstream",
  "D-LANGUAGE-TAG": "not observable through a proxy: languages come from the provider's posts",
  "D-REFERENCE-TYPES": "no other reasonable choice: start_index/end_index slice the text, so they are integers",
  "D-RUN-STEP-NAMES": "no other reasonable choice: the seed names the three steps",
  "D-NUMERIC-STRING": "would need a second implementation: the analyser writes the numeric strings",
  "D-MENTION-INNER-TYPES": "no other reasonable choice: the seed gives the inner fields as strings and integers",
  "D-ASK-MESSAGE": "would need a second implementation: accepting an empty message needs a turn over nothing",
  "D-CP-LIST":
    "would need a second implementation: a plain array breaks cursor pagination the kit walks; see D-LIST-ENVELOPE",
  "D-TA-LIST":
    "would need a second implementation: a plain array breaks cursor pagination the kit walks; see D-LIST-ENVELOPE",
  "D-LIST-ENVELOPE":
    "would need a second implementation: 'array of …' as a bare array drops has_next/cursor the seed's Pagination rule asks of every list",
  "D-PDR-STATES":
    "not observable in both pipelines: at 0 ms a detection is completed on the first read, so a renamed middle state shows only in the slow run",
  "D-TAR-STATES":
    "not observable through a proxy: an agent run has no read endpoint (trigger answers the seed's in_progress)",
  "D-RUN-TRANSITIONS": "no other reasonable choice: the seed fixes the order pending → working → completed | failed",
  "D-PLAN-GATE": "not observable: the kit is given no key of a plan without api_access",
  "D-MCP-PLAN-GATE": "not observable: the kit is given no key of a plan without mcp",
  "D-KEY-PREFIX": "not observable: keys are opaque to the kit",
  "D-KEY-ROTATION": "not observable through a proxy: revocation happens in the web app",
  "D-TRIAL-RATE": "not observable: no trial key",
  "D-LEGACY-ACTIONS": "not observable: legacy actions are not on the REST surface",
  "D-WEBHOOKS": "not observable: events are out of the contract",
  "D-OAUTH": "no other reasonable choice for the header (the seed gives it); the document is D-MCP-OAUTH-METADATA",
  "D-MCP-OAUTH-METADATA":
    "would need a second implementation: a document without authorization_servers leaves the kit's bearer flow nothing to follow",
  "D-MCP-OAUTH-OUT": "not observable: token endpoints are out of the contract",
  "D-PLAN-LIMITS":
    "varied only as count-capped needs it (max_research_depth 25 on every plan); plan-by-plan values are the deployment's data, not checked beyond the seats",
  "D-NUMBER-WIDTH": "no other reasonable choice observable through JSON: every value the reference sends fits int32",
  "D-SERVERS": "not observable through a proxy: the document's servers entry is not judged",
  "D-422-EXAMPLES": "not observable: examples are documentation",
  "D-422":
    "no other reasonable choice: the seed gives the validation body; a loc naming another field is a fault, not a choice",
  "D-DOMAIN-422":
    "no other reasonable choice: the seed's codes are error_code values, which only the error envelope carries",
  "D-RUN-422": "no other reasonable choice: the two bodies are D-422 and D-DOMAIN-422",
  "D-CHAT-ORDER": "not judged: the kit always passes order explicitly, so an ascending default shows no difference",
  "D-RATE-WINDOW":
    "would need a second implementation: a sliding window changes when 429s fall, which a proxy cannot re-time",
  "D-TRANSPORT-ERRORS":
    "would need a second implementation: answers of the HTTP layer before routing come from the server",
  "D-OPTIONAL-BODY":
    "no other reasonable choice: the seed says an empty PATCH body is a no-op and every mentions field is optional",
  "D-USAGE-SIGN":
    "would need a second implementation: separate negative refund rows need the ledger to write reservations and refunds",
  "D-RUN-ACTIONS-DEFAULT": "not judged: no check compares the default analysis actions",
  "D-RUN-PARAMS-ECHO": "not judged: null vs absent in the echo is accepted without a finding",
  "D-RUN-COUNT": "not judged: count vs requested_count is accepted without a finding",
  "D-GET-BODY":
    "no other reasonable choice a proxy can show: ignoring a body instead of judging it would mean reading any size before answering",
  "D-DATASET-DELETED-REFS":
    "not another reading of the seed: an agent keeping a deleted dataset is the defect fault deleted-dataset-kept-by-agent covers",
  "D-RUN-RESERVATION":
    "would need a second implementation: the amount held while a run is in flight is the upstream's ledger, shown only through its balance",
  "D-RUN-PROGRESS": "no other reasonable choice: counters that shrink or a pending run that counts results",
  "D-MENTION-ANALYSIS-NULL":
    "would need a second implementation: omitting analysis fields changes every mention the checks read",
  "D-MENTION-AUTHOR": "would need a second implementation: the author nullability comes from the provider's posts",
  "D-MENTION-PARAMETERS":
    "no other reasonable choice a proxy can make: custom_parameters instead of parameters needs the values the upstream stores",
  "D-PARAM-VALUE-STATUS": "would need a second implementation: other value states need another extractor lifecycle",
  "D-PATTERN-ASSIGNMENTS-KEY":
    "would need a second implementation: keying by item id must be consistent across mentions, patterns and items",
  "D-MENTIONS-SORT-DEFAULT": "would need a second implementation: another default sort must hold across cursor pages",
  "D-FILTER-TOTAL": "no other reasonable choice: the seed caps the filters at 10 in total",
  "D-METRIC-CHANGE-OPERATOR":
    "would need a second implementation: another operator shape must be understood by the mention search",
  "D-AUD-RUN-400": "no other reasonable choice: the seed gives the three codes with 400",
  "D-AUD-OCEAN": "would need a second implementation: other personality fields come from the profile builder",
  "D-AUD-PLATFORM-METADATA": "not judged: an open object, any keys are accepted",
  "D-AUD-PROFILE-NULLS": "would need a second implementation: nullability comes from the profile builder",
  "D-AUD-PROFILE-FILTERS": "would need a second implementation: another filter union must be understood by the search",
  "D-AUD-FILTER-CAP": "no other reasonable choice: the seed caps the filters at 10",
  "D-AUD-SORT-DEFAULT": "would need a second implementation: another default sort must hold across cursor pages",
  "D-AUD-RUN-ORDER": "would need a second implementation: the order of the run-creation checks is inside the service",
  "D-AUD-ELIGIBLE": "not judged: which posts count is accepted without a finding",
  "D-AUD-WALK": "not observable: server-internal",
  "D-AUD-PROFILE-RUN": "would need a second implementation: one profile per run needs the profile store",
  "D-AUD-CHARGE": "no other reasonable choice: the seed gives the category, units and reservation size",
  "D-AUD-RUN-STEPS": "would need a second implementation: step names are stamped by the pipeline",
  "D-AUD-DELETE-INFLIGHT":
    "would need a second implementation: refusing the delete needs the run state of the audience dataset",
  "D-AUD-RUN-AT": "would need a second implementation: the sort value lives in the profile store",
  "D-TIME-FILTER":
    "would need a second implementation: more time_filter values must be understood by the sampler (search-mode-open shows the pattern)",
  "D-PREVIEW-WINDOW": "no other reasonable choice: the seed says both, neither or an incomplete pair is 422",
  "D-PREVIEW-DATES":
    "would need a second implementation: a reversed window read as swapped changes the sample the upstream draws",
  "D-PREVIEW-URL-ITEM": "no other reasonable choice: a URL preview needs the source and the URL of each profile",
  "D-PREVIEW-POST": "would need a second implementation: headline null vs empty comes from the sampler",
  "D-PREVIEW-PROFILE": "would need a second implementation: other profile fields come from the provider",
  "D-PREVIEW-URL-LISTS":
    "would need a second implementation: listing a URL twice must agree with the charge the ledger settles",
  "D-PREVIEW-CHARGE": "no other reasonable choice: the seed gives charge = number of sources",
  "D-PREVIEW-URL-CHARGE": "no other reasonable choice: the seed gives charge = URLs returning data",
  "D-PREVIEW-SCRAPE-FAILED": "not observable: the kit cannot make the scrape itself fail",
  "D-PREVIEW-SAMPLE": "not judged: the sample's composition",
  "D-PREVIEW-ESTIMATE": "not judged: what the estimate estimates",
  "D-PDR-STEPS":
    "would need a second implementation: step names are stamped by the pipeline (a rename shows only when slow)",
  "D-PDR-EMPTY": "would need a second implementation: accepting an empty detection needs a detection over nothing",
  "D-PATTERN-SHAPE":
    "would need a second implementation: other pattern fields must stay consistent with items and mentions",
  "D-PATTERN-ITEM-SHAPE":
    "would need a second implementation: post_refs are the seed's; other fields come from the pattern",
  "D-PDR-CHECK-ORDER": "would need a second implementation: the order of the checks is inside the service",
  "D-PDR-CHARGE": "no other reasonable choice: the seed gives post_processing per post of the latest completed run",
  "D-PDR-DATASET-DELETED": "not judged: no check deletes a dataset under a running detection",
  "D-PATTERN-ASSIGNMENT-ONE": "would need a second implementation: several items per post need another clustering",
  "D-CP-LIMIT": "not observable: the kit cannot know the ceiling",
  "D-CP-INSTRUCTIONS": "no other reasonable choice: the contract leaves instructions unbounded already",
  "D-CP-PATCH": "would need a second implementation: a mutable value_type rewrites stored values",
  "D-CP-PREVIEW-MISS": "not judged: null or a value are both accepted",
  "D-CPR-UNKNOWN-RUN":
    "not observable through a proxy alone: not_found for an unknown run would also hit an unknown parameter, whose custom_parameter_not_found the seed gives",
  "D-CPR-CHECK-ORDER": "would need a second implementation: the order of the checks is inside the service",
  "D-CPR-ERROR-CHARGE":
    "would need a second implementation: charging failed posts must move the balance, the ledger and usage history together",
  "D-CPR-VISIT": "not judged: the visiting order",
  "D-TA-SCHEDULE": "no other reasonable choice: the seed shows daily and weekly only",
  "D-TA-SCHEDULE-TZ": "not observable: the kit cannot observe cycle start times",
  "D-TA-INTEGRATION":
    "would need a second implementation: other integration items come from the web app's configuration",
  "D-TA-CREATE-404": "not judged: no check creates an agent on an unknown dataset",
  "D-TA-LIMIT": "would need a second implementation: the cap is the plan's, the store counts the agents",
  "D-TA-PATCH": "would need a second implementation: fewer updatable fields need the agent store",
  "D-TA-TRIGGER-PAUSED": "not judged: a paused agent's trigger is not judged",
  "D-TA-NO-QUERIES": "would need a second implementation: which datasets count is inside the cycle",
  "D-TA-MESSAGE":
    "would need a second implementation: a summary-only feed item needs a single-message endpoint the seed does not describe",
  "D-TA-MESSAGE-SENTIMENT": "not judged: the range of a number",
  "D-TA-MESSAGES-ORDER": "no other reasonable choice: the seed says newest first",
  "D-TA-CYCLE": "would need a second implementation: what a cycle runs is inside the service",
  "D-TAR-OBSERVE": "would need a second implementation: when the alert is written is inside the cycle",
  "D-TA-ALERT-EVERY-CYCLE": "would need a second implementation: skipping empty cycles is inside the cycle",
  "D-TA-MESSAGE-COUNTS": "not judged: the meaning of the counts",
  "D-TA-PATTERN-REF": "not judged: when an alert carries a pattern",
  "D-MESSAGE-POLL": "not judged: extra fields and stop_reason values are accepted",
  "D-MESSAGE-CONTEXT": "not judged: inner context types",
  "D-ASK-CHARGE": "would need a second implementation: another charge basis must agree with the ledger",
  "D-ASK-ENTITIES": "would need a second implementation: more entity references need the assistant",
  "D-ASK-SCOPE": "would need a second implementation: a 404 for unknown context ids needs the account's datasets",
  "D-CITE-UNITS":
    "would need a second implementation: code-point indices must be recomputed over the reply the upstream writes",
  "D-CITE-ESCAPE": "would need a second implementation: unescaped bracketed numbers need the assistant's prose",
  "D-PLAN-TYPE": "not judged: an open string",
  "D-BILLING-PRECISION":
    "no other reasonable choice: precision as a string of digits is no other reading of 'precision' a client can use",
  "D-PLAN-DATE-FILTER": "not observable: the demo keys are on plans with custom_date_filter",
  "D-MCP-COMPONENTS": "not observable: how the tool schemas are emitted",
  "D-MCP-CATALOGUE": "no other reasonable choice: the seed lists the fifteen tools",
  "D-MCP-BLOCK": "would need a second implementation: another block coupling needs the assistant's blocks",
  "D-MCP-STOP-REASON": "not judged: the value is an open string",
  "D-MCP-RENDER": "would need a second implementation: another widget format",
  "D-MCP-SEARCH-ARGS": "would need a second implementation: other search arguments must be understood by the search",
  "D-MCP-FILTER-GROUPS": "no other reasonable choice: the seed caps the filters at 10",
  "D-MCP-NO-ARGS": "not judged: extra keys are accepted",
  "D-MCP-ASK-AUTH":
    "would need a second implementation: an OAuth-only ask leaves the kit's key-based ask flow nothing to run (lenient)",
  "D-MCP-307-FIRST": "no other reasonable choice: the seed gives the 307",
  "D-MCP-BEARER-SEAT": "not judged: the kit checks the account only",
  "D-MCP-BEARER-BUCKET": "not judged: the kit exercises the key's shared bucket",
  "D-MCP-RATE-HEADERS":
    "would need a second implementation: counting fewer MCP requests changes the shared bucket the upstream keeps",
  "D-MCP-UNKNOWN-TOOL": "not judged: no check calls an unknown tool",
  "D-JSON-MEDIA-TYPE":
    "not varied in this round: application/problem+json on errors would be a candidate (the kit must still read the body as JSON)",
  "D-FIELD-TYPES":
    "no other reasonable choice a proxy shows on its own: another JSON type for a field the seed names without one (a name as a number) breaks every reader; the money and credit fields are D-MONEY-NUMBER and D-CREDIT-FIELDS (varied)",
  "D-NAME-STORED":
    "not varied in this round: a name stored trimmed would be a candidate (valid-request-accepted judges it)",
  "D-BALANCE-FLOOR":
    "would need a second implementation: a negative balance needs a ledger that settles past its reservation",
  "D-MCP-TOOL-ARGS":
    "would need a second implementation: an optional id argument needs a tool that picks the resource itself",
  "D-AUD-DELETE":
    "not varied in this round: reading a deleted audience dataset by id (its retained row) would be a candidate; svc__get_audience_dataset would need the same answer",
  "D-ID-PREFIX": "no other reasonable choice: dr_ would break the seed's other prefixes; the row is lenient anyway",
  "D-TIMESTAMPS": "no other reasonable choice: the seed's per-resource table fixes each encoding",
};

/** Why a row that is neither varied nor in notVaried is not: the seed settles it, or it is the kit's or the reference's own. */
export function reasonNotVaried(id: string, kit: string): string | undefined {
  if (notVaried[id]) return notVaried[id];
  if (id.startsWith("D-KIT-")) return "the kit's own rule, not the service's";
  if (id.startsWith("D-REF-")) return "the reference's own choice, not checked";
  if (/^D-(VERSION|DIFF|RELEASE)-/.test(id)) return "the breaking-change gate's rule, not a deployment's";
  if (/not checked|not tested/i.test(kit)) return "not checked by the kit";
  return undefined;
}

/** Strict decisions the variant is judged on at --level contract (unjudged and lenient ones excluded). */
export const judgedDecisions = (list: Deviation[] = seedOnlyVariant) => [
  ...new Set(list.filter((d) => !d.lenient && !d.unjudged).map((d) => d.decision)),
];

// ---- the variant as a running deployment ---------------------------------------------------

export interface RunningVariant {
  baseUrl: string;
  proxy: RunningProxy;
  close(): Promise<void>;
}

/**
 * The variant in front of an upstream (a base URL or an in-process fetch
 * handler): the mutation proxy applying `list`, behind a front server that
 * answers the early 413 from Content-Length (when `early-413-before-auth` is
 * in the list) and otherwise hands each request to the proxy's handler.
 */
export async function startSeedOnlyVariant(
  upstream: string | FetchHandler,
  keys: Record<string, string | undefined>,
  list: Deviation[] = seedOnlyVariant,
  port = 0,
): Promise<RunningVariant> {
  const proxy = await startProxy(upstream, deviatingDeployment(list), keys);
  const early = list.some((d) => d.id === "early-413-before-auth");
  let front = "";
  const rewrite = (v: string) => v.split(proxy.baseUrl).join(front);
  const server: Server = createServer(async (req, res) => {
    const length = Number(req.headers["content-length"] ?? 0);
    if (early && length > EARLY_413_BYTES) {
      const body = JSON.stringify({
        status: "client_error",
        error_code: "request_entity_too_large",
        detail: `Request bodies are limited to ${EARLY_413_BYTES} bytes.`,
        transient: false,
      });
      res.writeHead(413, { "content-type": "application/json", connection: "close" });
      res.end(body, () => req.socket.destroySoon());
      return;
    }
    let out: ProxyResponse;
    try {
      out = await proxy.handle(await proxyRequestOf(req));
    } catch (e) {
      out = proxyError(e);
    }
    const headers = Object.fromEntries(Object.entries(out.headers).map(([k, v]) => [k, rewrite(v)]));
    try {
      res.writeHead(out.status, headers);
    } catch (e) {
      out = proxyError(e);
      res.writeHead(out.status, out.headers);
    }
    res.end(out.status === 204 || out.status === 304 ? undefined : rewrite(out.body));
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  front = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: front,
    proxy,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await proxy.close();
    },
  };
}
