// One idea, kept long on purpose: a table of single-rule faults for the
// mutation harness, one entry per fault (status codes and envelopes, isolation
// between keys, pagination, validation, datasets and their runs, billing, rate
// limits, bounds, and controls), with the groups' and the MCP surface's faults
// appended from their own tables. Each breaks exactly one rule of the
// contract; the named check must fail behind it, and the kit must pass behind
// no fault at all.
import { Decimal } from "decimal.js";
import {
  json,
  memoNumber,
  memoResponse,
  type Body,
  type Fault,
  type ProxyRequest,
  type ProxyResponse,
} from "./proxy.ts";
import { groupFaults } from "./faults-groups.ts";
import { mcpFaults } from "./faults-mcp.ts";
import { seedRequestsFaults } from "./faults-seed-requests.ts";
import { seedDefaultsFaults } from "./faults-seed-defaults.ts";
import { seedCodesFaults } from "./faults-seed-codes.ts";
import { seedDataFaults } from "./faults-seed-data.ts";
import { transportFaults } from "./faults-transport.ts";
import { kitRequestsFaults } from "./faults-kit-requests.ts";
import { kitListsFaults } from "./faults-kit-lists.ts";
import { kitMoneyFaults } from "./faults-kit-money.ts";
import { kitGroupsFaults } from "./faults-kit-groups.ts";

const DS_BY_ID = /^\/v1\/datasets\/([^/]+)$/;
const RUN_BY_ID = /^\/v1\/datasets\/[^/]+\/runs\/([^/]+)$/;
const isList = (r: ProxyRequest) => r.method === "GET" && r.url.pathname === "/v1/datasets";
const ok2xx = (res: ProxyResponse) => res.status >= 200 && res.status < 300;
const num = (v: unknown) => Number(v);
const setBalance = (res: ProxyResponse, f: (b: number) => number) => {
  if (res.status !== 200 || typeof res.json?.data?.usage?.balance !== "number") return res;
  const body = structuredClone(res.json);
  body.data.usage.balance = Math.round(f(body.data.usage.balance) * 1e6) / 1e6;
  return json(res, body);
};

/** Whether a YYYY-MM-DD string names a day that exists (2026-02-30 does not: Date rolls it over to March). */
function isRealDay(day: string): boolean {
  const t = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(day);
}

/** A dataset-run request with its JSON body changed by `change` in place; every other request passes unchanged. */
function runBody(q: ProxyRequest, change: (body: Body) => void): ProxyRequest {
  if (q.method !== "POST" || !/\/runs$/.test(q.url.pathname) || !q.body) return q;
  const body = JSON.parse(q.body);
  change(body);
  return { ...q, body: JSON.stringify(body) };
}

export const faults: Fault[] = [
  {
    id: "missing-ratelimit-remaining",
    rows: ["rate-limit.headers"],
    breaks: "Every authenticated response carries RateLimit-Remaining",
    expect: "rate-limit-headers",
    response: (_q, res) => {
      const h = { ...res.headers };
      delete h["ratelimit-remaining"];
      return { ...res, headers: h };
    },
  },
  {
    id: "create-answers-200",
    rows: ["datasets.create.201"],
    breaks: "POST /v1/datasets answers 201",
    expect: "documented-status-only",
    response: (q, res) =>
      q.method === "POST" && q.url.pathname === "/v1/datasets" && res.status === 201 ? { ...res, status: 200 } : res,
  },
  {
    id: "delete-answers-200-with-body",
    rows: ["datasets.delete.204", "audience-datasets.delete", "custom-parameters.delete", "tracking-agent.delete"],
    breaks: "Empty-body successes are 204",
    expect: "empty-body-204",
    response: (q, res) =>
      q.method === "DELETE" && res.status === 204 ? json(res, { status: "success", data: null }, 200) : res,
  },
  {
    id: "status-string-ok",
    rows: ["conventions.status-mapping"],
    breaks: '2xx bodies carry status "success"',
    expect: "status-string-mapping",
    response: (_q, res) =>
      ok2xx(res) && res.json?.status === "success" ? json(res, { ...res.json, status: "ok" }) : res,
  },
  {
    id: "error-status-string-error",
    rows: ["conventions.status-mapping"],
    breaks: '4xx bodies carry status "client_error"',
    expect: "status-string-mapping",
    response: (_q, res) =>
      res.status === 404 && res.json?.status === "client_error" ? json(res, { ...res.json, status: "error" }) : res,
  },
  {
    id: "foreign-dataset-leaks",
    rows: ["service.scope.foreign-404"],
    breaks: "A foreign id is 404 (existence hidden); the resource is never served to another account",
    expect: "foreign-id-404-indistinguishable",
    only: ["foreign-id-404-indistinguishable"],
    request: async (q, s) => {
      const m = DS_BY_ID.exec(q.url.pathname);
      const owner = m ? s.owners.get(decodeURIComponent(m[1])) : undefined;
      if (q.method === "GET" && owner && owner !== q.key)
        return { ...q, headers: { ...q.headers, "x-api-key": owner } };
      return q;
    },
  },
  {
    id: "foreign-404-says-forbidden",
    rows: ["service.scope.foreign-404", "endpoints.404-unknown-or-foreign"],
    breaks: "A foreign id gets the same 404 body as a missing id",
    expect: "foreign-id-404-indistinguishable",
    only: ["foreign-id-404-indistinguishable"],
    response: (q, res, s) => {
      const m = DS_BY_ID.exec(q.url.pathname);
      const owner = m ? s.owners.get(decodeURIComponent(m[1])) : undefined;
      return owner && owner !== q.key && res.status === 404
        ? json(res, { ...res.json, detail: "This dataset belongs to another account." })
        : res;
    },
  },
  {
    id: "list-shows-foreign-dataset",
    rows: ["service.scope.account"],
    breaks: "Lists never include another account's resources",
    expect: "lists-never-leak-foreign",
    only: ["lists-never-leak-foreign"],
    response: async (q, res, s) => {
      if (!isList(q) || res.status !== 200) return res;
      const foreignId = [...s.owners.entries()].find(([, k]) => k !== q.key)?.[0];
      if (!foreignId) return res;
      const owner = s.owners.get(foreignId)!;
      const other = await s.forward({
        ...q,
        method: "GET",
        path: `/v1/datasets/${foreignId}`,
        url: new URL(`/v1/datasets/${foreignId}`, "http://proxy"),
        headers: { ...q.headers, "x-api-key": owner },
        body: undefined,
      });
      if (other.status !== 200) return res;
      return json(res, {
        ...res.json,
        data: [other.json.data, ...res.json.data.slice(0, Math.max(0, res.json.data.length - 1))],
      });
    },
  },
  {
    id: "page-overlaps-previous",
    rows: ["pagination.cursor-walk"],
    breaks: "A cursor walk returns each item once (pages do not overlap)",
    expect: "pagination-full-walk",
    only: ["pagination-full-walk"],
    response: (q, res, s) => {
      if (!isList(q) || res.status !== 200 || !Array.isArray(res.json?.data)) return res;
      const k = `last-${q.key}-${q.url.searchParams.get("order") ?? "desc"}`;
      const prev = s.memo.get(k);
      s.memo.set(k, res.json.data.at(-1));
      if (!q.url.searchParams.get("cursor") || !prev) return res;
      return json(res, { ...res.json, data: [prev, ...res.json.data.slice(0, -1)] });
    },
  },
  {
    id: "page-exceeds-limit",
    rows: ["pagination.limit-range"],
    breaks: "A page holds at most `limit` items",
    expect: "pagination-limit-respected",
    only: ["pagination-limit-respected"],
    request: (q) => {
      const l = q.url.searchParams.get("limit");
      if (!isList(q) || !l || Number(l) >= 100) return q;
      const u = new URL(q.url);
      u.searchParams.set("limit", String(Number(l) + 1));
      return { ...q, url: u, path: u.pathname + u.search };
    },
  },
  {
    id: "last-page-cursor-not-null",
    rows: ["pagination.end-cursor-null"],
    breaks: "The last page has cursor null",
    expect: "pagination-end-cursor-null",
    only: ["pagination-end-cursor-null"],
    response: (q, res) =>
      isList(q) && res.status === 200 && res.json?.has_next === false
        ? json(res, { ...res.json, cursor: "eyJlbmQiOnRydWV9" })
        : res,
  },
  {
    id: "default-order-ascending",
    rows: ["pagination.order-default-desc"],
    breaks: "Lists default to order=desc (the dataset list without order answers order=asc's page)",
    expect: "pagination-order-default-equivalent",
    only: ["pagination-order-default-equivalent"],
    request: (q) => {
      if (!isList(q) || q.url.searchParams.has("order")) return q;
      const u = new URL(q.url);
      u.searchParams.set("order", "asc");
      return { ...q, url: u, path: u.pathname + u.search };
    },
  },
  {
    id: "garbage-cursor-ignored",
    decision: "D-CURSOR",
    breaks: "A garbage cursor of the dataset list is 400 invalid_cursor",
    expect: "pagination-garbage-cursor-400",
    only: ["pagination-garbage-cursor-400"],
    response: async (q, res, s) => {
      if (!(isList(q) && res.status === 400)) return res;
      const u = new URL(q.url);
      u.searchParams.delete("cursor");
      return s.forward({ ...q, url: u, path: u.pathname + u.search });
    },
  },
  {
    id: "mention-cursor-ignores-sort",
    rows: ["mentions.cursor-sort"],
    breaks: "A mention cursor reused with another sort is 400 invalid_cursor",
    expect: "pagination-sort-change-cursor-400",
    only: ["pagination-sort-change-cursor-400"],
    request: (q) => {
      if (q.method !== "POST" || q.url.pathname !== "/v1/mentions" || !q.body) return q;
      const b = JSON.parse(q.body);
      return b.cursor && b.sort === "likes" ? { ...q, body: JSON.stringify({ ...b, sort: "date" }) } : q;
    },
  },
  {
    id: "cursor-padding-required",
    rows: ["pagination.cursor-padding"],
    breaks: "Cursor padding is optional",
    expect: "pagination-padding-optional",
    only: ["pagination-padding-optional"],
    response: (q, res, s) => {
      const emitted = (s.memo.get("cursors") as Set<string> | undefined) ?? new Set<string>();
      s.memo.set("cursors", emitted);
      if (isList(q) && typeof res.json?.cursor === "string") emitted.add(res.json.cursor);
      const c = q.url.searchParams.get("cursor");
      if (isList(q) && c && !emitted.has(c))
        return json(
          res,
          { status: "client_error", error_code: "invalid_cursor", detail: "Unknown cursor form.", transient: false },
          400,
        );
      return res;
    },
  },
  {
    id: "name-bound-unenforced",
    rows: ["dataset.name-bounds", "endpoints.422-on-body-or-query"],
    breaks: "A dataset name longer than 255 characters is 422",
    expect: "invalid-request-rejected",
    only: ["invalid-request-rejected"],
    request: (q) => {
      if (q.method !== "POST" || q.url.pathname !== "/v1/datasets" || !q.body) return q;
      try {
        const b = JSON.parse(q.body);
        if (typeof b.name === "string" && b.name.length > 255)
          return { ...q, body: JSON.stringify({ ...b, name: b.name.slice(0, 255) }) };
      } catch {
        /* malformed JSON passes through */
      }
      return q;
    },
  },
  {
    id: "validation-loc-wrong",
    decision: "D-422",
    breaks: "A 422's loc points at the broken field",
    expect: "validation-loc-accurate",
    only: ["invalid-request-rejected", "validation-loc-accurate"],
    response: (_q, res) =>
      res.status === 422 && Array.isArray(res.json?.detail)
        ? json(res, { detail: res.json.detail.map((d: Body) => ({ ...d, loc: ["body", "__root__"] })) })
        : res,
  },
  {
    id: "malformed-json-500",
    rows: ["endpoints.422-on-body-or-query"],
    breaks: "Malformed JSON gets 422, never 5xx",
    expect: "malformed-json-rejected",
    only: ["malformed-json-rejected", "no-server-errors"],
    request: (q) => {
      if (!q.body) return q;
      try {
        JSON.parse(q.body);
        return q;
      } catch {
        return {
          status: 500,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            status: "server_error",
            error_code: "internal_server_error",
            detail: "Unexpected token",
            transient: true,
          }),
        };
      }
    },
  },
  {
    id: "schema-count-as-string",
    rows: ["dataset.fields"],
    breaks: "Dataset bodies match the generated schema (mentions_count is an integer)",
    expect: "response-schema-conformance",
    only: ["response-schema-conformance"],
    response: (q, res) =>
      q.method === "GET" && DS_BY_ID.test(q.url.pathname) && res.status === 200
        ? json(res, { ...res.json, data: { ...res.json.data, mentions_count: String(res.json.data.mentions_count) } })
        : res,
  },
  {
    id: "content-type-text-plain",
    decision: "D-JSON-MEDIA-TYPE",
    breaks: "Bodies are served as application/json",
    expect: "json-content-type",
    only: ["json-content-type"],
    response: (_q, res) =>
      res.body ? { ...res, headers: { ...res.headers, "content-type": "text/plain; charset=utf-8" } } : res,
  },
  {
    id: "deleted-dataset-still-readable",
    rows: ["dataset.soft-deleted-hidden", "datasets.delete.204", "datasets.runs.list.404"],
    breaks: "A deleted dataset is 404 everywhere",
    expect: "deleted-gone-everywhere",
    only: ["deleted-gone-everywhere"],
    request: async (q, s) => {
      const m = DS_BY_ID.exec(q.url.pathname);
      // remember the dataset as it was just before it is deleted
      if (m && q.method === "DELETE")
        s.memo.set(`ds-${m[1]}`, await s.forward({ ...q, method: "GET", body: undefined }));
      return q;
    },
    response: (q, res, s) => {
      const m = DS_BY_ID.exec(q.url.pathname);
      if (m && q.method === "GET" && res.status === 404 && memoResponse(s, `ds-${m[1]}`)?.status === 200)
        return memoResponse(s, `ds-${m[1]}`)!;
      return res;
    },
  },
  {
    id: "created-not-readable-at-once",
    rows: ["datasets.read.200"],
    breaks: "A created dataset is readable at once",
    expect: "created-readable-at-once",
    only: ["created-readable-at-once"],
    response: (q, res, s) => {
      const m = DS_BY_ID.exec(q.url.pathname);
      if (!m || q.method !== "GET" || s.memo.get(`read-${m[1]}`)) return res;
      s.memo.set(`read-${m[1]}`, true);
      return json(
        res,
        { status: "client_error", error_code: "dataset_not_found", detail: "Dataset not found.", transient: false },
        404,
      );
    },
  },
  {
    id: "patch-empty-string-ignored",
    rows: ["datasets.update.semantics"],
    breaks: 'PATCH {name: ""} stores null',
    expect: "patch-semantics",
    only: ["patch-semantics"],
    request: (q) => (q.method === "PATCH" && q.body && JSON.parse(q.body).name === "" ? { ...q, body: "{}" } : q),
  },
  {
    id: "second-seat-isolated",
    rows: ["auth.account-shared"],
    breaks: "Datasets are shared by every seat of the account",
    expect: "second-seat-shares-account",
    only: ["second-seat-shares-account"],
    response: (q, res, s) =>
      q.key === s.keys.second && DS_BY_ID.test(q.url.pathname)
        ? json(
            res,
            { status: "client_error", error_code: "dataset_not_found", detail: "Dataset not found.", transient: false },
            404,
          )
        : res,
  },
  {
    id: "missing-key-accepted",
    rows: ["endpoints.api-key-required", "prices.read", "auth.401"],
    breaks: "A request without x-api-key is 401",
    expect: "auth-missing-key-401",
    only: ["auth-missing-key-401"],
    request: (q, s) => (q.key ? q : { ...q, key: s.keys.main, headers: { ...q.headers, "x-api-key": s.keys.main! } }),
  },
  {
    id: "invalid-key-403",
    rows: ["auth.401"],
    breaks: "An invalid key is 401 unauthorized",
    expect: "auth-invalid-key-401",
    only: ["auth-invalid-key-401"],
    response: (q, res) =>
      q.key && res.status === 401 ? json(res, { ...res.json, error_code: "forbidden" }, 403) : res,
  },
  {
    id: "rate-limit-unenforced",
    rows: ["errors.429-code", "errors.429-body", "rate-limit.429"],
    breaks: "Over the cap a request gets 429",
    expect: "rate-limit-burst-429",
    only: ["rate-limit-burst-429"],
    response: async (q, res, s) => {
      let r = res;
      for (let i = 0; i < 20 && r.status === 429; i++) {
        await new Promise((w) => setTimeout(w, 250));
        r = await s.forward(q);
      }
      return r;
    },
  },
  {
    id: "retry-after-off-by-one",
    rows: ["errors.retry-after"],
    breaks: "Retry-After equals ceil(retry_after_seconds)",
    expect: "rate-limit-burst-429",
    only: ["rate-limit-burst-429"],
    response: (_q, res) =>
      res.status === 429
        ? { ...res, headers: { ...res.headers, "retry-after": String(num(res.headers["retry-after"]) + 1) } }
        : res,
  },
  {
    id: "rate-limit-shared-across-keys",
    rows: ["rate-limit.per-key"],
    breaks: "The rate limit is per key",
    expect: "rate-limit-per-key",
    only: ["rate-limit-per-key"],
    response: (q, res, s) => {
      if (res.status === 429) s.memo.set("throttled-until", Date.now() + 1000);
      if (q.key !== s.keys.main && memoNumber(s, "throttled-until") > Date.now())
        return json(
          { ...res, headers: { ...res.headers, "retry-after": "1" } },
          {
            status: "client_error",
            error_code: "too_many_requests",
            detail: "Slow down.",
            transient: true,
            retry_after_seconds: 1,
          },
          429,
        );
      return res;
    },
  },
  {
    id: "rate-limit-never-recovers",
    rows: ["rate-limit.retry-after-works", "errors.retry-after"],
    breaks: "After Retry-After the key works again",
    expect: "rate-limit-recovers",
    only: ["rate-limit-recovers"],
    response: (q, res, s) => {
      if (res.status === 429) s.memo.set(`until-${q.key}`, Date.now() + 8000);
      if (memoNumber(s, `until-${q.key}`) > Date.now() && res.status === 200)
        return json(
          { ...res, headers: { ...res.headers, "retry-after": "1" } },
          {
            status: "client_error",
            error_code: "too_many_requests",
            detail: "Slow down.",
            transient: true,
            retry_after_seconds: 1,
          },
          429,
        );
      return res;
    },
  },
  {
    id: "no-reservation-at-create",
    rows: ["service.charges.reserved-up-front", "dataset-run.create-pending-202", "charges.reservation-before-work"],
    breaks: "Starting a run reserves count × price",
    expect: "billing-reservation-at-create",
    only: ["billing-reservation-at-create"],
    response: (q, res, s) => {
      if (q.method === "POST" && /\/runs$/.test(q.url.pathname) && res.status === 202)
        s.memo.set("active-run", res.json.data.id);
      if (
        q.method === "GET" &&
        RUN_BY_ID.test(q.url.pathname) &&
        ["completed", "failed"].includes(res.json?.data?.status?.type)
      )
        s.memo.delete("active-run");
      if (q.method === "GET" && q.url.pathname === "/v1/me" && s.memo.get("active-run"))
        return setBalance(res, (b) => b + 20 * 0.0356);
      return res;
    },
  },
  {
    id: "settlement-off-by-a-cent",
    rows: [
      "service.charges.dollar-balance",
      "service.charges.refund-on-completion",
      "dataset-run.working-to-completed",
      "charges.mention",
      "charges.refund-to-actuals",
    ],
    breaks: "The settled charge equals mentions × price exactly",
    expect: "billing-settlement-exact",
    only: ["billing-settlement-exact"],
    response: (q, res, s) => {
      // every run takes a cent more than it settled, once, when its completion is first read
      const d = res.json?.data;
      if (q.method === "GET" && RUN_BY_ID.test(q.url.pathname) && d?.status?.type === "completed") {
        const seen = (s.memo.get("settled-runs") as Set<string> | undefined) ?? new Set<string>();
        seen.add(q.url.pathname);
        s.memo.set("settled-runs", seen);
      }
      const extra = ((s.memo.get("settled-runs") as Set<string> | undefined)?.size ?? 0) * 0.01;
      if (q.method === "GET" && q.url.pathname === "/v1/me" && extra) return setBalance(res, (b) => b - extra);
      return res;
    },
  },
  {
    id: "failed-run-not-refunded",
    rows: ["dataset-run.to-failed", "charges.failed-releases"],
    breaks: "A failed run releases its whole reservation",
    expect: "billing-refund-on-failure",
    only: ["billing-refund-on-failure"],
    response: (q, res, s) => {
      if (q.method === "GET" && RUN_BY_ID.test(q.url.pathname) && res.json?.data?.status?.type === "failed")
        s.memo.set("failed", true);
      if (q.method === "GET" && q.url.pathname === "/v1/me" && s.memo.get("failed"))
        return setBalance(res, (b) => b - 20 * 0.0356);
      return res;
    },
  },
  {
    id: "402-detail-as-string",
    rows: ["datasets.runs.create.402", "errors.402", "errors.402-body"],
    breaks: "The 402 body's detail is {message, required, available, top_up_url}",
    expect: "billing-402-refused-charges-nothing",
    only: ["billing-402-refused-charges-nothing"],
    response: (_q, res) => (res.status === 402 ? json(res, { ...res.json, detail: "Insufficient credits." }) : res),
  },
  {
    id: "usage-row-missing",
    decision: "D-USAGE-SIGN",
    breaks: "Usage history shows each settled charge",
    expect: "billing-usage-history-matches",
    only: ["billing-usage-history-matches"],
    response: (q, res) =>
      q.method === "GET" && q.url.pathname === "/v1/me/usage_history" && Array.isArray(res.json?.data)
        ? json(res, { ...res.json, data: res.json.data.filter((r: Body) => r.category !== "mention") })
        : res,
  },
  {
    id: "negative-balance-reported",
    decision: "D-BALANCE-FLOOR",
    breaks: "The balance is never negative",
    expect: "billing-balance-never-negative",
    only: ["billing-balance-never-negative"],
    response: (q, res) => (q.method === "GET" && q.url.pathname === "/v1/me" ? setBalance(res, () => -1.5) : res),
  },
  {
    id: "run-params-echo-drops-field",
    rows: ["dataset-run.params-echo"],
    breaks: "A run's params echo every field of the request",
    expect: "valid-run-body-accepted",
    only: ["valid-run-body-accepted"],
    response: (q, res) => {
      if (q.method !== "GET" || !RUN_BY_ID.test(q.url.pathname) || res.status !== 200) return res;
      const params = { ...res.json.data.params };
      delete params.num_comments_per_post;
      return json(res, { ...res.json, data: { ...res.json.data, params } });
    },
  },
  {
    id: "completed-run-moves-back",
    rows: ["dataset-run.status-types", "dataset-run.states"],
    breaks: "Terminal run states never change",
    expect: "run-state-machine",
    only: ["run-state-machine"],
    response: (q, res, s) => {
      const m = RUN_BY_ID.exec(q.url.pathname);
      if (!m || q.method !== "GET" || res.status !== 200) return res;
      const n = memoNumber(s, `reads-${m[1]}`) + 1;
      s.memo.set(`reads-${m[1]}`, n);
      if (res.json?.data?.status?.type === "completed" && s.memo.get(`done-${m[1]}`))
        return json(res, {
          ...res.json,
          data: { ...res.json.data, status: { ...res.json.data.status, type: "working" } },
        });
      if (res.json?.data?.status?.type === "completed") s.memo.set(`done-${m[1]}`, true);
      return res;
    },
  },
  {
    id: "step-timestamp-goes-back",
    decision: "D-RUN-TRANSITIONS",
    breaks: "Step timestamps never go back",
    expect: "run-state-machine",
    only: ["run-state-machine"],
    response: (q, res, s) => {
      const m = RUN_BY_ID.exec(q.url.pathname);
      const steps = res.json?.data?.status?.steps;
      if (!m || q.method !== "GET" || !Array.isArray(steps) || steps.length === 0) return res;
      const n = memoNumber(s, `r-${m[1]}`) + 1;
      s.memo.set(`r-${m[1]}`, n);
      const shift = n % 2 === 0 ? -10 : 0;
      const moved = steps.map((st) => ({ ...st, completed_at: st.completed_at + shift }));
      return json(res, { ...res.json, data: { ...res.json.data, status: { ...res.json.data.status, steps: moved } } });
    },
  },
  {
    id: "date-range-order-unchecked",
    rows: ["datasets.runs.body.date-range-order"],
    breaks: "A reversed date_range is 422 request validation",
    expect: "date-range-order-422",
    only: ["date-range-order-422"],
    request: (q) =>
      runBody(q, (b) => {
        if (b.date_range && b.date_range.from >= b.date_range.to) delete b.date_range;
      }),
  },
  {
    id: "filter-value-length-unchecked",
    decision: "D-BOUND-ARRAYS",
    breaks:
      "A string inside a filter's values (an array inside array items) is bounded like any other (D-BOUND-STRINGS, D-BOUND-ARRAYS)",
    expect: "invalid-request-rejected",
    only: ["invalid-request-rejected"],
    // The deployment bounds top-level fields only: what reaches it inside filter values is cut to 200 characters and 3 items.
    request: (q) => {
      if (q.method !== "POST" || q.url.pathname !== "/v1/mentions" || !q.body) return q;
      const b = JSON.parse(q.body);
      if (!Array.isArray(b.filters)) return q;
      for (const group of b.filters) {
        if (!Array.isArray(group)) continue;
        for (const f of group) {
          if (f && Array.isArray(f.values))
            f.values = f.values.slice(0, 3).map((v: unknown) => (typeof v === "string" ? v.slice(0, 200) : v));
        }
      }
      return { ...q, body: JSON.stringify(b) };
    },
  },
  {
    id: "impossible-date-accepted",
    decision: "D-BOUND-DATE",
    breaks: "A well-formed date that does not exist (2026-02-30) is 422 request validation (D-BOUND-DATE)",
    expect: "impossible-date-422",
    only: ["impossible-date-422"],
    // The deployment only checks the pattern: the impossible day reaches it as the last real day of that month.
    request: (q) =>
      runBody(q, (b) => {
        const from = b.date_range?.from;
        if (typeof from !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(from) || isRealDay(from)) return;
        const [y, m] = from.split("-").map(Number);
        b.date_range.from = new Date(Date.UTC(y!, m!, 0)).toISOString().slice(0, 10);
      }),
  },
  {
    id: "credit-prices-still-served",
    rows: ["prices.credit-prices-removed"],
    breaks: "The removed credit prices route is not served",
    expect: "credit-prices-removed-404",
    only: ["credit-prices-removed-404"],
    request: async (q, s) =>
      q.url.pathname === "/v1/credit_prices"
        ? s.forward({ ...q, path: "/v1/prices", url: new URL("/v1/prices", "http://proxy") })
        : q,
  },
  {
    id: "ratelimit-headers-on-401",
    decision: "D-AUTH-ORDER",
    breaks: "Authentication runs before the rate limit: a 401 carries no RateLimit-* headers",
    expect: "unauthenticated-no-ratelimit-headers",
    only: ["auth-invalid-key-401", "unauthenticated-no-ratelimit-headers"],
    response: (_q, res) =>
      res.status === 401
        ? {
            ...res,
            headers: { ...res.headers, "ratelimit-limit": "5", "ratelimit-remaining": "4", "ratelimit-reset": "1" },
          }
        : res,
  },
  {
    id: "price-float-noise",
    rows: ["prices.exact-decimals"],
    breaks: "Prices are exact decimals (at most 6 fractional digits)",
    expect: "money-six-decimals",
    only: ["money-six-decimals"],
    response: (q, res) =>
      q.url.pathname === "/v1/prices" && res.status === 200
        ? json(res, {
            ...res.json,
            data: {
              ...res.json.data,
              prices: { ...res.json.data.prices, mention: res.json.data.prices.mention + 0.1 + 0.2 - 0.3 },
            },
          })
        : res,
  },
  {
    id: "body-limit-400",
    decision: "D-BODY-LIMIT",
    breaks: "A body over 1 MiB is 413 payload_too_large (D-BODY-LIMIT)",
    expect: "body-limit-413",
    response: (_q, res) =>
      res.status === 413
        ? json(
            res,
            {
              status: "client_error",
              error_code: "bad_request",
              detail: "Injected by the mutation proxy.",
              transient: false,
            },
            400,
          )
        : res,
  },
  {
    id: "content-type-ignored",
    decision: "D-CONTENT-TYPE",
    breaks: "A JSON body sent as text/plain is 415 unsupported_media_type (D-CONTENT-TYPE)",
    expect: "content-type-415",
    // the server never sees the declared type: the body is treated as JSON
    request: (q) =>
      q.body !== undefined && /^text\/plain/i.test(q.headers["content-type"] ?? "")
        ? { ...q, headers: { ...q.headers, "content-type": "application/json" } }
        : q,
  },
  {
    id: "me-usage-total-off",
    decision: "D-ME-USAGE",
    breaks: "usage.balance + usage.balance_used == usage.balance_total (D-ME-USAGE)",
    expect: "me-usage-adds-up",
    response: (q, res) => {
      const total = res.json?.data?.usage?.balance_total;
      if (q.method !== "GET" || q.url.pathname !== "/v1/me" || res.status !== 200 || total === undefined) return res;
      const body = structuredClone(res.json);
      // one cent more than the period's funds: the three no longer add up
      body.data.usage.balance_total =
        typeof total === "number"
          ? Math.round((total + 0.01) * 1e6) / 1e6
          : new Decimal(String(total)).plus("0.01").toFixed(6);
      return json(res, body);
    },
  },
  // a control: the lenient rule must not fail the kit
  {
    id: "control-422-envelope",
    breaks: "(none: a 422 envelope with unprocessable_entity is accepted with a warning, D-UNPROCESSABLE)",
    expect: "invalid-request-rejected",
    control: true,
    response: (_q, res) =>
      res.status === 422 && Array.isArray(res.json?.detail)
        ? json(res, {
            status: "client_error",
            error_code: "unprocessable_entity",
            detail: "Invalid request.",
            transient: false,
          })
        : res,
  },
  // a control: the lenient rule must not fail the kit
  {
    id: "control-status-string-info",
    breaks: '(none: 2xx status "info" is accepted with a warning)',
    expect: "status-string-mapping",
    control: true,
    response: (_q, res) =>
      ok2xx(res) && res.json?.status === "success" ? json(res, { ...res.json, status: "info" }) : res,
  },
  // the other groups, mention sorts and filters, usage history (faults-groups.ts)
  ...groupFaults,
  // the MCP surface (faults-mcp.ts)
  ...mcpFaults,
  // seed rules the ledger judges with checks of their own (faults-seed-*.ts)
  ...seedRequestsFaults,
  ...seedDefaultsFaults,
  ...seedCodesFaults,
  ...seedDataFaults,
  ...transportFaults,
  ...kitRequestsFaults,
  ...kitListsFaults,
  ...kitMoneyFaults,
  ...kitGroupsFaults,
];
