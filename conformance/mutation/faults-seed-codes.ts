// Single-rule faults for the seed rules the ledger (conformance/src/seed-ledger/)
// judges with the checks added for them: codes. Each breaks one rule the seed
// states; the named check must fail behind it (mutation harness).
import { json, type Fault, type ProxyRequest, type ProxyResponse } from "./proxy.ts";

const AUD_RUN_READ = /^\/v1\/audience_datasets\/[^/]+\/runs\/[^/]+$/;
const CP_RUN_READ = /^\/v1\/custom_parameters\/[^/]+\/runs\/[^/]+$/;
const PATTERN_READ = /^\/v1\/patterns\/[^/]+$/;
const AUD_RUNS = /^\/v1\/audience_datasets\/[^/]+\/runs$/;
const AUD_BY_ID = /^\/v1\/audience_datasets\/[^/]+$/;
const CP_BY_ID = /^\/v1\/custom_parameters\/[^/]+$/;

/** A PATCH of `path` sent on as a GET: answered with the resource as it was, renamed nowhere. */
const patchIgnored =
  (path: RegExp) =>
  (q: ProxyRequest): ProxyRequest =>
    q.method === "PATCH" && path.test(q.url.pathname) ? { ...q, method: "GET", body: undefined } : q;

/** The same error answered with another status and code. */
const recode = (res: ProxyResponse, error_code: string, status = res.status): ProxyResponse =>
  json(res, { ...res.json, status: status >= 500 ? "server_error" : "client_error", error_code }, status);

export const seedCodesFaults: Fault[] = [
  {
    id: "codes-aud-run-read-unknown-ad-not-found",
    rows: ["audience-datasets.runs.read.404"],
    breaks: "A run read under an unknown audience dataset is 404 audience_dataset_not_found (answered not_found)",
    expect: "unknown-id-codes",
    response: (q, res) =>
      q.method === "GET" &&
      AUD_RUN_READ.test(q.url.pathname) &&
      res.status === 404 &&
      res.json?.error_code === "audience_dataset_not_found"
        ? recode(res, "not_found")
        : res,
  },
  {
    id: "codes-profiles-unknown-ad-empty-list",
    rows: ["audience-profiles.404"],
    breaks: "A profile search over an unknown audience dataset is 404 audience_dataset_not_found (answered 200, empty)",
    expect: "unknown-id-codes",
    response: (q, res) =>
      q.method === "POST" && q.url.pathname === "/v1/audience_profiles" && res.status === 404
        ? json(res, { status: "success", data: [], has_next: false, cursor: null }, 200)
        : res,
  },
  {
    id: "codes-cp-run-read-unknown-cp-not-found",
    rows: ["custom-parameters.runs.read.404"],
    breaks: "A run read under an unknown custom parameter is 404 custom_parameter_not_found (answered not_found)",
    expect: "unknown-id-codes",
    response: (q, res) =>
      q.method === "GET" &&
      CP_RUN_READ.test(q.url.pathname) &&
      res.status === 404 &&
      res.json?.error_code === "custom_parameter_not_found"
        ? recode(res, "not_found")
        : res,
  },
  {
    id: "codes-pattern-unknown-400",
    rows: ["patterns.read.404"],
    breaks: "An unknown pattern id is 404 (answered 400 bad_request)",
    expect: "unknown-id-codes",
    response: (q, res) =>
      q.method === "GET" && PATTERN_READ.test(q.url.pathname) && res.status === 404
        ? recode(res, "bad_request", 400)
        : res,
  },
  {
    id: "codes-ta-create-unknown-ds-403",
    rows: ["tracking-agents.create.404"],
    breaks: "A tracking agent over an unknown dataset is 404, existence hidden, never 403 (answered 403)",
    expect: "unknown-id-codes",
    response: (q, res) =>
      q.method === "POST" && q.url.pathname === "/v1/tracking_agents" && res.status === 404
        ? recode(res, "forbidden", 403)
        : res,
  },
  {
    id: "codes-aud-rename-ignored",
    rows: ["audience-datasets.update"],
    breaks:
      "PATCH of an audience dataset {name} answers the AudienceDataset with the new name (answered 200 unchanged)",
    expect: "rename-updates-name",
    request: patchIgnored(AUD_BY_ID),
  },
  {
    id: "codes-cp-rename-ignored",
    rows: ["custom-parameters.update"],
    breaks: "PATCH of a custom parameter {name} answers the CustomParameter with the new name (answered 200 unchanged)",
    expect: "rename-updates-name",
    request: patchIgnored(CP_BY_ID),
  },
  {
    id: "codes-ask-chat-id-ignored",
    rows: ["chats.continue"],
    breaks: "POST /v1/ask with an own chat_id continues that chat (answered with a new chat)",
    expect: "chat-continue-same-chat",
    request: (q) => {
      if (q.method !== "POST" || q.url.pathname !== "/v1/ask" || !q.body) return q;
      const body = JSON.parse(q.body) as Record<string, unknown>;
      if (typeof body.chat_id !== "string") return q;
      delete body.chat_id;
      return { ...q, body: JSON.stringify(body) };
    },
  },
  {
    id: "codes-aud-plan-403",
    rows: ["audience-datasets.create.400-plan"],
    breaks: "Audience dataset creation on a plan without audience research is 400 (answered 403)",
    expect: "audience-plan-400",
    response: (q, res) =>
      q.method === "POST" && q.url.pathname === "/v1/audience_datasets" && res.status === 400
        ? recode(res, "forbidden", 403)
        : res,
  },
  {
    id: "codes-aud-run-402-generic",
    rows: ["audience-datasets.runs.402"],
    breaks:
      "An audience run the balance cannot fund is 402 insufficient_credits_audience_dataset_run (answered insufficient_credits)",
    expect: "audience-run-402",
    response: (q, res) =>
      q.method === "POST" && AUD_RUNS.test(q.url.pathname) && res.status === 402
        ? recode(res, "insufficient_credits")
        : res,
  },
  {
    id: "codes-ta-limit-reached-conflict",
    rows: ["tracking-agents.create.limit-reached"],
    breaks:
      "A tracking agent create past the plan's cap is refused with tracking_agent_limit_reached (answered 409 conflict)",
    expect: "tracking-agent-limit-reached",
    response: (q, res) =>
      q.method === "POST" &&
      q.url.pathname === "/v1/tracking_agents" &&
      res.status >= 400 &&
      res.json?.error_code === "tracking_agent_limit_reached"
        ? recode(res, "conflict")
        : res,
  },
  {
    id: "codes-profiles-omit-ids-spans-none",
    rows: ["audience-profiles.omit-spans-all"],
    breaks:
      "A profile search without audience_dataset_ids spans every audience dataset of the account (answered an empty list)",
    expect: "audience-profiles-omit-spans-all",
    // the profiles it samples are collected by the billed audience run
    only: ["audience-profile-billing", "audience-profiles-omit-spans-all"],
    response: (q, res) => {
      if (q.method !== "POST" || q.url.pathname !== "/v1/audience_profiles" || res.status !== 200) return res;
      const body = q.body ? (JSON.parse(q.body) as Record<string, unknown>) : {};
      return body.audience_dataset_ids === undefined
        ? json(res, { status: "success", data: [], has_next: false, cursor: null }, 200)
        : res;
    },
  },
  {
    id: "codes-aud-run-source-pinned",
    rows: ["audience-dataset.runs-any-source"],
    breaks:
      "Runs in one audience dataset may target different source datasets (a run with another source answered 400 after the first)",
    expect: "audience-dataset-runs-any-source",
    request: (q, s) => {
      if (q.method !== "POST" || !AUD_RUNS.test(q.url.pathname) || !q.body) return q;
      const source = (JSON.parse(q.body) as Record<string, unknown>).source_dataset_id;
      const key = `aud-source:${q.url.pathname}`;
      const pinned = s.memo.get(key);
      if (pinned === undefined) {
        s.memo.set(key, source);
        return q;
      }
      if (pinned === source) return q;
      const body = {
        status: "client_error",
        error_code: "audience_dataset_source_mismatch",
        message: "This audience dataset's runs target another source dataset.",
        transient: false,
      };
      return { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify(body), json: body };
    },
  },
];
