// Single-rule faults for the seed rules the ledger (conformance/src/seed-ledger/)
// judges with the checks added for them: defaults. Each breaks one rule the seed
// states; the named check must fail behind it (mutation harness).
import { json, withRows, type Fault, type ProxyRequest } from "./proxy.ts";

const RUN_CREATE = /^\/v1\/datasets\/[^/]+\/runs$/;
const DAY_S = 86_400;

/** A list whose garbage cursor is ignored: a refused page is fetched again without the cursor. */
function cursorIgnored(id: string, path: RegExp, breaks: string): Fault {
  return {
    id,
    breaks,
    expect: "pagination-garbage-cursor-400",
    response: async (q, res, s) => {
      if (q.method !== "GET" || !path.test(q.url.pathname) || res.status !== 400 || !q.url.searchParams.has("cursor"))
        return res;
      const u = new URL(q.url);
      u.searchParams.delete("cursor");
      return s.forward({ ...q, url: u, path: u.pathname + u.search });
    },
  };
}

/** A dataset run create whose body omits `field`: the fault sends `value` in its place (another default). */
function runDefault(id: string, field: string, value: unknown, breaks: string): Fault {
  return {
    id,
    breaks,
    expect: "dataset-run-body-defaults",
    request: (q: ProxyRequest) => {
      if (q.method !== "POST" || !RUN_CREATE.test(q.url.pathname) || !q.body) return q;
      const b = JSON.parse(q.body);
      return field in b ? q : { ...q, body: JSON.stringify({ ...b, [field]: value }) };
    },
  };
}

export const seedDefaultsFaults: Fault[] = [
  withRows(
    ["datasets.runs.body.count-default"],
    runDefault("run-count-default-100", "count", 100, "A dataset run's count defaults to 200"),
  ),
  withRows(
    ["datasets.runs.body.comments-default"],
    runDefault(
      "run-comments-default-5",
      "num_comments_per_post",
      5,
      "A dataset run's num_comments_per_post defaults to 10",
    ),
  ),
  withRows(
    ["datasets.runs.body.country-default"],
    runDefault("run-country-default-gb", "country_code", "GB", "A dataset run's country_code defaults to US"),
  ),
  withRows(
    ["datasets.runs.body.visual-default"],
    runDefault(
      "run-visual-default-true",
      "enable_visual_recognition",
      true,
      "A dataset run's enable_visual_recognition defaults to false",
    ),
  ),
  withRows(
    ["datasets.runs.body.transcribing-default"],
    runDefault(
      "run-transcribing-default-true",
      "enable_transcribing",
      true,
      "A dataset run's enable_transcribing defaults to false",
    ),
  ),
  {
    id: "prompt-run-window-two-years",
    rows: ["datasets.runs.prompt-365-days"],
    breaks: "A prompt search with no date_range covers the past 365 days (the oldest post found is 400 days old)",
    expect: "dataset-run-body-defaults",
    response: (q, res) => {
      if (q.method !== "POST" || q.url.pathname !== "/v1/mentions" || res.status !== 200) return res;
      const data = res.json?.data;
      if (!Array.isArray(data) || typeof data[0]?.created_at !== "number") return res;
      const first = { ...data[0], created_at: data[0].created_at - 400 * DAY_S };
      return json(res, { ...res.json, data: [first, ...data.slice(1)] });
    },
  },
  withRows(
    ["tracking-agents.messages.invalid-cursor"],
    cursorIgnored(
      "agent-feed-garbage-cursor-ignored",
      /^\/v1\/tracking_agents\/[^/]+\/messages$/,
      "GET /v1/tracking_agents/{agent_id}/messages names invalid_cursor: a garbage cursor is refused",
    ),
  ),
  withRows(
    ["chats.messages.invalid-cursor"],
    cursorIgnored(
      "chat-messages-garbage-cursor-ignored",
      /^\/v1\/chats\/[^/]+\/messages$/,
      "GET /v1/chats/{chat_id}/messages names invalid_cursor: a garbage cursor is refused",
    ),
  ),
  withRows(
    ["usage-history.invalid-cursor"],
    cursorIgnored(
      "usage-history-garbage-cursor-ignored",
      /^\/v1\/me\/usage_history$/,
      "GET /v1/me/usage_history names invalid_cursor: a garbage cursor is refused",
    ),
  ),
  /** Cursors of the dataset list sent with a `~` in front (not base64url); the `~` is taken off when one comes back. */
  {
    id: "cursor-not-base64url",
    rows: ["pagination.cursor-base64url"],
    breaks: "A cursor is an opaque base64url string",
    expect: "pagination-cursor-base64url",
    request: (q) => {
      const c = q.url.searchParams.get("cursor");
      if (q.method !== "GET" || q.url.pathname !== "/v1/datasets" || !c?.startsWith("~")) return q;
      const u = new URL(q.url);
      u.searchParams.set("cursor", c.slice(1));
      return { ...q, url: u, path: u.pathname + u.search };
    },
    response: (q, res) =>
      q.method === "GET" && q.url.pathname === "/v1/datasets" && typeof res.json?.cursor === "string"
        ? json(res, { ...res.json, cursor: `~${res.json.cursor}` })
        : res,
  },
  // the tool call's sort follows the cursor's own: a likes cursor under sort date gets the likes walk's next page
  {
    id: "mcp-mentions-cursor-ignores-sort",
    rows: ["mcp.list-cursor-sort", "mentions.cursor-sort"],
    breaks: "A cursor of a filtered MCP list encodes its sort (reused under another sort it is refused)",
    expect: "mcp-list-cursor-sort",
    request: (q) => {
      if (q.method !== "POST" || q.url.pathname !== "/mcp/" || !q.body) return q;
      const m = JSON.parse(q.body);
      const a = m?.params?.arguments;
      if (
        m?.method !== "tools/call" ||
        !String(m.params.name).endsWith("list_mentions") ||
        !a?.cursor ||
        a.sort !== "date"
      )
        return q;
      return { ...q, body: JSON.stringify({ ...m, params: { ...m.params, arguments: { ...a, sort: "likes" } } }) };
    },
  },
  {
    id: "runs-list-default-page-25",
    rows: ["datasets.runs.list.default-limit"],
    breaks: "GET /v1/datasets/{dataset_id}/runs: limit defaults to 10",
    expect: "pagination-runs-default-page",
    request: (q) => {
      if (q.method !== "GET" || !RUN_CREATE.test(q.url.pathname) || q.url.searchParams.has("limit")) return q;
      const u = new URL(q.url);
      u.searchParams.set("limit", "25");
      return { ...q, url: u, path: u.pathname + u.search };
    },
  },
  {
    id: "profile-search-default-page-25",
    rows: ["audience-profiles.default-limit"],
    breaks: "POST /v1/audience_profiles: limit defaults to 20",
    expect: "profiles-default-limit-equivalent",
    request: (q) => {
      if (q.method !== "POST" || q.url.pathname !== "/v1/audience_profiles" || !q.body) return q;
      const b = JSON.parse(q.body);
      return "limit" in b ? q : { ...q, body: JSON.stringify({ ...b, limit: 25 }) };
    },
  },
  {
    id: "audience-run-default-100-profiles",
    rows: ["audience-datasets.runs.profile-count-default"],
    breaks: "An audience run's total_profile_count defaults to 300",
    expect: "audience-run-default-profile-count",
    request: (q) => {
      if (q.method !== "POST" || !/^\/v1\/audience_datasets\/[^/]+\/runs$/.test(q.url.pathname) || !q.body) return q;
      const b = JSON.parse(q.body);
      return "total_profile_count" in b ? q : { ...q, body: JSON.stringify({ ...b, total_profile_count: 100 }) };
    },
  },
];
