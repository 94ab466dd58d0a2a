// Single-rule faults added while the checks of this area were converted to
// declared assertions. Each names the ledger rows it breaks (`rows`) or the
// decision it re-decides (`decision`); the mutation harness runs each behind
// the proxy and expects its check to fail, attributed to one of its rows.
//
// The list and default faults change only a default (an omitted `limit`,
// `order` or run body field answered as another value), so only the
// equivalence checks (omitted ≡ the seed's default) can see them;
// test/defaults-instant.test.ts holds them caught on a deployment whose runs
// end at once too.
import { json, type Body, type Fault, type ProxyRequest, type ProxyResponse, type ProxyState } from "./proxy.ts";

const P = (q: ProxyRequest) => q.url.pathname;
const ok = (r: ProxyResponse) => r.status >= 200 && r.status < 300;
const RUN_CREATE = /^\/v1\/datasets\/[^/]+\/runs$/;

function bodyOf(q: ProxyRequest): Body {
  try {
    return q.body ? JSON.parse(q.body) : undefined;
  } catch {
    return undefined;
  }
}

/** The request with these query parameters set. */
function withQuery(q: ProxyRequest, set: Record<string, string>): ProxyRequest {
  const u = new URL(q.url);
  for (const [k, v] of Object.entries(set)) u.searchParams.set(k, v);
  return { ...q, url: u, path: u.pathname + u.search };
}

/** The request without these query parameters. */
function withoutQuery(q: ProxyRequest, ...names: string[]): ProxyRequest {
  const u = new URL(q.url);
  for (const k of names) u.searchParams.delete(k);
  return { ...q, url: u, path: u.pathname + u.search };
}

const refusal = (res: ProxyResponse, status: number, code: string): ProxyResponse =>
  json(
    res,
    { status: "client_error", error_code: code, detail: "Injected by the mutation proxy.", transient: false },
    status,
  );

// ---- defaults of a page: an omitted limit answered as another --------------------------

/** A GET list whose omitted `limit` is answered as `limit` (its default changed, nothing else). */
function getDefault(id: string, rows: string[], expect: string, path: RegExp, limit: number, breaks: string): Fault {
  return {
    id,
    rows,
    breaks,
    expect,
    request: (q) =>
      q.method === "GET" && path.test(P(q)) && !q.url.searchParams.has("limit")
        ? withQuery(q, { limit: String(limit) })
        : q,
  };
}

/** A search whose body without `limit` is answered as `limit` (its default changed, nothing else). */
function searchDefault(id: string, rows: string[], expect: string, path: string, limit: number, breaks: string): Fault {
  return {
    id,
    rows,
    breaks,
    expect,
    request: (q) => {
      const b = bodyOf(q);
      if (q.method !== "POST" || P(q) !== path || !b || typeof b !== "object" || "limit" in b) return q;
      return { ...q, body: JSON.stringify({ ...b, limit }) };
    },
  };
}

/** A GET list whose omitted `order` is answered as order=asc (its default changed, nothing else). */
function ascendingByDefault(id: string, rows: string[], expect: string, path: RegExp, breaks: string): Fault {
  return {
    id,
    rows,
    breaks,
    expect,
    request: (q) =>
      q.method === "GET" && path.test(P(q)) && !q.url.searchParams.has("order") ? withQuery(q, { order: "asc" }) : q,
  };
}

// ---- the run body's defaults: an omitted field answered as another ---------------------

/** A dataset run whose body omits `field` runs with `value` in its place. */
function runDefault(id: string, rows: string[], field: string, value: unknown, breaks: string): Fault {
  return {
    id,
    rows,
    breaks,
    expect: "dataset-run-defaults-equivalent",
    request: (q) => {
      const b = bodyOf(q);
      if (q.method !== "POST" || !RUN_CREATE.test(P(q)) || !b || field in b) return q;
      return { ...q, body: JSON.stringify({ ...b, [field]: value }) };
    },
  };
}

// ---- a new resource: created, readable, listed -----------------------------------------

/** The ids this proxy saw created at `list` (from the create answers). */
function created(s: ProxyState, list: string): Set<string> {
  const key = `created:${list}`;
  const ids = (s.memo.get(key) as Set<string> | undefined) ?? new Set<string>();
  s.memo.set(key, ids);
  return ids;
}

/** Remember each id a create at `list` answers. */
function remember(q: ProxyRequest, res: ProxyResponse, s: ProxyState, list: string): void {
  if (q.method === "POST" && P(q) === list && ok(res) && typeof res.json?.data?.id === "string")
    created(s, list).add(res.json.data.id);
}

/** The list leaves out every resource created through this proxy. */
function unlisted(id: string, rows: string[], list: string, breaks: string): Fault {
  return {
    id,
    rows,
    breaks,
    expect: "created-readable-at-once",
    response: (q, res, s) => {
      remember(q, res, s, list);
      if (q.method !== "GET" || P(q) !== list || res.status !== 200) return res;
      const ids = created(s, list);
      const hide = (items: Body[]) => items.filter((x) => !ids.has(x?.id));
      if (Array.isArray(res.json)) return json(res, hide(res.json));
      return Array.isArray(res.json?.data) ? json(res, { ...res.json, data: hide(res.json.data) }) : res;
    },
  };
}

/** The first read by id of a resource created through this proxy answers 404 (it becomes readable later). */
function notReadableAtOnce(id: string, rows: string[], list: string, code: string, breaks: string): Fault {
  return {
    id,
    rows,
    breaks,
    expect: "created-readable-at-once",
    response: (q, res, s) => {
      remember(q, res, s, list);
      const m = q.method === "GET" && P(q).startsWith(`${list}/`) ? P(q).slice(list.length + 1) : undefined;
      if (!m || m.includes("/") || !created(s, list).has(decodeURIComponent(m))) return res;
      const key = `read:${m}`;
      if (s.memo.get(key)) return res;
      s.memo.set(key, true);
      return refusal(res, 404, code);
    },
  };
}

/** A create at `list` answers without the new resource's id. */
function createdWithoutId(id: string, rows: string[], list: string, breaks: string): Fault {
  return {
    id,
    rows,
    breaks,
    expect: "created-readable-at-once",
    response: (q, res) => {
      if (q.method !== "POST" || P(q) !== list || !ok(res) || typeof res.json?.data !== "object") return res;
      const { id: _id, ...rest } = res.json.data;
      return json(res, { ...res.json, data: rest });
    },
  };
}

// ---- a deleted resource: the delete answer, reads and lists afterwards ------------------

/** DELETE of one of `list`'s resources is refused (409 bad_request, nothing deleted). */
function deleteRefused(id: string, rows: string[], list: string, breaks: string): Fault {
  const refused = { status: 409, headers: { "content-type": "application/json" }, body: "", json: undefined };
  return {
    id,
    rows,
    breaks,
    expect: "deleted-gone-everywhere",
    request: (q) =>
      q.method === "DELETE" &&
      P(q).startsWith(`${list}/`) &&
      !P(q)
        .slice(list.length + 1)
        .includes("/")
        ? refusal(refused, 409, "bad_request")
        : q,
  };
}

/** A resource of `list` deleted through this proxy stays in the list (as its create answered it). */
function stillListed(id: string, rows: string[], list: string, breaks: string): Fault {
  return {
    id,
    rows,
    breaks,
    expect: "deleted-gone-everywhere",
    response: (q, res, s) => {
      const made = (s.memo.get(`made:${list}`) as Map<string, Body> | undefined) ?? new Map<string, Body>();
      s.memo.set(`made:${list}`, made);
      const gone = (s.memo.get(`gone:${list}`) as Set<string> | undefined) ?? new Set<string>();
      s.memo.set(`gone:${list}`, gone);
      if (q.method === "POST" && P(q) === list && ok(res) && typeof res.json?.data?.id === "string")
        made.set(res.json.data.id, res.json.data);
      const item = P(q).startsWith(`${list}/`) ? decodeURIComponent(P(q).slice(list.length + 1)) : undefined;
      if (q.method === "DELETE" && item && !item.includes("/") && ok(res)) gone.add(item);
      if (q.method !== "GET" || P(q) !== list || res.status !== 200) return res;
      const ghosts = [...gone].filter((g) => made.has(g)).map((g) => made.get(g));
      const add = (items: Body[]) => [...ghosts.filter((x) => !items.some((y) => y?.id === x.id)), ...items];
      if (Array.isArray(res.json)) return json(res, add(res.json));
      return Array.isArray(res.json?.data) ? json(res, { ...res.json, data: add(res.json.data) }) : res;
    },
  };
}

export const kitListsFaults: Fault[] = [
  // ---- omitted limit ≡ the seed's default ----
  searchDefault(
    "mention-search-default-page-10",
    ["mentions.default-limit"],
    "mentions-default-limit-equivalent",
    "/v1/mentions",
    10,
    "POST /v1/mentions: limit defaults to 20 (this deployment's default page is 10)",
  ),
  searchDefault(
    "mention-search-default-page-30",
    ["mentions.default-limit"],
    "mentions-default-limit-equivalent",
    "/v1/mentions",
    30,
    "POST /v1/mentions: limit defaults to 20 (this deployment's default page is 30)",
  ),
  searchDefault(
    "profile-search-default-page-10",
    ["audience-profiles.default-limit"],
    "profiles-default-limit-equivalent",
    "/v1/audience_profiles",
    10,
    "POST /v1/audience_profiles: limit defaults to 20 (this deployment's default page is 10)",
  ),
  getDefault(
    "usage-history-default-page-10",
    ["usage-history.limit"],
    "usage-history-default-limit-equivalent",
    /^\/v1\/me\/usage_history$/,
    10,
    "GET /v1/me/usage_history: limit defaults to 25 (this deployment's default page is 10)",
  ),
  getDefault(
    "usage-history-default-page-50",
    ["usage-history.limit"],
    "usage-history-default-limit-equivalent",
    /^\/v1\/me\/usage_history$/,
    50,
    "GET /v1/me/usage_history: limit defaults to 25 (this deployment's default page is 50)",
  ),
  getDefault(
    "dataset-list-default-page-20",
    ["datasets.list.default-limit"],
    "pagination-default-limit-equivalent",
    /^\/v1\/datasets$/,
    20,
    "GET /v1/datasets: limit defaults to 10 (this deployment's default page is 20)",
  ),
  getDefault(
    "audience-datasets-default-page-5",
    ["audience-datasets.list.default-limit"],
    "pagination-default-limit-equivalent",
    /^\/v1\/audience_datasets$/,
    5,
    "GET /v1/audience_datasets: limit defaults to 10 (this deployment's default page is 5)",
  ),
  getDefault(
    "runs-list-default-page-5",
    ["datasets.runs.list.default-limit"],
    "pagination-runs-default-page",
    /^\/v1\/datasets\/[^/]+\/runs$/,
    5,
    "GET /v1/datasets/{dataset_id}/runs: limit defaults to 10 (this deployment's default page is 5)",
  ),
  // ---- omitted order ≡ order=desc, and the order itself ----
  ascendingByDefault(
    "runs-list-default-ascending",
    ["pagination.order-default-desc"],
    "pagination-order-default-equivalent",
    /^\/v1\/datasets\/[^/]+\/runs$/,
    "order defaults to desc (a dataset's run list without order answers order=asc's page)",
  ),
  ascendingByDefault(
    "audience-datasets-default-ascending",
    ["audience-datasets.list", "pagination.order-default-desc"],
    "pagination-default-order",
    /^\/v1\/audience_datasets$/,
    "GET /v1/audience_datasets is sorted by created_at, newest first by default (this deployment lists oldest first without order)",
  ),
  {
    id: "dataset-list-asc-ignored",
    rows: ["datasets.list.sorted"],
    breaks:
      "GET /v1/datasets is sorted by created_at: order=asc is oldest first (this deployment answers newest first)",
    expect: "pagination-default-order",
    request: (q) =>
      q.method === "GET" && P(q) === "/v1/datasets" && q.url.searchParams.get("order") === "asc"
        ? withQuery(q, { order: "desc" })
        : q,
  },
  // ---- a padded cursor ≡ the unpadded one ----
  {
    id: "padded-cursor-restarts",
    rows: ["pagination.cursor-padding"],
    breaks: "padding `=` of a cursor is optional (this deployment answers a padded cursor with the first page)",
    expect: "pagination-padding-optional",
    request: (q) =>
      q.method === "GET" && P(q) === "/v1/datasets" && q.url.searchParams.get("cursor")?.endsWith("=")
        ? withoutQuery(q, "cursor")
        : q,
  },
  // ---- omitted run body fields ≡ their defaults ----
  runDefault(
    "run-omitted-count-is-100",
    ["datasets.runs.body.count-default"],
    "count",
    100,
    "A dataset run's count defaults to 200 (this deployment runs 100)",
  ),
  runDefault(
    "run-omitted-comments-is-5",
    ["datasets.runs.body.comments-default"],
    "num_comments_per_post",
    5,
    "A dataset run's num_comments_per_post defaults to 10 (this deployment runs 5)",
  ),
  runDefault(
    "run-omitted-country-is-gb",
    ["datasets.runs.body.country-default"],
    "country_code",
    "GB",
    "A dataset run's country_code defaults to US (this deployment runs GB)",
  ),
  runDefault(
    "run-omitted-visual-is-true",
    ["datasets.runs.body.visual-default"],
    "enable_visual_recognition",
    true,
    "A dataset run's enable_visual_recognition defaults to false (this deployment runs true)",
  ),
  runDefault(
    "run-omitted-transcribing-is-true",
    ["datasets.runs.body.transcribing-default"],
    "enable_transcribing",
    true,
    "A dataset run's enable_transcribing defaults to false (this deployment runs true)",
  ),
  {
    id: "run-omitted-count-requests-100",
    rows: ["datasets.runs.body.count-default"],
    breaks:
      "A dataset run's count defaults to 200 (this deployment's create response reports requested_count 100 when count is omitted, the run itself unchanged)",
    expect: "dataset-run-defaults-equivalent",
    response: (q, res) => {
      const b = bodyOf(q);
      if (q.method !== "POST" || !RUN_CREATE.test(P(q)) || !b || "count" in b || !ok(res)) return res;
      return typeof res.json?.data === "object"
        ? json(res, { ...res.json, data: { ...res.json.data, requested_count: 100 } })
        : res;
    },
  },
  // ---- the mention pool across runs ----
  {
    id: "dataset-pool-frozen",
    rows: ["datasets.runs.mentions-pool"],
    breaks:
      "a new run adds to the same pool (this deployment's mention search of a dataset keeps listing only the posts it listed first, though its mentions_count grows)",
    expect: "dataset-mentions-pool",
    response: (q, res, s) => {
      const b = bodyOf(q);
      if (q.method !== "POST" || P(q) !== "/v1/mentions" || res.status !== 200 || !Array.isArray(res.json?.data))
        return res;
      const ids = b?.dataset_ids;
      if (!Array.isArray(ids) || ids.length !== 1) return res;
      const key = `frozen:${String(ids[0])}`;
      const first = s.memo.get(key) as Set<string> | undefined;
      const keyOf = (m: Body) => `${m?.source}:${m?.id}`;
      if (!first) {
        s.memo.set(key, new Set(res.json.data.map(keyOf)));
        return res;
      }
      return json(res, { ...res.json, data: res.json.data.filter((m: Body) => first.has(keyOf(m))) });
    },
  },
  // ---- PATCH of a dataset ----
  {
    id: "patch-empty-body-clears-name",
    rows: ["datasets.update.semantics"],
    breaks: "An empty PATCH body is a no-op returning the current dataset (this deployment clears the name)",
    expect: "patch-semantics",
    request: (q) => {
      const b = bodyOf(q);
      if (q.method !== "PATCH" || !/^\/v1\/datasets\/[^/]+$/.test(P(q)) || !b || Object.keys(b).length) return q;
      return { ...q, body: JSON.stringify({ name: "" }) };
    },
  },
  // ---- a created resource: its create answer, read at once, listed at once ----
  {
    id: "dataset-create-answers-200",
    rows: ["datasets.create.201"],
    breaks: "POST /v1/datasets answers 201 (this deployment answers 200)",
    expect: "created-readable-at-once",
    response: (q, res) =>
      q.method === "POST" && P(q) === "/v1/datasets" && res.status === 201 ? { ...res, status: 200 } : res,
  },
  {
    id: "dataset-create-without-created-at",
    rows: ["dataset.create-response-fields"],
    breaks: "The dataset create response carries id, name and created_at (this deployment leaves out created_at)",
    expect: "created-readable-at-once",
    response: (q, res) => {
      if (q.method !== "POST" || P(q) !== "/v1/datasets" || !ok(res) || typeof res.json?.data !== "object") return res;
      const { created_at: _c, ...rest } = res.json.data;
      return json(res, { ...res.json, data: rest });
    },
  },
  unlisted(
    "new-dataset-unlisted",
    ["datasets.list.sorted"],
    "/v1/datasets",
    "GET /v1/datasets is the list of the account's datasets (this deployment leaves out the ones created since it started)",
  ),
  {
    id: "audience-create-answers-200",
    rows: ["audience-datasets.create"],
    breaks: "POST /v1/audience_datasets answers 201 (this deployment answers 200)",
    expect: "created-readable-at-once",
    response: (q, res) =>
      q.method === "POST" && P(q) === "/v1/audience_datasets" && res.status === 201 ? { ...res, status: 200 } : res,
  },
  notReadableAtOnce(
    "audience-dataset-not-readable-at-once",
    ["audience-datasets.read"],
    "/v1/audience_datasets",
    "audience_dataset_not_found",
    "GET /v1/audience_datasets/{id} answers 200 (this deployment answers 404 on a new audience dataset's first read)",
  ),
  unlisted(
    "audience-dataset-unlisted",
    ["audience-datasets.list"],
    "/v1/audience_datasets",
    "GET /v1/audience_datasets lists the account's audience datasets (this deployment leaves out new ones)",
  ),
  createdWithoutId(
    "custom-parameter-create-without-id",
    ["custom-parameters.create"],
    "/v1/custom_parameters",
    "POST /v1/custom_parameters answers the CustomParameter (this deployment's answer has no id)",
  ),
  notReadableAtOnce(
    "custom-parameter-not-readable-at-once",
    ["custom-parameters.read.404"],
    "/v1/custom_parameters",
    "custom_parameter_not_found",
    "GET /v1/custom_parameters/{id} answers the CustomParameter (this deployment answers 404 on a new one's first read)",
  ),
  unlisted(
    "custom-parameter-unlisted",
    ["custom-parameters.list"],
    "/v1/custom_parameters",
    "GET /v1/custom_parameters answers the account's custom parameters (this deployment leaves out new ones)",
  ),
  createdWithoutId(
    "tracking-agent-create-without-id",
    ["tracking-agents.create"],
    "/v1/tracking_agents",
    "POST /v1/tracking_agents answers the TrackingAgent (this deployment's answer has no id)",
  ),
  notReadableAtOnce(
    "tracking-agent-not-readable-at-once",
    ["tracking-agents.read.404"],
    "/v1/tracking_agents",
    "not_found",
    "GET /v1/tracking_agents/{id} answers the TrackingAgent (this deployment answers 404 on a new one's first read)",
  ),
  unlisted(
    "tracking-agent-unlisted",
    ["tracking-agents.list"],
    "/v1/tracking_agents",
    "GET /v1/tracking_agents answers the account's tracking agents (this deployment leaves out new ones)",
  ),
  // ---- the end of a walk ----
  {
    id: "has-next-without-cursor",
    rows: ["pagination.cursor-walk"],
    breaks: "Pagination is cursor based (this deployment's dataset list says has_next true with a null cursor)",
    expect: "pagination-end-cursor-null",
    response: (q, res) =>
      q.method === "GET" && P(q) === "/v1/datasets" && res.status === 200 && res.json?.has_next === true
        ? json(res, { ...res.json, cursor: null })
        : res,
  },
  {
    id: "walk-never-ends",
    rows: ["pagination.end-cursor-null"],
    breaks:
      "A walk stops when has_next is false (this deployment's dataset list never says it: its last page points to empty pages with has_next true)",
    expect: "pagination-end-cursor-null",
    response: (q, res) => {
      const STALL = "c3RhbGw";
      if (q.method !== "GET" || P(q) !== "/v1/datasets") return res;
      if (q.url.searchParams.get("cursor") === STALL)
        return json({ ...res, status: 200 }, { status: "success", data: [], has_next: true, cursor: STALL }, 200);
      return res.status === 200 && res.json?.has_next === false
        ? json(res, { ...res.json, has_next: true, cursor: STALL })
        : res;
    },
  },
  // ---- refusals and bounds ----
  {
    id: "usage-history-garbage-cursor-wrong-code",
    rows: ["usage-history.invalid-cursor"],
    breaks: "GET /v1/me/usage_history names invalid_cursor (this deployment refuses a garbage cursor with bad_request)",
    expect: "pagination-garbage-cursor-400",
    response: (q, res) =>
      q.method === "GET" && P(q) === "/v1/me/usage_history" && res.json?.error_code === "invalid_cursor"
        ? json(res, { ...res.json, error_code: "bad_request" })
        : res,
  },
  {
    id: "limit-100-refused",
    rows: ["pagination.limit-range"],
    breaks: "limit is an integer 1-100 (this deployment refuses 100)",
    expect: "pagination-limit-respected",
    response: (q, res) =>
      q.method === "GET" && P(q) === "/v1/datasets" && q.url.searchParams.get("limit") === "100"
        ? json(
            res,
            { detail: [{ loc: ["query", "limit"], msg: "Input should be less than 100", type: "less_than" }] },
            422,
          )
        : res,
  },
  // ---- a deleted resource ----
  {
    id: "dataset-delete-answers-200",
    rows: ["datasets.delete.204"],
    breaks: "DELETE /v1/datasets/{id} answers 204 (this deployment answers 200)",
    expect: "deleted-gone-everywhere",
    response: (q, res) =>
      q.method === "DELETE" && /^\/v1\/datasets\/[^/]+$/.test(P(q)) && res.status === 204
        ? { ...res, status: 200 }
        : res,
  },
  {
    id: "deleted-dataset-answers-410",
    rows: ["endpoints.404-unknown-or-foreign"],
    breaks:
      "A deleted dataset cannot be fetched by id: 404 dataset_not_found (this deployment answers its reads 410 with the same code)",
    expect: "deleted-gone-everywhere",
    response: (q, res) =>
      /^\/v1\/datasets\/[^/]+(\/runs)?$/.test(P(q)) &&
      res.status === 404 &&
      res.json?.error_code === "dataset_not_found"
        ? { ...res, status: 410 }
        : res,
  },
  stillListed(
    "deleted-dataset-still-listed",
    ["dataset.soft-deleted-hidden"],
    "/v1/datasets",
    "Soft-deleted datasets are excluded from lists (this deployment keeps listing them)",
  ),
  deleteRefused(
    "audience-delete-refused",
    ["audience-datasets.delete"],
    "/v1/audience_datasets",
    "DELETE /v1/audience_datasets/{id} succeeds with an empty body (this deployment refuses it with 409)",
  ),
  stillListed(
    "deleted-audience-dataset-still-listed",
    ["audience-datasets.list"],
    "/v1/audience_datasets",
    "GET /v1/audience_datasets excludes soft-deleted audience datasets (this deployment keeps listing them)",
  ),
  deleteRefused(
    "parameter-delete-refused",
    ["custom-parameters.delete"],
    "/v1/custom_parameters",
    "DELETE /v1/custom_parameters/{id} succeeds with an empty body (this deployment refuses it with 409)",
  ),
  deleteRefused(
    "agent-delete-refused",
    ["tracking-agent.delete"],
    "/v1/tracking_agents",
    "DELETE /v1/tracking_agents/{id} soft-deletes the agent (this deployment refuses it with 409)",
  ),
  stillListed(
    "deleted-agent-still-listed",
    ["tracking-agent.delete"],
    "/v1/tracking_agents",
    "A deleted tracking agent is hidden from lists (this deployment keeps listing it)",
  ),
];
