// Single-rule faults for the seed rules the ledger (conformance/src/seed-ledger/)
// judges with the checks added for them: data. Each breaks one rule the seed
// states; the named check must fail behind it (mutation harness).
import { json, type Fault } from "./proxy.ts";

const DATASET_BY_ID = /^\/v1\/datasets\/[^/]+$/;
const CHAT_BY_ID = /^\/v1\/chats\/[^/]+$/;
const CHAT_MESSAGES = /^\/v1\/chats\/[^/]+\/messages$/;

export const seedDataFaults: Fault[] = [
  {
    id: "dataset-create-carries-counts",
    rows: ["dataset.create-response-only"],
    breaks: "The create response carries only `id`, `name`, `created_at`.",
    expect: "dataset-new-only-fields",
    response: (q, res) =>
      q.method === "POST" && q.url.pathname === "/v1/datasets" && res.status === 201
        ? json(res, { ...res.json, data: { ...res.json.data, mentions_count: 0 } })
        : res,
  },
  {
    id: "dataset-empty-estimates-one",
    rows: ["dataset.estimated-mentions-count"],
    breaks: "estimated_mentions_count: empty dataset gives 0",
    expect: "dataset-new-only-fields",
    response: (q, res) =>
      q.method === "GET" &&
      DATASET_BY_ID.test(q.url.pathname) &&
      res.status === 200 &&
      res.json?.data?.mentions_count === 0
        ? json(res, { ...res.json, data: { ...res.json.data, estimated_mentions_count: 1 } })
        : res,
  },
  {
    id: "openapi-info-version-1",
    rows: ["versioning.openapi-document"],
    breaks: "The OpenAPI 3.1 document has info version 0.1.0",
    expect: "openapi-document-published",
    response: (q, res) =>
      q.url.pathname === "/openapi.json" && res.status === 200
        ? json(res, { ...res.json, info: { ...res.json.info, version: "1.0.0" } })
        : res,
  },
  {
    id: "openapi-docs-not-served",
    rows: ["versioning.openapi-document"],
    breaks: "A hosted interactive viewer at {base_url}/docs",
    expect: "openapi-document-published",
    request: (q) =>
      q.url.pathname === "/docs" ? { status: 404, headers: { "content-type": "text/plain" }, body: "not found" } : q,
  },
  {
    id: "chat-carries-heavier-fields",
    rows: ["chat.no-heavier-fields"],
    breaks: "Chat: heavier in-app fields are absent",
    expect: "chat-after-ask-shapes",
    response: (q, res) =>
      q.method === "GET" && CHAT_BY_ID.test(q.url.pathname) && res.status === 200
        ? json(res, { ...res.json, data: { ...res.json.data, messages: [], settings: {} } })
        : res,
  },
  {
    id: "chat-user-message-without-context",
    rows: ["chat-message.user-context"],
    breaks: "User messages carry `context`",
    expect: "chat-after-ask-shapes",
    response: (q, res) => {
      if (q.method !== "GET" || !CHAT_MESSAGES.test(q.url.pathname) || res.status !== 200) return res;
      const data = (res.json?.data ?? []).map((m: { role?: string; context?: unknown }) => {
        if (m?.role !== "user") return m;
        const { context: _dropped, ...rest } = m;
        return rest;
      });
      return json(res, { ...res.json, data });
    },
  },
  {
    id: "usage-row-ai-assistant-after-ask",
    rows: ["usage-history.ai-assistant-old-rows-only"],
    breaks: "`ai_assistant` appears only on old rows",
    expect: "chat-after-ask-shapes",
    response: (q, res) => {
      if (q.method !== "GET" || q.url.pathname !== "/v1/me/usage_history" || res.status !== 200) return res;
      const data = (res.json?.data ?? []).map((r: { category?: string }) =>
        r?.category === "post_processing" ? { ...r, category: "ai_assistant" } : r,
      );
      return json(res, { ...res.json, data });
    },
  },
  {
    id: "dataset-mentions-count-doubled",
    rows: ["dataset.mentions-count-dedup"],
    breaks: "mentions_count: posts counted once per (source, post id) across runs",
    expect: "dataset-mentions-consistent",
    response: (q, res) =>
      q.method === "GET" &&
      DATASET_BY_ID.test(q.url.pathname) &&
      res.status === 200 &&
      res.json?.data?.mentions_count > 0
        ? json(res, { ...res.json, data: { ...res.json.data, mentions_count: res.json.data.mentions_count * 2 } })
        : res,
  },
  {
    id: "mention-hook-without-action",
    rows: ["mention.analysis-only-when-ran"],
    breaks: "Analysis fields are populated only when the matching analysis ran on the parent run",
    expect: "dataset-mentions-consistent",
    response: (q, res) => {
      if (q.method !== "POST" || q.url.pathname !== "/v1/mentions" || res.status !== 200) return res;
      const data = (res.json?.data ?? []).map((m: { hook?: unknown }) =>
        m?.hook === null ? { ...m, hook: { text: "Wait for it" } } : m,
      );
      return json(res, { ...res.json, data });
    },
  },
  {
    id: "me-credits-used-aliases-dollars",
    rows: ["me.credits-renamed-not-aliased"],
    breaks: "the old names are gone, not aliased",
    expect: "me-credit-fields-not-aliased",
    response: (q, res) =>
      q.method === "GET" && q.url.pathname === "/v1/me" && res.status === 200 && res.json?.data?.usage
        ? json(res, {
            ...res.json,
            data: {
              ...res.json.data,
              usage: { ...res.json.data.usage, credits_used: res.json.data.usage.balance_used },
            },
          })
        : res,
  },
];
