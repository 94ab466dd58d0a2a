// Single-rule faults added while the checks of this area were converted to
// declared assertions. Each names the ledger rows it breaks (`rows`) or the
// decision it re-decides (`decision`); the mutation harness runs each behind
// the proxy and expects its check to fail, attributed to one of its rows.
// Area: audiences, custom parameters, tracking agents, ask and chats; one
// fault per seed row a converted check judges that had none aimed at it.
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
const err = (res: ProxyResponse, status: number, code: string) =>
  json(
    res,
    { status: "client_error", error_code: code, detail: "Injected by the mutation proxy.", transient: false },
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
const missing = (q: ProxyRequest) => P(q).includes("slkmissing");

/** The main key's balance read through GET /v1/me shifted by the memo's `key` (a charge that should not be there). */
function shifted(q: ProxyRequest, res: ProxyResponse, s: ProxyState, key: string): ProxyResponse {
  const delta = memoNumber(s, key);
  if (!delta || q.key !== s.keys.main || !is(q, "GET", /^\/v1\/me$/) || res.status !== 200) return res;
  if (typeof res.json?.data?.usage?.balance !== "number") return res;
  return withData(res, (d) => ({
    ...d,
    usage: { ...d.usage, balance: Math.round((d.usage.balance + delta) * 1e6) / 1e6 },
  }));
}

const AUD_RUNS = /^\/v1\/audience_datasets\/[^/]+\/runs$/;
const AUD_RUN = /^\/v1\/audience_datasets\/[^/]+\/runs\/[^/]+$/;
const PROFILES = /^\/v1\/audience_profiles$/;
const CP = /^\/v1\/custom_parameters$/;
const CP_ONE = /^\/v1\/custom_parameters\/cp[^/]*$/;
const CP_RUNS = /^\/v1\/custom_parameters\/[^/]+\/runs$/;
const CP_RUN = /^\/v1\/custom_parameters\/[^/]+\/runs\/[^/]+$/;
const TA_ANY = /^\/v1\/tracking_agents\/[^/]+/;
const TRIGGER = /^\/v1\/tracking_agents\/[^/]+\/trigger$/;
const FEED = /^\/v1\/tracking_agents\/[^/]+\/messages$/;
const DS_RUN = /^\/v1\/datasets\/[^/]+\/runs\/[^/]+$/;
const ASK = /^\/v1\/ask$/;
const CHAT = /^\/v1\/chats\/[^/]+$/;
const CHAT_MESSAGES = /^\/v1\/chats\/[^/]+\/messages$/;
const CHAT_MESSAGE = /^\/v1\/chats\/[^/]+\/messages\/[^/]+$/;
const CHAT_ANY = /^\/v1\/chats\/[^/]+/;

/** A 402 answer with its body rewritten. */
const in402 = (re: RegExp, f: (b: Body) => Body) => (q: ProxyRequest, res: ProxyResponse) =>
  is(q, "POST", re) && res.status === 402 && res.json ? json(res, f(structuredClone(res.json))) : res;

export const kitGroupsFaults: Fault[] = [
  {
    id: "ta-limit-above-reported",
    rows: ["limits.plan-limits"],
    breaks:
      "A plan's tracking agent cap is plan.limits.tracking_agents (this deployment reports one less than it enforces, so the create at the reported cap is accepted)",
    expect: "tracking-agent-limit-reached",
    response: (q, res) => {
      const limits = res.json?.data?.plan?.limits;
      if (q.method !== "GET" || P(q) !== "/v1/me" || res.status !== 200 || typeof limits?.tracking_agents !== "number")
        return res;
      if (limits.tracking_agents < 2) return res;
      const data = structuredClone(res.json.data);
      data.plan.limits.tracking_agents = limits.tracking_agents - 1;
      return json(res, { ...res.json, data });
    },
  },
  {
    id: "ta-limit-answers-400",
    decision: "D-409",
    breaks:
      "tracking_agent_limit_reached answers 409 (D-409; the seed shows no status): this deployment keeps the code and answers 400",
    expect: "tracking-agent-limit-reached",
    response: (q, res) =>
      is(q, "POST", /^\/v1\/tracking_agents$/) &&
      res.status === 409 &&
      res.json?.error_code === "tracking_agent_limit_reached"
        ? { ...res, status: 400 }
        : res,
  },
  // ---- audiences --------------------------------------------------------------------
  {
    id: "aud-run-accepted-200",
    rows: ["audience-datasets.runs.create.202"],
    breaks: "An audience run create answers 202",
    expect: "audience-dataset-runs-any-source",
    response: (q, res) => (is(q, "POST", AUD_RUNS) && res.status === 202 ? { ...res, status: 200 } : res),
  },
  {
    id: "aud-new-run-not-pending",
    rows: ["audience-run.states", "dataset-run.create-pending-202"],
    breaks: "An accepted audience run starts pending, as a dataset run does",
    expect: "audience-run-state-machine",
    response: (q, res) =>
      is(q, "POST", AUD_RUNS) && res.status === 202
        ? withData(res, (d) => ({ ...d, status: { ...d.status, type: "queued" } }))
        : res,
  },
  {
    id: "aud-run-unreadable",
    rows: ["audience-datasets.runs.read"],
    breaks: "A started audience run reads 200",
    expect: "audience-run-state-machine",
    response: (q, res) =>
      is(q, "GET", AUD_RUN) && res.status === 200 ? err(res, 404, "audience_dataset_not_found") : res,
  },
  {
    id: "aud-failed-without-message",
    rows: ["audience-run.fields", "dataset-run.failed-error-message"],
    breaks: "A failed audience run carries error_message (same envelope as a dataset run)",
    expect: "audience-run-state-machine",
    response: (q, res) =>
      is(q, "GET", AUD_RUN) && res.status === 200 && res.json?.data?.status?.type === "completed"
        ? withData(res, (d) => ({ ...d, status: { type: "failed", steps: d.status.steps } }))
        : res,
  },
  {
    id: "profiles-walk-stuck",
    rows: ["pagination.cursor-walk"],
    breaks: "A cursor page brings items not listed before until has_next is false",
    expect: "audience-profiles-omit-spans-all",
    // the cursor never reaches the deployment: every page of the walk without ids is the same empty one
    request: (q) => {
      const b = body(q);
      if (!is(q, "POST", PROFILES) || b?.audience_dataset_ids || !b?.cursor) return q;
      const { cursor: _c, ...rest } = b;
      return { ...q, body: JSON.stringify(rest) };
    },
    response: (q, res) =>
      is(q, "POST", PROFILES) && res.status === 200 && !body(q)?.audience_dataset_ids
        ? json(res, { status: "success", data: [], has_next: true, cursor: "c3R1Y2s" })
        : res,
  },
  {
    id: "aud-402-transient",
    rows: ["errors.402-body"],
    breaks: "A 402 body says transient false",
    expect: "audience-run-402",
    response: in402(AUD_RUNS, (b) => ({ ...b, transient: true })),
  },
  {
    id: "aud-402-required-not-above",
    rows: ["errors.402", "errors.402-body"],
    breaks: "A 402 says more is required than the balance has available",
    expect: "audience-run-402",
    response: in402(AUD_RUNS, (b) => ({ ...b, detail: { ...b.detail, required: b.detail?.available } })),
  },
  {
    id: "aud-402-leaves-run",
    rows: ["audience-run.states", "dataset-run.create-pending-202"],
    breaks: "A refused audience run exists nowhere (a run exists once its request is accepted)",
    expect: "audience-run-402",
    response: (q, res, s) => {
      if (is(q, "POST", AUD_RUNS) && res.status === 402) s.memo.set(`aud-402-${P(q)}`, true);
      return is(q, "GET", AUD_RUNS) && s.memo.get(`aud-402-${P(q)}`) && Array.isArray(res.json?.data)
        ? withData(res, (d) => [...d, { id: "adr_injected", status: { type: "pending" } }])
        : res;
    },
  },
  {
    id: "aud-retry-refused",
    rows: ["errors.409-retry"],
    breaks: "Once the blocking run has ended a new audience run is accepted",
    expect: "audience-run-409-in-flight",
    response: (q, res, s) => {
      if (!is(q, "POST", AUD_RUNS)) return res;
      if (res.status === 409) s.memo.set(`aud-409-${P(q)}`, true);
      return s.memo.get(`aud-409-${P(q)}`) && res.status === 202
        ? err(res, 409, "audience_dataset_run_already_in_flight")
        : res;
    },
  },
  {
    id: "aud-youtube-only-wrong-code",
    rows: ["audience-datasets.runs.youtube-only"],
    breaks: "A YouTube-only source is 400 audience_youtube_only_source",
    expect: "audience-run-codes-in-order",
    response: (q, res) =>
      is(q, "POST", AUD_RUNS) && res.json?.error_code === "audience_youtube_only_source"
        ? err(res, 400, "audience_insufficient_source_mentions")
        : res,
  },
  {
    id: "aud-below-minimum-accepted",
    rows: ["audience-datasets.runs.min-5-posts", "audience-datasets.runs.insufficient-mentions"],
    breaks: "A source below the 5-post minimum is refused",
    expect: "audience-run-codes-in-order",
    response: (q, res) =>
      is(q, "POST", AUD_RUNS) && res.json?.error_code === "audience_insufficient_source_mentions"
        ? json(res, { status: "success", data: { id: "adr_injected", status: { type: "pending" } } }, 202)
        : res,
  },
  {
    id: "aud-refused-run-listed",
    rows: ["audience-datasets.runs.refused-before-run"],
    breaks: "A refused audience run request leaves no run",
    expect: "audience-run-codes-in-order",
    response: (q, res, s) => {
      if (is(q, "POST", AUD_RUNS) && res.status === 400) s.memo.set(`aud-400-${P(q)}`, true);
      return is(q, "GET", AUD_RUNS) && s.memo.get(`aud-400-${P(q)}`) && Array.isArray(res.json?.data)
        ? withData(res, (d) => [...d, { id: "adr_injected", status: { type: "failed", error_message: "x" } }])
        : res;
    },
  },
  {
    id: "aud-unknown-run-400",
    rows: ["service.scope.foreign-404"],
    breaks: "A run that does not exist reads 404",
    expect: "audience-run-codes-in-order",
    response: (q, res) => (is(q, "GET", AUD_RUN) && missing(q) ? err(res, 400, "bad_request") : res),
  },
  // ---- custom parameters --------------------------------------------------------------
  {
    id: "cp-delete-with-body",
    rows: ["custom-parameters.delete"],
    breaks: "Deleting a custom parameter answers an empty body",
    expect: "custom-parameter-delete-frees-name",
    response: (q, res) =>
      q.method === "DELETE" && CP_ONE.test(P(q)) && res.status === 204
        ? json(res, { status: "success", data: { deleted: true } }, 200)
        : res,
  },
  {
    id: "cp-deleted-still-readable",
    rows: ["custom-parameters.read.404", "service.scope.foreign-404"],
    breaks: "A deleted custom parameter no longer exists: 404 custom_parameter_not_found",
    expect: "custom-parameter-delete-frees-name",
    request: async (q, s) => {
      if (q.method === "DELETE" && CP_ONE.test(P(q)))
        s.memo.set(`cp-${P(q)}`, await s.forward({ ...q, method: "GET", body: undefined }));
      return q;
    },
    response: (q, res, s) =>
      is(q, "GET", CP_ONE) && res.status === 404 && memoResponse(s, `cp-${P(q)}`)?.status === 200
        ? memoResponse(s, `cp-${P(q)}`)!
        : res,
  },
  {
    id: "cp-deleted-still-listed",
    rows: ["custom-parameters.list"],
    breaks: "A deleted custom parameter leaves the list",
    expect: "custom-parameter-delete-frees-name",
    request: async (q, s) => {
      if (q.method === "DELETE" && CP_ONE.test(P(q)))
        s.memo.set("cp-deleted", (await s.forward({ ...q, method: "GET", body: undefined })).json?.data);
      return q;
    },
    response: (q, res, s) =>
      is(q, "GET", CP) && Array.isArray(res.json?.data) && s.memo.get("cp-deleted")
        ? withData(res, (d) => [s.memo.get("cp-deleted"), ...d])
        : res,
  },
  {
    id: "cp-empty-name-accepted",
    rows: ["custom-parameter.name-required-unique", "custom-parameters.create.name-errors"],
    breaks: "An empty custom parameter name is refused with custom_parameter_empty_name",
    expect: "custom-parameter-name-rules",
    request: (q) => {
      const b = body(q);
      return is(q, "POST", CP) && b?.name === ""
        ? { ...q, body: JSON.stringify({ ...b, name: `empty-${Date.now()}-${Math.random()}` }) }
        : q;
    },
  },
  {
    id: "cp-rename-duplicate-400",
    rows: ["custom-parameters.update.errors", "custom-parameter.name-required-unique"],
    breaks: "Renaming to a name in use is refused with custom_parameter_duplicate_name",
    expect: "custom-parameter-name-rules",
    response: (q, res) =>
      q.method === "PATCH" && res.json?.error_code === "custom_parameter_duplicate_name"
        ? err(res, 400, "bad_request")
        : res,
  },
  {
    id: "cp-run-unknown-parameter-400",
    rows: ["endpoints.404-unknown-or-foreign", "custom-parameters.runs.codes"],
    breaks: "A run of an unknown parameter is 404 custom_parameter_not_found",
    expect: "custom-parameter-run-codes",
    response: (q, res) =>
      is(q, "POST", CP_RUNS) && res.json?.error_code === "custom_parameter_not_found"
        ? err(res, 400, "bad_request")
        : res,
  },
  {
    id: "cp-refused-run-charged",
    rows: ["errors.never-partially-charged"],
    breaks: "A refused custom parameter run charges nothing",
    expect: "custom-parameter-run-codes",
    response: (q, res, s) => {
      if (is(q, "POST", CP_RUNS) && res.status >= 400 && res.status < 500)
        s.memo.set("cp-refused", memoNumber(s, "cp-refused") - 0.01);
      return shifted(q, res, s, "cp-refused");
    },
  },
  {
    id: "cp-run-refused-422",
    rows: ["custom-parameters.runs.scope-only-dataset"],
    breaks: "A run scoped to a dataset ({scope: {kind: dataset, id}}) is accepted with {run_id}",
    expect: "custom-parameter-run-counters",
    response: (q, res) =>
      is(q, "POST", CP_RUNS) && res.status === 202
        ? json(res, { detail: [{ loc: ["body", "scope", "kind"], msg: "Injected", type: "enum" }] }, 422)
        : res,
  },
  {
    id: "cp-errors-over-total",
    rows: ["custom-parameter-run.total-is-dataset"],
    breaks: "mentions_done plus mentions_error never pass mentions_total (the posts the run visits)",
    expect: "custom-parameter-run-counters",
    response: (q, res) =>
      is(q, "GET", CP_RUN) && res.status === 200 && typeof res.json?.data?.mentions_total === "number"
        ? withData(res, (d) => ({ ...d, mentions_error: d.mentions_total + 1 }))
        : res,
  },
  {
    id: "cp-done-over-total",
    rows: ["custom-parameter-run.total-is-dataset"],
    breaks: "mentions_done never passes mentions_total (the posts the run visits)",
    expect: "custom-parameter-run-state-machine",
    response: (q, res) =>
      is(q, "GET", CP_RUN) && res.status === 200 && typeof res.json?.data?.mentions_total === "number"
        ? withData(res, (d) => ({ ...d, mentions_done: d.mentions_total + 1 }))
        : res,
  },
  {
    id: "cp-failed-keeps-charge",
    rows: ["charges.failed-releases"],
    breaks: "A failed custom parameter run releases its whole reservation",
    expect: "custom-parameter-run-counters",
    response: (q, res) =>
      is(q, "GET", CP_RUN) && res.json?.data?.status?.type === "completed"
        ? withData(res, (d) => ({ ...d, status: { type: "failed" } }))
        : res,
  },
  {
    id: "cp-run-unreadable",
    rows: ["custom-parameters.runs.read.404"],
    breaks: "A started custom parameter run reads back (the run)",
    expect: "custom-parameter-run-state-machine",
    response: (q, res) =>
      is(q, "GET", CP_RUN) && res.status === 200 ? err(res, 404, "custom_parameter_not_found") : res,
  },
  {
    id: "cp-unknown-run-200",
    rows: ["service.scope.foreign-404"],
    breaks: "A custom parameter run that does not exist reads 404",
    expect: "custom-parameter-run-state-machine",
    response: (q, res) =>
      is(q, "GET", CP_RUN) && missing(q)
        ? json(res, { status: "success", data: { id: P(q).split("/").at(-1), status: { type: "processing" } } }, 200)
        : res,
  },
  {
    id: "cp-runs-list-404",
    rows: ["custom-parameters.runs.list"],
    breaks: "A parameter's runs read as an array of run",
    expect: "custom-parameter-run-codes",
    response: (q, res) => (is(q, "GET", CP_RUNS) && res.status === 200 ? err(res, 404, "not_found") : res),
  },
  // ---- tracking agents ----------------------------------------------------------------
  {
    id: "ta-cycle-settles-a-cent-more",
    rows: ["charges.mention", "charges.refund-to-actuals"],
    breaks: "A cycle charges the mentions its dataset runs collected, exactly",
    expect: "tracking-agent-cycle-billing",
    response: (q, res, s) => {
      if (is(q, "POST", TRIGGER) && res.status === 202) s.memo.set("ta-triggered", true);
      const k = `ta-seen-${P(q)}`;
      if (
        s.memo.get("ta-triggered") &&
        is(q, "GET", DS_RUN) &&
        res.json?.data?.status?.type === "completed" &&
        !s.memo.get(k)
      ) {
        s.memo.set(k, true);
        s.memo.set("ta-settle", memoNumber(s, "ta-settle") - 0.01);
      }
      return shifted(q, res, s, "ta-settle");
    },
  },
  {
    id: "ta-unknown-id-400",
    rows: [
      "service.scope.foreign-404",
      "tracking-agents.read.404",
      "tracking-agents.update",
      "tracking-agents.pause-resume.empty",
      "tracking-agents.trigger.codes",
      "tracking-agents.messages.not-found",
    ],
    breaks: "Every route of an agent that does not exist answers 404 not_found",
    expect: "tracking-agent-deleted-hidden",
    response: (q, res) => (TA_ANY.test(P(q)) && missing(q) ? err(res, 400, "bad_request") : res),
  },
  {
    id: "ta-feed-agent-name-missing",
    rows: ["agent-message.fields"],
    breaks: "An alert feed item carries agent_name",
    expect: "tracking-agent-feed-newest-first",
    response: (q, res) =>
      is(q, "GET", FEED) && Array.isArray(res.json?.data)
        ? withData(res, (d) => d.map(({ agent_name: _n, ...m }: Body) => m))
        : res,
  },
  {
    id: "ta-feed-cursor-ignored",
    rows: ["pagination.cursor-walk"],
    breaks: "Following the feed's cursor brings the next messages",
    expect: "tracking-agent-feed-newest-first",
    request: (q) => {
      if (!is(q, "GET", FEED) || !q.url.searchParams.has("cursor")) return q;
      const url = new URL(q.url);
      url.searchParams.delete("cursor");
      return { ...q, url, path: url.pathname + url.search };
    },
  },
  {
    id: "ta-no-queries-wrong-code",
    rows: ["tracking-agents.trigger.codes", "tracking-agent.trigger"],
    breaks: "An agent whose datasets have no queries is refused with dataset_has_no_queries",
    expect: "tracking-agent-no-queries-400",
    response: (q, res) =>
      res.json?.error_code === "dataset_has_no_queries" ? err(res, res.status, "bad_request") : res,
  },
  {
    id: "ta-no-queries-charged",
    rows: ["errors.never-partially-charged"],
    breaks: "A refused trigger charges nothing",
    expect: "tracking-agent-no-queries-400",
    response: (q, res, s) => {
      if (is(q, "POST", TRIGGER) && res.status >= 400 && res.status < 500)
        s.memo.set("ta-refused", memoNumber(s, "ta-refused") - 0.01);
      return shifted(q, res, s, "ta-refused");
    },
  },
  {
    id: "ta-pause-ignored",
    rows: ["tracking-agent.pause"],
    breaks: "Pausing an active agent makes it paused (paused = true)",
    expect: "tracking-agent-pause-resume",
    request: (q) => {
      if (!is(q, "POST", /^\/v1\/tracking_agents\/[^/]+\/pause$/)) return q;
      const url = new URL(q.url.pathname.replace(/\/pause$/, "/resume"), q.url);
      return { ...q, url, path: url.pathname };
    },
  },
  {
    id: "ta-trigger-409-transient",
    rows: ["audience-datasets.runs.409-transient-false"],
    breaks: "A 409 body says transient false",
    expect: "tracking-agent-trigger-202-then-409",
    response: (q, res) =>
      is(q, "POST", TRIGGER) && res.status === 409 ? json(res, { ...res.json, transient: true }) : res,
  },
  // ---- ask and chats ------------------------------------------------------------------
  {
    id: "chat-unreadable-to-its-seat",
    rows: ["chats.created-by-ask", "chats.read"],
    breaks: "The chat an ask created reads back (Chat) for its seat",
    expect: "ask-202-polls-to-completion",
    response: (q, res, s) =>
      is(q, "GET", CHAT) && q.key === s.keys.main && res.status === 200 ? err(res, 404, "chat_not_found") : res,
  },
  {
    id: "chat-unknown-message-200",
    rows: ["service.scope.foreign-404"],
    breaks: "A message that does not exist reads 404",
    expect: "ask-202-polls-to-completion",
    response: (q, res) =>
      is(q, "GET", CHAT_MESSAGE) && missing(q)
        ? json(res, { status: "success", data: { id: "msg_injected", role: "assistant", status: "completed" } }, 200)
        : res,
  },
  {
    id: "chat-messages-role-renamed",
    rows: ["chat-message.fields"],
    breaks: "A message's role is user or assistant",
    expect: "ask-202-polls-to-completion",
    response: (q, res) =>
      is(q, "GET", CHAT_MESSAGES) && Array.isArray(res.json?.data)
        ? withData(res, (d) => d.map((m: Body) => (m?.role === "user" ? { ...m, role: "human" } : m)))
        : res,
  },
  {
    id: "ask-402-transient",
    rows: ["errors.402-body"],
    breaks: "A 402 body says transient false",
    expect: "ask-402-creates-nothing",
    response: in402(ASK, (b) => ({ ...b, transient: true })),
  },
  {
    id: "ask-402-required-not-above",
    rows: ["errors.402", "errors.402-body"],
    breaks: "A 402 says more is required than the balance has available",
    expect: "ask-402-creates-nothing",
    response: in402(ASK, (b) => ({ ...b, detail: { ...b.detail, required: b.detail?.available } })),
  },
  {
    id: "chat-readable-by-other-account",
    rows: ["service.scope.foreign-404"],
    breaks: "A chat of another account is 404",
    expect: "chats-private-to-seat",
    request: (q, s) =>
      q.method === "GET" && CHAT_ANY.test(P(q)) && q.key === s.keys.foreign
        ? { ...q, key: s.keys.main, headers: { ...q.headers, "x-api-key": s.keys.main! } }
        : q,
  },
  {
    id: "chat-other-seat-code",
    rows: ["chats.read", "chats.messages.not-found"],
    breaks: "Another seat's chat is 404 chat_not_found on the chat and its message list",
    expect: "chats-private-to-seat",
    response: (q, res, s) =>
      q.method === "GET" && (CHAT.test(P(q)) || CHAT_MESSAGES.test(P(q))) && q.key === s.keys.second
        ? res.status === 404
          ? err(res, 404, "not_found")
          : res
        : res,
  },
  {
    id: "chat-messages-bad-limit-500",
    rows: ["endpoints.422-on-body-or-query"],
    breaks: "A malformed query is refused with 422, never a server fault",
    expect: "chat-messages-query-rejected",
    response: (q, res) =>
      is(q, "GET", CHAT_MESSAGES) && res.status === 422
        ? json(
            res,
            { status: "server_error", error_code: "internal_server_error", detail: "Injected", transient: true },
            500,
          )
        : res,
  },
];
