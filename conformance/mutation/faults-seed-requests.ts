// Single-rule faults for the seed rules the ledger (conformance/src/seed-ledger/)
// judges with the checks added for them: requests. Each breaks one rule the seed
// states; the named check must fail behind it (mutation harness).
import { withRows, type Body, type Fault, type ProxyRequest } from "./proxy.ts";

const RUN_CREATE = /^\/v1\/datasets\/[^/]+\/runs$/;
const NEGATIVE = "invalid-request-rejected";

/**
 * A deployment that does not enforce one bound: the body of a POST to a path
 * matching `path` is repaired by `change` (which returns false to leave it) before
 * the reference sees it, so what the bound refuses is accepted.
 */
function repaired(id: string, breaks: string, path: RegExp, change: (b: Body) => boolean, expect = NEGATIVE): Fault {
  return {
    id,
    breaks,
    expect,
    only: [expect],
    request: (q: ProxyRequest) => {
      if (q.method !== "POST" || !path.test(q.url.pathname) || !q.body) return q;
      let b: Body;
      try {
        b = JSON.parse(q.body);
      } catch {
        return q; // malformed JSON passes through
      }
      if (!b || typeof b !== "object" || !change(b)) return q;
      return { ...q, body: JSON.stringify(b) };
    },
  };
}

/** Trims the filter groups of a body to 10 filters in total when each group alone is valid (at most 10). */
function trimFilterTotal(b: Body): boolean {
  const groups: unknown = b.filters;
  if (!Array.isArray(groups) || !groups.every((g) => Array.isArray(g) && g.length <= 10)) return false;
  const total = groups.reduce((n: number, g: unknown[]) => n + g.length, 0);
  if (total <= 10) return false;
  let left = 10;
  b.filters = groups
    .map((g: unknown[]) => {
      const kept = g.slice(0, left);
      left -= kept.length;
      return kept;
    })
    .filter((g: unknown[]) => g.length > 0);
  return true;
}

const promptQuery = (b: Body): Body | undefined =>
  b.search_query && typeof b.search_query === "object" && b.search_query.type === "prompt" ? b.search_query : undefined;

/** Each single filter of a body's groups, for a repair that rewrites one in place. */
function eachFilter(b: Body, change: (f: Record<string, unknown>) => boolean): boolean {
  let changed = false;
  const groups: unknown = b.filters;
  if (!Array.isArray(groups)) return false;
  for (const g of groups)
    if (Array.isArray(g))
      for (const f of g) if (f && typeof f === "object" && change(f as Record<string, unknown>)) changed = true;
  return changed;
}

export const seedRequestsFaults: Fault[] = [
  withRows(
    ["mentions.filters.country-code"],
    repaired(
      "mention-country-lowercase-accepted",
      "Country filter values are uppercase ISO 3166-1 alpha-2 (this deployment upper-cases them)",
      /^\/v1\/mentions$/,
      (b) =>
        eachFilter(b, (f) => {
          if (f.type !== "country_code" || !Array.isArray(f.values)) return false;
          f.values = f.values.map((v) => (typeof v === "string" ? v.toUpperCase() : v));
          return true;
        }),
    ),
  ),
  withRows(
    ["mentions.filters.metric-change"],
    repaired(
      "mention-metric-operator-unchecked",
      "A metric_change operator is one of greater_than, less_than, in_range, changed_by (this deployment takes any)",
      /^\/v1\/mentions$/,
      (b) =>
        eachFilter(b, (f) => {
          const op = typeof f.operator === "string" ? f.operator : (f.operator as { type?: unknown } | undefined)?.type;
          if (f.type !== "metric_change" || typeof op !== "string" || !op.startsWith("zz_")) return false;
          f.operator = { type: "greater_than", value: 0 };
          return true;
        }),
    ),
  ),
  withRows(
    ["search-query.prompt-fields"],
    repaired(
      "run-prompt-query-length-unchecked",
      "A prompt search's search_query is 1-5000 characters",
      RUN_CREATE,
      (b) => {
        const p = promptQuery(b);
        if (typeof p?.search_query !== "string" || (p.search_query.length >= 1 && p.search_query.length <= 5000))
          return false;
        p.search_query = p.search_query.slice(0, 5000) || "oat milk";
        return true;
      },
    ),
  ),
  withRows(
    ["search-query.prompt-fields"],
    repaired("run-prompt-sources-optional", "A prompt search's sources are required", RUN_CREATE, (b) => {
      const p = promptQuery(b);
      if (!p || "sources" in p) return false;
      p.sources = ["reddit"];
      return true;
    }),
  ),
  withRows(
    ["search-query.url-max-100"],
    repaired("run-url-cap-unenforced", "A url search holds at most 100 source_urls per run", RUN_CREATE, (b) => {
      const u = b.search_query;
      if (u?.type !== "url" || !Array.isArray(u.source_urls) || u.source_urls.length <= 100) return false;
      u.source_urls = u.source_urls.slice(0, 100);
      return true;
    }),
  ),
  withRows(
    ["datasets.runs.body.actions"],
    repaired(
      "run-unknown-action-dropped",
      "content_analysis_actions takes only the seed's thirteen values",
      RUN_CREATE,
      (b) => {
        const known = new Set([
          "content_category",
          "tone_of_voice",
          "narrative_structure",
          "intent",
          "hook",
          "mentioned_brands",
          "topics",
          "emotions",
          "cta",
          "entities",
          "questions",
          "sentiment",
          "signal",
        ]);
        const a: unknown = b.content_analysis_actions;
        if (!Array.isArray(a) || !a.some((v) => typeof v === "string" && !known.has(v))) return false;
        b.content_analysis_actions = a.filter((v) => typeof v !== "string" || known.has(v));
        return true;
      },
    ),
  ),
  withRows(
    ["mentions.filters.at-most-10"],
    repaired(
      "mention-filter-total-unchecked",
      "A mention search holds at most 10 filters in total",
      /^\/v1\/mentions$/,
      trimFilterTotal,
    ),
  ),
  withRows(
    ["audience-profiles.filters-at-most-10"],
    repaired(
      "profile-filter-total-unchecked",
      "An audience profile search holds at most 10 filters in total",
      /^\/v1\/audience_profiles$/,
      trimFilterTotal,
    ),
  ),
  withRows(
    ["mentions.filters.keyword-2-words"],
    repaired("mention-keyword-three-words", "A keyword filter holds at most 2 words", /^\/v1\/mentions$/, (b) => {
      let changed = false;
      for (const g of Array.isArray(b.filters) ? b.filters : [])
        for (const f of Array.isArray(g) ? g : [])
          if (f?.type === "keyword" && typeof f.value === "string" && f.value.split(" ").length > 2) {
            f.value = f.value.split(" ").slice(0, 2).join(" ");
            changed = true;
          }
      return changed;
    }),
  ),
  withRows(
    ["previews.prompt.one-window"],
    repaired(
      "preview-window-not-exclusive",
      "A prompt preview has exactly one time window (both, neither or an incomplete pair gives 422)",
      /^\/v1\/research_previews$/,
      (b) => {
        if (b.type !== "prompt") return false;
        const rel = typeof b.time_filter === "string";
        const since = typeof b.date_since === "string";
        const until = typeof b.date_until === "string";
        if (rel && !since && !until) return false;
        if (!rel && since && until) return false;
        // whatever window the body holds is read as the relative one (past_month when it has none)
        b.time_filter = rel ? b.time_filter : "past_month";
        delete b.date_since;
        delete b.date_until;
        return true;
      },
    ),
  ),
  withRows(
    ["custom-parameters.preview.post-refs-1-5"],
    repaired(
      "cp-preview-six-refs",
      "A custom parameter preview takes 1-5 post_refs",
      /^\/v1\/custom_parameters\/preview$/,
      (b) => {
        if (!Array.isArray(b.post_refs) || b.post_refs.length <= 5) return false;
        b.post_refs = b.post_refs.slice(0, 5);
        return true;
      },
    ),
  ),
  withRows(
    ["ask.post-refs-at-most-50"],
    repaired("ask-51-refs", "An ask takes at most 50 post_refs", /^\/v1\/ask$/, (b) => {
      const refs: unknown = b.context?.post_refs;
      if (!Array.isArray(refs) || refs.length <= 50) return false;
      b.context.post_refs = refs.slice(0, 50);
      return true;
    }),
  ),
  {
    id: "chat-messages-limit-clamped",
    rows: ["chats.messages.limit"],
    breaks: "The chat message list's limit is 1-100",
    expect: "chat-messages-query-rejected",
    only: ["chat-messages-query-rejected"],
    // a limit outside 1-100 is clamped into the range instead of refused
    request: (q) => {
      if (q.method !== "GET" || !/^\/v1\/chats\/[^/]+\/messages$/.test(q.url.pathname)) return q;
      const raw = q.url.searchParams.get("limit");
      const n = Number(raw);
      if (raw === null || !Number.isInteger(n) || (n >= 1 && n <= 100)) return q;
      const url = new URL(q.url);
      url.searchParams.set("limit", String(Math.min(100, Math.max(1, n))));
      return { ...q, url, path: url.pathname + url.search };
    },
  },
];
