// Single-rule faults for the inputs a stranger sends (a body on a request
// that reads none, an over-long cursor) and for what still names a deleted
// dataset. Each breaks one contract decision; the named check must fail
// behind it (mutation harness), and at --level seed it only warns.
import { json, memoResponse, type Fault, type ProxyRequest, type ProxyResponse, type ProxyState } from "./proxy.ts";

const DS_BY_ID = /^\/v1\/datasets\/([^/]+)$/;
const AGENT_BY_ID = /^\/v1\/tracking_agents\/([^/]+)$/;

const isJson = (q: ProxyRequest) => /^application\/(json|[^;]*\+json)/i.test(q.headers["content-type"] ?? "");

/** The ids a deleted dataset would have left, as an agent answered them at its creation. */
function deletedNamedBy(s: ProxyState, agentId: string): string[] {
  const created = memoResponse(s, `agent:${agentId}`)?.json?.data?.dataset_ids;
  if (!Array.isArray(created)) return [];
  return created.filter((id: unknown) => typeof id === "string" && s.memo.has(`deleted:${id}`));
}

export const transportFaults: Fault[] = [
  {
    id: "transport-long-uri-414",
    decision: "D-UNNAMED-STATUS",
    breaks:
      "A request target over 2,500 characters is answered with a status its operation documents (answered 414, as many fronts do)",
    expect: "documented-status-only",
    only: ["documented-status-only", "transport-inputs-documented"],
    request: (q) =>
      q.path.length > 2500
        ? {
            status: 414,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              status: "client_error",
              error_code: "bad_request",
              detail: "Request-URI Too Long",
              transient: false,
            }),
          }
        : q,
  },
  {
    id: "transport-stray-body-500",
    decision: "D-GET-BODY",
    breaks:
      "A non-JSON body on a request that reads none is refused as a client mistake (answered 500 internal_server_error, documented but a server fault)",
    expect: "transport-inputs-documented",
    response: (q, res): ProxyResponse =>
      q.method === "DELETE" && q.body && !isJson(q) && res.status === 415
        ? json(
            res,
            {
              status: "server_error",
              error_code: "internal_server_error",
              detail: "Unexpected server fault; retry later.",
              transient: true,
            },
            500,
          )
        : res,
  },
  {
    id: "deleted-dataset-kept-by-agent",
    decision: "D-DATASET-DELETED-REFS",
    breaks:
      "A deleted dataset leaves the dataset_ids of the tracking agents naming it (kept there, and the trigger says only that no dataset has a query)",
    expect: "deleted-gone-everywhere",
    response: (q, res, s) => {
      const path = q.url.pathname;
      if (q.method === "POST" && path === "/v1/tracking_agents" && res.status === 201 && res.json?.data?.id)
        s.memo.set(`agent:${res.json.data.id}`, res);
      const ds = DS_BY_ID.exec(path)?.[1];
      if (q.method === "DELETE" && ds && res.status === 204) s.memo.set(`deleted:${decodeURIComponent(ds)}`, true);
      const agent = AGENT_BY_ID.exec(path)?.[1];
      if (q.method === "GET" && agent && res.status === 200 && Array.isArray(res.json?.data?.dataset_ids)) {
        const kept = deletedNamedBy(s, decodeURIComponent(agent)).filter(
          (id) => !res.json.data.dataset_ids.includes(id),
        );
        if (kept.length)
          return json(res, {
            ...res.json,
            data: { ...res.json.data, dataset_ids: [...res.json.data.dataset_ids, ...kept] },
          });
      }
      if (q.method === "POST" && /\/trigger$/.test(path) && res.json?.error_code === "dataset_has_no_queries")
        return json(res, {
          ...res.json,
          detail: "None of the agent's datasets has a query to repeat; run a search on one of them first.",
        });
      return res;
    },
  },
];
