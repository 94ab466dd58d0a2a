// One idea, kept long on purpose: a table of single-rule faults, one entry per
// fault, in the groups beyond datasets (audiences, previews, patterns, custom
// parameters, tracking agents, ask and chats) and in mention sorts, filters
// and usage history. Each breaks one documented rule; the named check must
// fail when the whole kit runs behind it.
import {
  json,
  memoNumber,
  memoResponse,
  type Body,
  type Fault,
  type ProxyRequest,
  type ProxyResponse,
  type ProxyState,
} from "./proxy.ts";

const P = (q: ProxyRequest) => q.url.pathname;
const is = (q: ProxyRequest, method: string, re: RegExp) => q.method === method && re.test(P(q));
const ok = (r: ProxyResponse) => r.status >= 200 && r.status < 300;
const err = (res: ProxyResponse, status: number, code: string, transient = false) =>
  json(
    res,
    {
      status: status >= 500 ? "server_error" : "client_error",
      error_code: code,
      detail: "Injected by the mutation proxy.",
      transient,
    },
    status,
  );
const body = (q: ProxyRequest): Body => {
  try {
    return q.body ? JSON.parse(q.body) : undefined;
  } catch {
    return undefined;
  }
};
const withData = (res: ProxyResponse, f: (d: Body) => unknown): ProxyResponse =>
  json(res, { ...res.json, data: f(structuredClone(res.json.data)) });

/** A balance offset applied to every GET /v1/me while `key` is set in the memo (a reservation or charge that is off). */
function shifted(q: ProxyRequest, res: ProxyResponse, s: ProxyState, key: string): ProxyResponse {
  const delta = memoNumber(s, key);
  // only the main key's balance: the fault stays a single-rule fault of the account under test
  if (
    !delta ||
    q.key !== s.keys.main ||
    !is(q, "GET", /^\/v1\/me$/) ||
    res.status !== 200 ||
    typeof res.json?.data?.usage?.balance !== "number"
  )
    return res;
  return withData(res, (d) => ({
    ...d,
    usage: { ...d.usage, balance: Math.round((d.usage.balance + delta) * 1e6) / 1e6 },
  }));
}

/** Add `delta` to the offset `key` the first time this run is seen completed (each settled run is off by it). */
function onceCompleted(q: ProxyRequest, res: ProxyResponse, s: ProxyState, key: string, delta: number): void {
  if (q.method !== "GET" || res.json?.data?.status?.type !== "completed" || s.memo.get(`seen-${key}-${P(q)}`)) return;
  s.memo.set(`seen-${key}-${P(q)}`, true);
  s.memo.set(key, memoNumber(s, key) + delta);
}

const AUD_RUNS = /^\/v1\/audience_datasets\/[^/]+\/runs$/;
const AUD_RUN = /^\/v1\/audience_datasets\/[^/]+\/runs\/[^/]+$/;
const PREVIEWS = /^\/v1\/research_previews$/;
const PREVIEW = /^\/v1\/research_previews\/[^/]+$/;
const PDR = /^\/v1\/pattern_detections\/[^/]+$/;
const ITEM = /^\/v1\/patterns\/[^/]+\/items\/[^/]+$/;
const CP = /^\/v1\/custom_parameters$/;
const CP_ONE = /^\/v1\/custom_parameters\/cp[^/]*$/;
const CP_RUNS = /^\/v1\/custom_parameters\/[^/]+\/runs$/;
const CP_RUN = /^\/v1\/custom_parameters\/[^/]+\/runs\/[^/]+$/;
const TA_ONE = /^\/v1\/tracking_agents\/[^/]+$/;
const MESSAGE = /^\/v1\/chats\/[^/]+\/messages\/[^/]+$/;
const CHAT_ANY = /^\/v1\/chats\/[^/]+/;
const terminal = (d: Body) => ["completed", "failed"].includes(d?.status?.type);

/** A completed assistant message's text and references, rewritten. */
const message = (f: (d: Body) => unknown) => (q: ProxyRequest, res: ProxyResponse) =>
  is(q, "GET", MESSAGE) && res.status === 200 && res.json?.data?.status === "completed" ? withData(res, f) : res;
const postRefs = (d: Body) => (d.references ?? []).filter((r: Body) => r?.type === "post");

export const groupFaults: Fault[] = [
  {
    id: "mention-search-charged",
    rows: ["charges.reads-free"],
    breaks: "Reads are free (this deployment takes a cent per mention search)",
    expect: "reads-free",
    request: (q, s) => {
      if (q.method === "POST" && q.url.pathname === "/v1/mentions")
        s.memo.set("read-charge", memoNumber(s, "read-charge") + 0.01);
      return q;
    },
    response: (q, res, s) => {
      const charged = memoNumber(s, "read-charge");
      if (q.method !== "GET" || q.url.pathname !== "/v1/me" || res.status !== 200 || !charged) return res;
      const body = structuredClone(res.json);
      if (typeof body?.data?.usage?.balance !== "number") return res;
      body.data.usage.balance = Math.round((body.data.usage.balance - charged) * 1e6) / 1e6;
      return json(res, body);
    },
  },
  {
    id: "dataset-pool-replaced",
    rows: ["datasets.runs.mentions-pool"],
    breaks:
      "Mentions live across runs (this deployment lists only the posts a dataset gained since it was last listed)",
    expect: "dataset-mentions-pool",
    response: (q, res, s) => {
      if (q.method !== "POST" || q.url.pathname !== "/v1/mentions" || res.status !== 200 || !q.body) return res;
      let ids: unknown;
      try {
        ids = (JSON.parse(q.body) as { dataset_ids?: unknown }).dataset_ids;
      } catch {
        return res;
      }
      const rows = res.json?.data as Array<{ source?: string; id?: string }> | undefined;
      if (!Array.isArray(ids) || ids.length !== 1 || !Array.isArray(rows)) return res;
      const key = `pool:${String(ids[0])}`;
      const seen = s.memo.get(key) as Set<string> | undefined;
      const keys = rows.map((m) => `${m.source}:${m.id}`);
      if (!seen) {
        s.memo.set(key, new Set(keys));
        return res;
      }
      // once new posts arrive, the earlier ones are gone
      const fresh = rows.filter((_, i) => !seen.has(keys[i]!));
      return fresh.length ? json(res, { ...res.json, data: fresh }) : res;
    },
  },
  {
    id: "aud-below-minimum-wrong-code",
    rows: ["audience-datasets.runs.insufficient-mentions"],
    breaks: "A source below the 5-post minimum (and no other rule) is 400 audience_insufficient_source_mentions",
    expect: "audience-run-codes-in-order",
    response: (q, res) =>
      q.method === "POST" &&
      /^\/v1\/audience_datasets\/[^/]+\/runs$/.test(q.url.pathname) &&
      res.json?.error_code === "audience_insufficient_source_mentions"
        ? json(res, { ...res.json, error_code: "source_dataset_has_no_completed_run" })
        : res,
  },
  {
    id: "dataset-patch-writes-counts",
    rows: ["datasets.update.only-name"],
    breaks: "name is the only updatable field of a dataset (this deployment stores mentions_count from a PATCH)",
    expect: "patch-semantics",
    request: (q, s) => {
      const m = /^\/v1\/datasets\/([^/]+)$/.exec(q.url.pathname);
      if (q.method === "PATCH" && m && q.body?.includes("mentions_count")) {
        const b = JSON.parse(q.body) as { mentions_count?: unknown };
        s.memo.set(`count:${m[1]}`, b.mentions_count);
      }
      return q;
    },
    response: (q, res, s) => {
      const m = /^\/v1\/datasets\/([^/]+)$/.exec(q.url.pathname);
      const count = m ? s.memo.get(`count:${m[1]}`) : undefined;
      return q.method === "GET" && count !== undefined && res.status === 200
        ? json(res, { ...res.json, data: { ...res.json.data, mentions_count: count } })
        : res;
    },
  },
  {
    id: "ratelimit-cap-three",
    rows: ["rate-limit.five-per-second"],
    breaks: "The rate cap is 5 requests per second (this deployment advertises 3)",
    expect: "rate-limit-headers",
    response: (_q, res) => {
      const remaining = res.headers["ratelimit-remaining"];
      if (!res.headers["ratelimit-limit"] || remaining === undefined) return res;
      const r = String(Math.min(Number(remaining), 3));
      return { ...res, headers: { ...res.headers, "ratelimit-limit": "3", "ratelimit-remaining": r } };
    },
  },
  {
    id: "agent-resume-forgets-feed",
    rows: ["tracking-agent.resume-keeps-history"],
    breaks: "A resumed agent keeps its alert history (this deployment lists an empty feed after a resume)",
    expect: "tracking-agent-feed-newest-first",
    request: (q, s) => {
      if (q.method === "POST" && /^\/v1\/tracking_agents\/[^/]+\/resume$/.test(q.url.pathname))
        s.memo.set(`resumed:${q.url.pathname.split("/")[3]}`, true);
      return q;
    },
    response: (q, res, s) => {
      const m = /^\/v1\/tracking_agents\/([^/]+)\/messages$/.exec(q.url.pathname);
      return q.method === "GET" && m && s.memo.get(`resumed:${m[1]}`) && res.status === 200
        ? json(res, { ...res.json, data: [], has_next: false, cursor: null })
        : res;
    },
  },
  {
    id: "mention-filter-groups-anded",
    rows: ["mentions.filters.or-and"],
    breaks: "Filter groups of a mention search are OR-ed (this deployment AND-s them all)",
    expect: "mentions-filters-applied",
    request: (q) => {
      if (q.method !== "POST" || q.url.pathname !== "/v1/mentions" || !q.body) return q;
      let b: { filters?: unknown[][] };
      try {
        b = JSON.parse(q.body) as { filters?: unknown[][] };
      } catch {
        return q;
      }
      if (!Array.isArray(b.filters) || b.filters.length < 2 || !b.filters.every(Array.isArray)) return q;
      return { ...q, body: JSON.stringify({ ...b, filters: [b.filters.flat()] }) };
    },
  },
  {
    id: "plan-rate-off-table",
    rows: ["charges.plans"],
    breaks: "A Pro account is billed at the Pro rate of the seed's plan table (0.0356)",
    expect: "plan-table-rates",
    response: (q, res) =>
      q.method === "GET" &&
      q.url.pathname === "/v1/prices" &&
      res.status === 200 &&
      typeof res.json?.data?.rate === "number"
        ? json(res, { ...res.json, data: { ...res.json.data, rate: res.json.data.rate * 2 } })
        : res,
  },
  // ---- audiences --------------------------------------------------------------------
  {
    id: "aud-unknown-source-400",
    decision: "D-AUD-RUN-SOURCE-404",
    breaks: "An unknown source dataset on audience run creation is 404 dataset_not_found",
    expect: "audience-run-codes-in-order",
    response: (q, res) =>
      is(q, "POST", AUD_RUNS) && res.status === 404 && res.json?.error_code === "dataset_not_found"
        ? err(res, 400, "bad_request")
        : res,
  },
  {
    id: "aud-no-completed-run-insufficient",
    rows: ["errors.400-codes"],
    breaks: "A source without a completed run is 400 source_dataset_has_no_completed_run",
    expect: "audience-run-codes-in-order",
    response: (q, res) =>
      is(q, "POST", AUD_RUNS) && res.json?.error_code === "source_dataset_has_no_completed_run"
        ? err(res, 402, "insufficient_credits_audience_dataset_run")
        : res,
  },
  {
    id: "aud-in-flight-400",
    rows: ["audience-run.409-while-in-flight"],
    breaks: "A second audience run while one is in flight is 409 audience_dataset_run_already_in_flight",
    expect: "audience-run-409-in-flight",
    response: (q, res) => (is(q, "POST", AUD_RUNS) && res.status === 409 ? err(res, 400, "bad_request") : res),
  },
  {
    id: "aud-409-transient",
    rows: ["audience-datasets.runs.409-transient-false"],
    breaks: "A 409 body says transient false",
    expect: "audience-run-409-in-flight",
    response: (q, res) =>
      is(q, "POST", AUD_RUNS) && res.status === 409 ? json(res, { ...res.json, transient: true }) : res,
  },
  {
    id: "aud-reservation-short",
    rows: ["charges.audience-profile", "charges.reservation-before-work"],
    breaks: "Starting an audience run reserves total_profile_count × price",
    expect: "audience-profile-billing",
    response: (q, res, s) => {
      if (is(q, "POST", AUD_RUNS) && res.status === 202) s.memo.set("aud-res", 0.01);
      if (is(q, "GET", AUD_RUN) && terminal(res.json?.data)) s.memo.delete("aud-res");
      return shifted(q, res, s, "aud-res");
    },
  },
  {
    id: "aud-settles-a-cent-more",
    rows: ["charges.audience-profile", "charges.refund-to-actuals"],
    breaks: "A completed audience run charges profile_count × price exactly",
    expect: "audience-profile-billing",
    response: (q, res, s) => {
      // a cent more for every audience run seen completed (the first sighting of each run)
      if (is(q, "GET", AUD_RUN) && res.json?.data?.status?.type === "completed" && !s.memo.get(`seen-${P(q)}`)) {
        s.memo.set(`seen-${P(q)}`, true);
        s.memo.set("aud-settle", memoNumber(s, "aud-settle") - 0.01);
      }
      return shifted(q, res, s, "aud-settle");
    },
  },
  {
    id: "aud-usage-row-missing",
    decision: "D-USAGE-SIGN",
    breaks: "Usage history shows each audience_profile charge",
    expect: "audience-profile-billing",
    response: (q, res) =>
      is(q, "GET", /^\/v1\/me\/usage_history$/) && Array.isArray(res.json?.data)
        ? withData(res, (rows) => rows.filter((r: Body) => r.category !== "audience_profile"))
        : res,
  },
  {
    id: "aud-profiles-gone-with-source",
    rows: ["audience-datasets.runs.source-deleted"],
    breaks: "Profiles stay readable after their source dataset is deleted",
    expect: "audience-profiles-after-source-delete",
    response: (q, res, s) => {
      if (q.method === "DELETE" && /^\/v1\/datasets\/[^/]+$/.test(P(q)) && res.status === 204)
        s.memo.set("source-deleted", true);
      return is(q, "POST", /^\/v1\/audience_profiles$/) && s.memo.get("source-deleted") && res.status === 200
        ? json(res, { ...res.json, data: [], has_next: false, cursor: null })
        : res;
    },
  },
  {
    id: "aud-deleted-source-accepted-code",
    decision: "D-AUD-RUN-SOURCE-404",
    breaks: "A new run on a deleted source is 404 dataset_not_found",
    expect: "audience-profiles-after-source-delete",
    response: (q, res, s) => {
      if (q.method === "DELETE" && /^\/v1\/datasets\/[^/]+$/.test(P(q)) && res.status === 204)
        s.memo.set("source-deleted", true);
      return is(q, "POST", AUD_RUNS) && s.memo.get("source-deleted") && res.status === 404
        ? err(res, 400, "source_dataset_has_no_completed_run")
        : res;
    },
  },
  {
    id: "aud-profile-count-over-target",
    decision: "D-AUD-RUN-COUNTS",
    breaks: "An audience run never counts more profiles than its target",
    expect: "audience-run-state-machine",
    response: (q, res) =>
      is(q, "GET", AUD_RUN) && res.status === 200 && res.json?.data?.status?.type === "completed"
        ? withData(res, (d) => ({ ...d, profile_count: d.target_profile_count + 1 }))
        : res,
  },
  {
    id: "aud-completed-run-moves-back",
    rows: ["audience-run.states", "dataset-run.states"],
    breaks: "A terminal audience run never changes state",
    expect: "audience-run-state-machine",
    response: (q, res, s) => {
      if (!is(q, "GET", AUD_RUN) || res.json?.data?.status?.type !== "completed") return res;
      const k = `aud-done-${P(q)}`;
      if (!s.memo.get(k)) {
        s.memo.set(k, true);
        return res;
      }
      return withData(res, (d) => ({ ...d, status: { ...d.status, type: "working" } }));
    },
  },
  // ---- research previews ------------------------------------------------------------
  {
    id: "preview-prompt-charges-extra",
    rows: ["charges.preview-generation", "charges.prompt-preview"],
    breaks: "A prompt preview charges one preview_generation per source",
    expect: "preview-charge-per-source",
    response: (q, res, s) => {
      if (is(q, "POST", PREVIEWS) && res.status === 201 && res.json?.data?.type === "prompt")
        s.memo.set("pv-extra", -0.01);
      return shifted(q, res, s, "pv-extra");
    },
  },
  {
    id: "preview-url-charges-refused-urls",
    rows: ["charges.url-preview"],
    breaks: "A URL preview refunds private, non-existing and failed URLs",
    expect: "preview-url-charge-per-returning-url",
    response: (q, res, s) => {
      const d = res.json?.data;
      if (is(q, "POST", PREVIEWS) && res.status === 201 && d?.type === "url")
        s.memo.set(
          "pv-url",
          -0.049 *
            (d.private_profiles.length + d.non_existing_profiles.length + d.failed_to_retrieve_profiles.length || 1),
        );
      return shifted(q, res, s, "pv-url");
    },
  },
  {
    id: "preview-url-listed-twice",
    decision: "D-PREVIEW-URL-LISTS",
    breaks: "Each requested URL is in exactly one result list",
    expect: "preview-url-charge-per-returning-url",
    response: (q, res) =>
      is(q, "POST", PREVIEWS) && res.status === 201 && res.json?.data?.type === "url"
        ? withData(res, (d) => ({
            ...d,
            failed_to_retrieve_profiles: [
              ...d.failed_to_retrieve_profiles,
              ...d.private_profiles,
              ...d.profiles.map((p: Body) => p.url).slice(0, 1),
            ],
          }))
        : res,
  },
  {
    id: "preview-reread-rescraped",
    rows: ["previews.create.persisted", "previews.read"],
    breaks: "Re-reading a preview returns the stored sample",
    expect: "preview-reread-free",
    response: (q, res) =>
      is(q, "GET", PREVIEW) && res.status === 200 && typeof res.json?.data?.estimated_number_of_results === "number"
        ? withData(res, (d) => ({ ...d, estimated_number_of_results: d.estimated_number_of_results + 7 }))
        : res,
  },
  {
    id: "preview-reread-charged",
    rows: ["previews.read"],
    breaks: "Re-reading a preview is free",
    expect: "preview-reread-free",
    response: (q, res, s) => {
      if (is(q, "GET", PREVIEW) && res.status === 200) s.memo.set("pv-read", memoNumber(s, "pv-read") - 0.049);
      return shifted(q, res, s, "pv-read");
    },
  },
  {
    id: "preview-foreign-readable",
    rows: ["previews.read"],
    breaks: "A preview of another account is 404",
    expect: "preview-reread-free",
    request: (q, s) =>
      is(q, "GET", PREVIEW) && q.key === s.keys.foreign
        ? { ...q, key: s.keys.main, headers: { ...q.headers, "x-api-key": s.keys.main! } }
        : q,
  },
  {
    id: "preview-402-as-400",
    rows: ["previews.create.402"],
    breaks: "An unfundable preview is 402 insufficient_credits_research_preview",
    expect: "preview-402-before-work",
    response: (q, res) => (is(q, "POST", PREVIEWS) && res.status === 402 ? err(res, 400, "bad_request") : res),
  },
  {
    id: "preview-402-required-wrong",
    decision: "D-402-AMOUNTS",
    breaks: "A preview 402 states required = URLs × price",
    expect: "preview-402-before-work",
    response: (q, res) =>
      is(q, "POST", PREVIEWS) && res.status === 402 && res.json?.detail?.required
        ? json(res, { ...res.json, detail: { ...res.json.detail, required: "1.000000" } })
        : res,
  },
  {
    id: "preview-future-since-accepted",
    decision: "D-PREVIEW-FUTURE",
    breaks: "A preview window starting in the future is 422",
    expect: "preview-future-window",
    request: (q) => {
      const b = body(q);
      const today = new Date().toISOString().slice(0, 10);
      if (!is(q, "POST", PREVIEWS) || !b?.date_since || b.date_since <= today) return q;
      return { ...q, body: JSON.stringify({ ...b, date_since: today }) };
    },
  },
  // ---- pattern detections -----------------------------------------------------------
  {
    id: "pattern-reserves-extra",
    rows: ["charges.post-processing.pattern", "charges.reservation-before-work"],
    breaks: "A detection reserves the latest completed run's posts × price",
    expect: "pattern-detection-billing-latest-run",
    response: (q, res, s) => {
      if (is(q, "POST", /^\/v1\/pattern_detections$/) && res.status === 202) s.memo.set("pd-res", -0.0178);
      if (is(q, "GET", PDR) && terminal(res.json?.data)) s.memo.delete("pd-res");
      return shifted(q, res, s, "pd-res");
    },
  },
  {
    id: "pattern-settles-a-cent-more",
    rows: ["charges.post-processing.pattern"],
    breaks: "A completed detection charges the reserved posts exactly",
    expect: "pattern-detection-billing-latest-run",
    response: (q, res, s) => {
      if (PDR.test(P(q))) onceCompleted(q, res, s, "pd-settle", -0.01);
      return shifted(q, res, s, "pd-settle");
    },
  },
  {
    id: "pattern-item-drops-a-post",
    rows: ["pattern.items"],
    breaks: "An item's expansion lists post_count posts",
    expect: "pattern-item-post-count",
    response: (q, res) =>
      is(q, "GET", ITEM) && res.status === 200 && res.json?.data?.post_refs?.length > 0
        ? withData(res, (d) => ({ ...d, post_refs: d.post_refs.slice(0, -1) }))
        : res,
  },
  {
    id: "pattern-unknown-item-200",
    rows: ["service.scope.foreign-404"],
    breaks: "An unknown item of a pattern is 404",
    expect: "pattern-item-post-count",
    response: (q, res) =>
      is(q, "GET", ITEM) && res.status === 404
        ? json(
            res,
            { status: "success", data: { item_id: "x", title: "x", synopsis: "x", post_count: 0, post_refs: [] } },
            200,
          )
        : res,
  },
  {
    id: "pattern-assignment-unknown-item",
    rows: ["mention.pattern-assignments"],
    breaks: "pattern_assignments point at real items",
    expect: "pattern-assignments-real-items",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/mentions$/) && Array.isArray(res.json?.data)
        ? withData(res, (ms) =>
            ms.map((m: Body) => ({
              ...m,
              pattern_assignments: Object.fromEntries(
                Object.entries<Body>(m.pattern_assignments ?? {}).map(([k, v]) => [
                  k,
                  v.map((a: Body) => ({ ...a, pattern_item_id: `${a.pattern_item_id}_x` })),
                ]),
              ),
            })),
          )
        : res,
  },
  {
    id: "pattern-completed-without-id",
    rows: ["pattern-detection-run.pattern-id-when-completed"],
    breaks: "A completed detection carries pattern_id",
    expect: "pattern-detection-run-state-machine",
    response: (q, res) =>
      is(q, "GET", PDR) && res.json?.data?.status?.type === "completed"
        ? withData(res, ({ pattern_id: _p, ...d }) => d)
        : res,
  },
  {
    id: "pattern-unknown-dataset-400",
    rows: ["pattern-detections.create.404"],
    breaks: "A detection on an unknown dataset is 404 dataset_not_found",
    expect: "pattern-detection-codes",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/pattern_detections$/) && res.status === 404 ? err(res, 400, "nothing_to_analyze") : res,
  },
  {
    id: "pattern-steps-go-back",
    decision: "D-PDR-STATES",
    breaks: "Step timestamps of a detection never go back",
    expect: "pattern-detection-run-state-machine",
    response: (q, res) => {
      const steps = res.json?.data?.status?.steps;
      if (!is(q, "GET", PDR) || !Array.isArray(steps) || steps.length < 2) return res;
      return withData(res, (d) => ({
        ...d,
        status: {
          ...d.status,
          steps: d.status.steps.map((st: Body, i: number) => ({ ...st, completed_at: st.completed_at - i * 100 })),
        },
      }));
    },
  },
  // ---- custom parameters ------------------------------------------------------------
  {
    id: "cp-blank-name-accepted",
    decision: "D-CP-NAME",
    breaks: "A blank custom parameter name is 400 custom_parameter_empty_name",
    expect: "custom-parameter-name-rules",
    request: (q) => {
      const b = body(q);
      return is(q, "POST", CP) && typeof b?.name === "string" && b.name.length > 0 && b.name.trim() === ""
        ? { ...q, body: JSON.stringify({ ...b, name: `blank-${Date.now()}-${Math.random()}` }) }
        : q;
    },
  },
  {
    id: "cp-duplicate-400",
    rows: ["custom-parameter.name-required-unique", "custom-parameters.create.name-errors"],
    breaks: "A duplicate custom parameter name is 409",
    expect: "custom-parameter-name-rules",
    response: (q, res) =>
      res.json?.error_code === "custom_parameter_duplicate_name" ? err(res, 400, "bad_request") : res,
  },
  {
    id: "cp-empty-name-409",
    decision: "D-400",
    breaks: "An empty custom parameter name is 400",
    expect: "custom-parameter-name-rules",
    response: (q, res) =>
      res.json?.error_code === "custom_parameter_empty_name" ? err(res, 409, "custom_parameter_empty_name") : res,
  },
  {
    id: "cp-preview-charged",
    rows: ["custom-parameters.preview"],
    breaks: "A custom parameter preview is free",
    expect: "custom-parameter-preview-free",
    response: (q, res, s) => {
      if (is(q, "POST", /^\/v1\/custom_parameters\/preview$/) && res.status === 200) s.memo.set("cp-pv", -0.0178);
      return shifted(q, res, s, "cp-pv");
    },
  },
  {
    id: "cp-preview-drops-a-result",
    rows: ["custom-parameters.preview"],
    breaks: "A preview answers one result per post_ref",
    expect: "custom-parameter-preview-free",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/custom_parameters\/preview$/) && res.status === 200
        ? withData(res, (d) => ({ ...d, results: d.results.slice(1) }))
        : res,
  },
  {
    id: "cp-counters-do-not-add-up",
    rows: ["custom-parameter-run.complete-when-sum"],
    breaks: "A completed run has done + error = total",
    expect: "custom-parameter-run-counters",
    response: (q, res) =>
      is(q, "GET", CP_RUN) && res.json?.data?.status?.type === "completed"
        ? withData(res, (d) => ({ ...d, mentions_total: d.mentions_total + 1 }))
        : res,
  },
  {
    id: "cp-reservation-short",
    rows: ["charges.post-processing.custom-parameter", "charges.reservation-before-work"],
    breaks: "A custom parameter run reserves the dataset's mentions × price",
    expect: "custom-parameter-run-counters",
    response: (q, res, s) => {
      if (is(q, "POST", CP_RUNS) && res.status === 202) s.memo.set("cp-res", 0.0178);
      if (is(q, "GET", CP_RUN) && terminal(res.json?.data)) s.memo.delete("cp-res");
      return shifted(q, res, s, "cp-res");
    },
  },
  {
    id: "cp-errors-charged",
    rows: ["charges.post-processing.custom-parameter", "charges.refund-to-actuals"],
    breaks: "A custom parameter run without errors charges mentions_done × price, exactly",
    expect: "custom-parameter-run-counters",
    response: (q, res, s) => {
      if (CP_RUN.test(P(q))) onceCompleted(q, res, s, "cp-settle", -0.0178);
      return shifted(q, res, s, "cp-settle");
    },
  },
  {
    id: "cp-values-missing",
    rows: ["mention.parameters", "mentions.parameter-ids"],
    breaks: "parameter_ids returns each mention's extracted value",
    expect: "custom-parameter-values-via-parameter-ids",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/mentions$/) && body(q)?.parameter_ids?.length && Array.isArray(res.json?.data)
        ? withData(res, (ms) => ms.map((m: Body) => ({ ...m, parameters: {} })))
        : res,
  },
  {
    id: "cp-values-unasked",
    decision: "D-MENTION-PARAMETERS",
    breaks: "Mentions carry no parameters that were not asked for",
    expect: "custom-parameter-values-via-parameter-ids",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/mentions$/) && !body(q)?.parameter_ids && Array.isArray(res.json?.data)
        ? withData(res, (ms) =>
            ms.map((m: Body) => ({
              ...m,
              parameters: { cp_injected: { value: "x", status: "completed", computed_at: 1 } },
            })),
          )
        : res,
  },
  {
    id: "cp-in-flight-400",
    rows: ["custom-parameters.runs.codes", "limits.custom-parameter-in-flight"],
    breaks: "A second run while one is processing is 409 custom_parameter_run_in_flight",
    expect: "custom-parameter-run-409-in-flight",
    response: (q, res) => (is(q, "POST", CP_RUNS) && res.status === 409 ? err(res, 400, "nothing_to_analyze") : res),
  },
  {
    id: "cp-completed-run-moves-back",
    decision: "D-RUN-STATES",
    breaks: "A terminal custom parameter run never changes state",
    expect: "custom-parameter-run-state-machine",
    response: (q, res, s) => {
      if (!is(q, "GET", CP_RUN) || res.json?.data?.status?.type !== "completed") return res;
      const k = `cp-done-${P(q)}`;
      if (!s.memo.get(k)) {
        s.memo.set(k, true);
        return res;
      }
      return withData(res, (d) => ({ ...d, status: { type: "processing" } }));
    },
  },
  {
    id: "cp-run-unknown-dataset-400",
    decision: "D-CPR-SCOPE-404",
    breaks: "A custom parameter run scoped to an unknown dataset is 404 dataset_not_found",
    expect: "custom-parameter-run-codes",
    response: (q, res) =>
      is(q, "POST", CP_RUNS) && res.status === 404 && res.json?.error_code === "dataset_not_found"
        ? err(res, 400, "nothing_to_analyze")
        : res,
  },
  {
    id: "cp-run-empty-dataset-402",
    rows: ["custom-parameters.runs.codes"],
    breaks: "A run on a dataset without mentions is 400 nothing_to_analyze",
    expect: "custom-parameter-run-codes",
    response: (q, res) =>
      is(q, "POST", CP_RUNS) && res.json?.error_code === "nothing_to_analyze"
        ? err(res, 402, "insufficient_credits_content_analysis")
        : res,
  },
  {
    id: "cp-deleted-name-still-taken",
    rows: ["custom-parameter.name-required-unique"],
    breaks: "Deleting a parameter frees its name",
    expect: "custom-parameter-delete-frees-name",
    request: async (q, s) => {
      if (q.method === "DELETE" && CP_ONE.test(P(q)))
        s.memo.set("cp-deleted-name", (await s.forward({ ...q, method: "GET", body: undefined })).json?.data?.name);
      return q;
    },
    response: (q, res, s) =>
      is(q, "POST", CP) && res.status === 201 && body(q)?.name === s.memo.get("cp-deleted-name")
        ? err(res, 409, "custom_parameter_duplicate_name")
        : res,
  },
  {
    id: "cp-delete-200",
    rows: ["custom-parameters.delete"],
    breaks: "Deleting a custom parameter answers 204",
    expect: "empty-body-204",
    response: (q, res) =>
      q.method === "DELETE" && CP_ONE.test(P(q)) && res.status === 204
        ? json(res, { status: "success", data: null }, 200)
        : res,
  },
  // ---- tracking agents --------------------------------------------------------------
  {
    id: "ta-paused-keeps-next-run",
    decision: "D-TA-NEXT-RUN",
    breaks: "A paused agent has next_run_at null",
    expect: "tracking-agent-pause-resume",
    response: (q, res) =>
      is(q, "GET", TA_ONE) && res.json?.data?.paused === true
        ? withData(res, (d) => ({ ...d, next_run_at: d.created_at + 86400 }))
        : res,
  },
  {
    id: "ta-patch-ignores-schedule",
    rows: ["tracking-agent.schedule", "tracking-agents.update"],
    breaks: "PATCH replaces the agent's schedule",
    expect: "tracking-agent-patch",
    request: (q) => {
      const b = body(q);
      if (q.method !== "PATCH" || !TA_ONE.test(P(q)) || !b?.schedule) return q;
      const { schedule: _s, ...rest } = b;
      return { ...q, body: JSON.stringify(rest) };
    },
  },
  {
    id: "ta-pause-200-with-body",
    rows: ["tracking-agents.pause-resume.empty"],
    breaks: "Pause answers 204 with an empty body",
    expect: "tracking-agent-pause-resume",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/tracking_agents\/[^/]+\/pause$/) && res.status === 204
        ? json(res, { status: "success", data: null }, 200)
        : res,
  },
  {
    id: "ta-resume-ignored",
    rows: ["tracking-agent.resume"],
    breaks: "Resume makes the agent active again",
    expect: "tracking-agent-pause-resume",
    request: (q) =>
      is(q, "POST", /^\/v1\/tracking_agents\/[^/]+\/resume$/)
        ? {
            ...q,
            path: q.path.replace(/\/resume$/, "/pause"),
            url: new URL(q.url.pathname.replace(/\/resume$/, "/pause"), q.url),
          }
        : q,
  },
  {
    id: "ta-trigger-in-progress-400",
    rows: ["tracking-agents.trigger.codes", "limits.tracking-run-in-progress"],
    breaks: "A trigger while a cycle runs is 409 tracking_agent_run_in_progress",
    expect: "tracking-agent-trigger-202-then-409",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/tracking_agents\/[^/]+\/trigger$/) && res.status === 409
        ? err(res, 400, "dataset_has_no_queries")
        : res,
  },
  {
    id: "ta-run-status-running",
    rows: ["agent-run.fields", "tracking-agent.trigger", "tracking-agents.trigger"],
    breaks: "A new agent run is in_progress",
    expect: "tracking-agent-trigger-202-then-409",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/tracking_agents\/[^/]+\/trigger$/) && res.status === 202
        ? withData(res, (d) => ({ ...d, status: { type: "running" } }))
        : res,
  },
  {
    id: "ta-no-queries-409",
    decision: "D-400",
    breaks: "An agent without queries is 400 dataset_has_no_queries",
    expect: "tracking-agent-no-queries-400",
    response: (q, res) =>
      res.json?.error_code === "dataset_has_no_queries" ? err(res, 409, "dataset_has_no_queries") : res,
  },
  {
    id: "ta-feed-oldest-first",
    rows: ["tracking-agents.messages.newest-first"],
    breaks: "The alert feed is newest first",
    expect: "tracking-agent-feed-newest-first",
    response: (q, res) =>
      is(q, "GET", /^\/v1\/tracking_agents\/[^/]+\/messages$/) && Array.isArray(res.json?.data)
        ? withData(res, (d) => [...d].reverse())
        : res,
  },
  {
    id: "ta-deleted-still-readable",
    decision: "D-TA-DELETE",
    breaks: "A deleted agent is 404",
    expect: "tracking-agent-deleted-hidden",
    request: async (q, s) => {
      if (q.method === "DELETE" && TA_ONE.test(P(q)))
        s.memo.set(`ta-${P(q)}`, await s.forward({ ...q, method: "GET", body: undefined }));
      return q;
    },
    response: (q, res, s) =>
      is(q, "GET", TA_ONE) && res.status === 404 && memoResponse(s, `ta-${P(q)}`)?.status === 200
        ? memoResponse(s, `ta-${P(q)}`)!
        : res,
  },
  {
    id: "ta-deleted-still-listed",
    rows: ["tracking-agent.delete", "tracking-agents.list"],
    breaks: "A deleted agent leaves the list",
    expect: "tracking-agent-deleted-hidden",
    request: async (q, s) => {
      if (q.method === "DELETE" && TA_ONE.test(P(q)))
        s.memo.set("ta-deleted", (await s.forward({ ...q, method: "GET", body: undefined })).json?.data);
      return q;
    },
    response: (q, res, s) =>
      is(q, "GET", /^\/v1\/tracking_agents$/) &&
      Array.isArray(res.json?.data) &&
      s.memo.get("ta-deleted") &&
      !q.url.searchParams.get("cursor")
        ? withData(res, (d) => [s.memo.get("ta-deleted"), ...d])
        : res,
  },
  {
    id: "ta-cycle-reserves-short",
    decision: "D-TA-NO-QUERIES",
    breaks: "A cycle reserves count × price per dataset run",
    expect: "tracking-agent-cycle-billing",
    response: (q, res, s) => {
      if (is(q, "POST", /^\/v1\/tracking_agents\/[^/]+\/trigger$/) && res.status === 202) s.memo.set("ta-res", 0.0356);
      if (is(q, "GET", /^\/v1\/datasets\/[^/]+\/runs\/[^/]+$/) && terminal(res.json?.data)) s.memo.delete("ta-res");
      return shifted(q, res, s, "ta-res");
    },
  },
  // ---- ask and chats ----------------------------------------------------------------
  {
    id: "ask-answers-200",
    rows: ["assistant-turn.states", "ask.202"],
    breaks: "POST /v1/ask answers 202",
    expect: "ask-202-polls-to-completion",
    response: (q, res) => (is(q, "POST", /^\/v1\/ask$/) && res.status === 202 ? { ...res, status: 200 } : res),
  },
  {
    id: "ask-completed-without-references",
    rows: ["chat-message.assistant-references", "assistant-turn.states"],
    breaks: "A completed assistant message carries references[]",
    expect: "ask-202-polls-to-completion",
    response: message(({ references: _r, ...d }) => d),
  },
  {
    id: "ask-unknown-chat-accepted",
    decision: "D-ASK-UNKNOWN-CHAT",
    breaks: "Ask with an unknown chat_id is 404 chat_not_found",
    expect: "ask-202-polls-to-completion",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/ask$/) && res.status === 404 && body(q)?.chat_id?.includes("slkmissing")
        ? json(
            res,
            { status: "success", data: { chat_id: body(q).chat_id, message_id: "msg_injected", status: "working" } },
            202,
          )
        : res,
  },
  {
    id: "chat-messages-order-ignored",
    decision: "D-CHAT-ORDER",
    breaks: "Chat messages honour order=asc",
    expect: "ask-202-polls-to-completion",
    response: (q, res) =>
      is(q, "GET", /^\/v1\/chats\/[^/]+\/messages$/) &&
      q.url.searchParams.get("order") === "asc" &&
      Array.isArray(res.json?.data)
        ? withData(res, (d) => [...d].reverse())
        : res,
  },
  {
    id: "ask-spent-balance-accepted",
    rows: ["ask.402"],
    breaks: "Ask with a spent balance is 402 insufficient_credits_ask",
    expect: "ask-402-creates-nothing",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/ask$/) && res.status === 402
        ? json(
            res,
            { status: "success", data: { chat_id: "ch_injected", message_id: "msg_injected", status: "working" } },
            202,
          )
        : res,
  },
  {
    id: "citation-numbering-starts-at-2",
    rows: ["references.marker-numbering"],
    breaks: "[N] markers count from 1 in order of first appearance",
    expect: "ask-citation-invariants",
    response: message((d) => ({
      ...d,
      text: d.text.replace(/\[(\d+)\]/g, (_: string, n: string) => `[${Number(n) + 1}]`),
      references: d.references.map((r: Body) => (r.type === "post" ? { ...r, citation: r.citation + 1 } : r)),
    })),
  },
  {
    id: "citation-slice-off-by-one",
    rows: ["references.slice"],
    breaks: "start_index/end_index slice exactly the first [N]",
    expect: "ask-citation-invariants",
    response: message((d) => ({
      ...d,
      references: d.references.map((r: Body) =>
        r.type === "post" ? { ...r, start_index: r.start_index + 1, end_index: r.end_index + 1 } : r,
      ),
    })),
  },
  {
    id: "citation-unresolvable-post",
    rows: ["references.post-resolves"],
    breaks: "Every post reference resolves through post_refs",
    expect: "ask-citation-invariants",
    response: message((d) => ({
      ...d,
      references: d.references.map((r: Body) => (r.type === "post" ? { ...r, id: `${r.id}_gone` } : r)),
    })),
  },
  {
    id: "citation-tracking-agent-entity",
    rows: ["references.entity", "references.no-tracking-agent"],
    breaks: "tracking_agent is not a reference type",
    expect: "ask-citation-invariants",
    response: message((d) => ({ ...d, references: [...d.references, { type: "tracking_agent", id: "ta_injected" }] })),
  },
  {
    id: "citation-duplicate-post-reference",
    rows: ["references.post-one-per-post"],
    breaks: "One post reference per cited post",
    expect: "ask-citation-invariants",
    response: message((d) => (postRefs(d).length ? { ...d, references: [...d.references, postRefs(d)[0]] } : d)),
  },
  {
    id: "chat-visible-to-other-seat",
    rows: ["chats.private-to-seat"],
    breaks: "Chats are private to the creating seat",
    expect: "chats-private-to-seat",
    request: (q, s) =>
      q.method === "GET" && CHAT_ANY.test(P(q)) && q.key === s.keys.second
        ? { ...q, key: s.keys.main, headers: { ...q.headers, "x-api-key": s.keys.main! } }
        : q,
  },
  {
    id: "chat-other-seat-403",
    rows: ["chats.private-to-seat"],
    breaks: "Another seat's chat is 404 (existence hidden), never 403",
    expect: "chats-private-to-seat",
    response: (q, res, s) =>
      CHAT_ANY.test(P(q)) && q.key === s.keys.second && res.status === 404 ? err(res, 403, "forbidden") : res,
  },
  // ---- mentions and usage history ---------------------------------------------------
  {
    id: "mentions-sort-ignored",
    rows: ["mentions.sort"],
    breaks: "A mention search honours sort",
    expect: "mentions-sort-applied",
    request: (q) => {
      const b = body(q);
      if (!is(q, "POST", /^\/v1\/mentions$/) || !b?.sort || b.sort === "date") return q;
      const { sort: _s, ...rest } = b;
      return { ...q, body: JSON.stringify(rest) };
    },
  },
  {
    id: "mentions-order-asc-ignored",
    rows: ["mentions.sort"],
    breaks: "A mention search honours order=asc",
    expect: "mentions-sort-applied",
    request: (q) => {
      const b = body(q);
      return is(q, "POST", /^\/v1\/mentions$/) && b?.order === "asc"
        ? { ...q, body: JSON.stringify({ ...b, order: "desc" }) }
        : q;
    },
  },
  {
    id: "mentions-filters-ignored",
    rows: ["mentions.filters.applied"],
    breaks: "A mention search applies its filters",
    expect: "mentions-filters-applied",
    request: (q) => {
      const b = body(q);
      if (!is(q, "POST", /^\/v1\/mentions$/) || !b?.filters) return q;
      const { filters: _f, ...rest } = b;
      return { ...q, body: JSON.stringify(rest) };
    },
  },
  {
    id: "usage-history-oldest-first",
    decision: "D-USAGE-ORDER",
    breaks: "Usage history is newest first",
    expect: "usage-history-newest-first-shared",
    response: (q, res) =>
      is(q, "GET", /^\/v1\/me\/usage_history$/) && Array.isArray(res.json?.data)
        ? withData(res, (d) => [...d].reverse())
        : res,
  },
  {
    id: "usage-history-per-seat",
    rows: ["usage-history.account-wide"],
    breaks: "Every seat sees the same usage history",
    expect: "usage-history-newest-first-shared",
    response: (q, res, s) =>
      is(q, "GET", /^\/v1\/me\/usage_history$/) && q.key === s.keys.second && Array.isArray(res.json?.data)
        ? json(res, { ...res.json, data: res.json.data.slice(1) })
        : res,
  },
  // ---- generic rules over the new groups --------------------------------------------
  {
    id: "audience-dataset-create-200",
    rows: ["audience-datasets.create"],
    breaks: "POST /v1/audience_datasets answers 201",
    expect: "documented-status-only",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/audience_datasets$/) && res.status === 201 ? { ...res, status: 200 } : res,
  },
  {
    id: "audience-run-count-as-string",
    rows: ["audience-run.fields"],
    decision: "D-AUD-RUN-COUNTS",
    breaks: "Audience run bodies match the generated schema",
    expect: "response-schema-conformance",
    response: (q, res) =>
      is(q, "GET", AUD_RUN) && res.status === 200
        ? withData(res, (d) => ({ ...d, profile_count: String(d.profile_count) }))
        : res,
  },
  {
    id: "agent-schedule-time-malformed",
    rows: ["tracking-agent.schedule"],
    breaks: "Tracking agent bodies match the generated schema (time HH:MM)",
    expect: "response-schema-conformance",
    response: (q, res) =>
      is(q, "GET", TA_ONE) && res.status === 200 && res.json?.data?.schedule
        ? withData(res, (d) => ({ ...d, schedule: { ...d.schedule, time: "9h" } }))
        : res,
  },
  {
    id: "unknown-pattern-item-500",
    rows: ["errors.5xx"],
    breaks: "No request gets a 5xx",
    expect: "no-server-errors",
    response: (q, res) =>
      is(q, "GET", ITEM) && res.status === 404 ? err(res, 500, "internal_server_error", true) : res,
  },
];

void ok;
