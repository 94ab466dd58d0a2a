// The open points the seed-only variant varies, derived from the seed and the
// contract rather than picked by hand. Each list is what the code can
// enumerate; each item of it is varied (with how) or listed here with the
// reason it is not, and test/deviation-mode.test.ts fails on an item that is
// neither:
//   1. error codes whose status the seed does not show (the contract's
//      ErrorCode enum minus the codes the seed writes right after a status):
//      the variant answers another plausible status, over REST and in MCP
//      tool errors alike;
//   2. request body fields whose `required` constraint is a decision (the
//      contract's `x-provenance` marks): the variant fills what the client
//      left out before the reference sees the request;
//   3. the seed's "only" / "absent" sentences about response fields: the
//      resources the variant leaves without extra fields.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { JsonSchema, OpenApiDocument } from "../src/openapi.ts";
import { errorCodeFindings, provenanceOf } from "../src/provenance.ts";

const read = (rel: string) => readFileSync(fileURLToPath(new URL(rel, import.meta.url)), "utf8");
export const openapi = JSON.parse(read("../../generated/openapi.json")) as OpenApiDocument;
export const seedText = read("../../spec/seed.txt");
const schemas = (openapi.components?.schemas ?? {}) as Record<string, JsonSchema>;

// ---- operations ----------------------------------------------------------------------------

export interface Op {
  method: string;
  path: string;
  operationId: string;
  re: RegExp;
  body?: JsonSchema;
  examples: unknown[];
}
/** Every operation of the contract, with its request body schema and examples. */
export const operations: Op[] = Object.entries(openapi.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, unknown>)
    .filter(([m]) => ["get", "post", "patch", "put", "delete"].includes(m))
    .map(([m, raw]) => {
      const op = raw as {
        operationId?: string;
        requestBody?: {
          content?: Record<string, { schema?: JsonSchema; examples?: Record<string, { value?: unknown }> }>;
        };
      };
      const media = op.requestBody?.content?.["application/json"];
      return {
        method: m.toUpperCase(),
        path,
        operationId: op.operationId ?? `${m} ${path}`,
        re: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
        body: media?.schema,
        examples: Object.values(media?.examples ?? {}).map((e) => e.value),
      };
    }),
);
/** The operation a request is for (literal paths win over templated ones). */
export const operationOf = (method: string, pathname: string): Op | undefined =>
  operations.find((o) => o.method === method && o.path === pathname) ??
  operations.find((o) => o.method === method && o.re.test(pathname));

// ---- 1. error codes whose status the seed does not show -------------------------------------

/** Every `error_code` the contract can answer (its ErrorCode enum). */
export const contractCodes = (): string[] => (schemas["Common.ErrorCode"]?.enum ?? []).map(String);

/** The error statuses the contract documents on some operation: a number of the seed is read as a status only if it is one. */
const documentedStatuses = new Set(
  errorCodeFindings(openapi)
    .map((f) => Number(f.status))
    .filter((s) => s >= 400),
);

/**
 * The codes the seed writes right after a status, each with that status: a
 * status number (or `5xx`) followed, in the same clause (up to `;`, `|` or
 * the end of the sentence), by backticked codes. "402 `insufficient_credits_ask`",
 * "| 404 | `dataset_not_found`, … |" (a table's status cell and the cell after
 * it), "- 402: `…`, `…`.", "422 family including `…` and `…`". Only statuses
 * of 400 and above that the contract documents count (plan prices such as 450
 * are not statuses), and only backticked words that are codes of the contract.
 */
export function seedPlacedCodes(text = seedText): Map<string, Set<number>> {
  const codes = new Set(contractCodes());
  const out = new Map<string, Set<number>>();
  for (const line of text.split("\n"))
    for (const m of line.matchAll(/(?<![\w.-])([45]\d\d|5xx)(?![\w.-])/g)) {
      const status = m[1] === "5xx" ? 500 : Number(m[1]);
      if (status < 400 || (m[1] !== "5xx" && !documentedStatuses.has(status))) continue;
      const rest = line.slice(m.index + m[0].length).replace(/^\s*\|/, "");
      const clause = rest.split(/[;|]|\.(?:\s|$)/)[0] ?? "";
      for (const c of clause.matchAll(/`([a-z][a-z0-9_]*)`/g))
        if (codes.has(c[1]!)) (out.get(c[1]!) ?? out.set(c[1]!, new Set()).get(c[1]!)!).add(status);
    }
  return out;
}

/** The codes whose status the seed does not show: the contract's codes minus those the seed places. */
export function codesWithoutSeedStatus(text = seedText): string[] {
  const placed = seedPlacedCodes(text);
  return contractCodes().filter((c) => !placed.has(c));
}

/** The other plausible status the variant answers for a status the contract chose (409 → 400, 400 → 422, …). */
export const OTHER_STATUS: Record<number, number> = { 409: 400, 400: 422, 503: 500, 504: 500 };

/** Codes whose status the seed does not show that the variant answers as the contract does, with the reason. */
export const STATUS_NOT_VARIED: Record<string, string> = {
  payload_too_large:
    "the status is HTTP's own (413 Content Too Large, RFC 9110), read by client libraries; D-BODY-LIMIT is varied by early-413-before-auth (another code, before authentication)",
  unsupported_media_type:
    "the status is HTTP's own (415, RFC 9110); D-CONTENT-TYPE is varied by content-type-ignored (no 415 at all)",
  expectation_failed:
    "the status is HTTP's own (417, RFC 9110), answered by the Node HTTP layer before any route (D-TRANSPORT-ERRORS)",
  request_header_fields_too_large:
    "the status is HTTP's own (431, RFC 6585), answered by the Node HTTP layer before any route (D-TRANSPORT-ERRORS)",
  request_timeout: "not observable: no operation documents it and no check stalls a request",
};

/** Varied codes no check can provoke, with the reason (their deviation is unjudged when all its codes are here). */
export const NOT_OBSERVABLE: Record<string, string> = {
  ai_assistant_unavailable: "a client cannot provoke an assistant outage",
  ai_assistant_timeout: "a client cannot provoke an assistant outage",
};

export interface StatusVariation {
  code: string;
  /** the contract's status and the one the variant answers instead */
  from: number;
  to: number;
  /** the decision that places the code at `from`, per operation (`POST /v1/custom_parameters`) */
  decisions: Record<string, string>;
}

/**
 * Per code whose status the seed does not show: the contract's status (from
 * the operations that document the code, errorCodeFindings) and the other one
 * the variant answers; codes in STATUS_NOT_VARIED are left out.
 */
export function statusVariations(text = seedText): { varied: StatusVariation[]; unclassified: string[] } {
  const findings = errorCodeFindings(openapi);
  const varied: StatusVariation[] = [];
  const unclassified: string[] = [];
  for (const code of codesWithoutSeedStatus(text)) {
    if (STATUS_NOT_VARIED[code]) continue;
    const at = findings.filter((f) => f.code === code);
    const statuses = [...new Set(at.map((f) => Number(f.status)))];
    for (const from of statuses) {
      const to = OTHER_STATUS[from];
      const decisions = Object.fromEntries(
        at
          .filter((f) => Number(f.status) === from && f.grounds?.kind === "decision")
          .map((f) => [f.key, (f.grounds as { decision: string }).decision]),
      );
      if (to === undefined || !Object.keys(decisions).length) unclassified.push(`${code} (${from})`);
      else varied.push({ code, from, to, decisions });
    }
    if (!statuses.length) unclassified.push(`${code} (documented by no operation)`);
  }
  return { varied, unclassified };
}

// ---- 2. request body fields whose `required` is a decision ---------------------------------

export interface RequiredByDecision {
  /** `CustomParameters.CreateCustomParameterBody.instructions` (the provenance walk's element) */
  element: string;
  decision: string;
}

/** Every request body property the contract requires by a decision, not by the seed's word "required". */
export function requiredByDecision(): RequiredByDecision[] {
  const out: RequiredByDecision[] = [];
  for (const c of provenanceOf(openapi).constraints())
    if (c.kind === "required" && c.side === "request" && c.provenance?.kind === "decision" && c.element.includes("."))
      out.push({ element: c.element, decision: c.provenance.decision });
  return out;
}

/** Required fields the variant still requires, each with the reason. */
export const STILL_REQUIRED: Record<string, string> = {
  "Common.PostRef.id": "a post's identity ((source, id) identifies a post): nothing to fill it from",
  "Common.PostRef.source": "a post's identity ((source, id) identifies a post): nothing to fill it from",
  "CustomParameters.CreateCustomParameterRunBody.scope": "names the dataset the run reads: nothing to fill it from",
  "CustomParameters.CustomParameterRunScope.id": "names the dataset the run reads: nothing to fill it from",
  "CustomParameters.CustomParameterPreviewBody.post_refs": "the posts to preview: nothing to fill them from",
  "Datasets.UrlSearchQuery.source_urls": "the URLs to collect: the search itself",
  "Datasets.SourceUrl.url": "the URL to collect: the search itself",
  "Previews.UrlPreviewBody.source_urls": "the URLs to preview: the preview itself",
  "Previews.PreviewSourceUrl.url": "the URL to preview: the preview itself",
  "Previews.PromptPreviewAbsoluteBody.search_query": "the query to preview: the preview itself",
  "Previews.PromptPreviewRelativeBody.search_query": "the query to preview: the preview itself",
  "Previews.PromptPreviewAbsoluteBody.date_since":
    "the seed settles it: 'Both, neither, or an incomplete pair gives 422' (a decision only for its type)",
  "Previews.PromptPreviewAbsoluteBody.date_until":
    "the seed settles it: 'Both, neither, or an incomplete pair gives 422' (a decision only for its type)",
  "Previews.PromptPreviewRelativeBody.time_filter":
    "the seed settles it: 'Both, neither, or an incomplete pair gives 422' (a decision only for its type)",
  "Patterns.CreatePatternDetectionBody.dataset_id": "names the dataset to cluster: nothing to fill it from",
  "TrackingAgents.CreateTrackingAgentBody.dataset_ids":
    "names the datasets the agent re-scrapes: nothing to fill them from",
  "Mentions.KeywordFilter.value": "the filter's operand: a keyword filter without a keyword says nothing to apply",
  "Mentions.CountryCodeFilter.values": "the filter's operand: open strings, no value stands for 'every country'",
  "Mentions.ContentTopicFilter.values": "the filter's operand: open labels, no value stands for 'every topic'",
  "Mentions.ContentIntentionFilter.values": "the filter's operand: open labels, no value stands for 'every intention'",
  "Mentions.ToneOfVoiceFilter.values": "the filter's operand: open labels, no value stands for 'every tone'",
  "Mentions.HookFilter.values": "the filter's operand: open labels, no value stands for 'every hook'",
  "Mentions.CtaFilter.values": "the filter's operand: open labels, no value stands for 'every call to action'",
  "Mentions.HasMediaFilter.value": "the filter's operand: true and false are the two questions it can ask",
  "Mentions.MetricChangeFilter.metric": "the filter's operand: which metric it compares",
  "Mentions.MetricChangeFilter.operator":
    "the filter's operand (D-METRIC-CHANGE-OPERATOR: the comparison and its numbers)",
  "Mentions.MentionedBrandsFilter.operator": "the filter's operand: the brands it looks for",
  "Mentions.BrandAnyOfOperator.values": "the filter's operand: the brands it looks for",
  "Mentions.BrandEqualsOperator.value": "the filter's operand: the brand it looks for",
  "Mentions.BrandContainsOperator.value": "the filter's operand: the brand it looks for",
  "Mentions.GreaterThanOperator.value": "the comparison's number (D-METRIC-CHANGE-OPERATOR)",
  "Mentions.LessThanOperator.value": "the comparison's number (D-METRIC-CHANGE-OPERATOR)",
  "Mentions.InRangeOperator.min": "the comparison's number (D-METRIC-CHANGE-OPERATOR)",
  "Mentions.InRangeOperator.max": "the comparison's number (D-METRIC-CHANGE-OPERATOR)",
  "Mentions.ChangedByOperator.value": "the comparison's number (D-METRIC-CHANGE-OPERATOR)",
  "Audiences.KeywordProfileFilter.value":
    "the filter's operand: a keyword filter without a keyword says nothing to apply",
  "Audiences.CountryCodeProfileFilter.values":
    "the filter's operand: open strings, no value stands for 'every country'",
  "Audiences.FollowerCountProfileFilter.value": "the comparison's number",
  "Audiences.IsVerifiedProfileFilter.value": "the filter's operand: true and false are the two questions it can ask",
  "Audiences.CreatorTierProfileFilter.values": "the filter's operand: open tiers, no value stands for 'every tier'",
  "Audiences.SourceProfileFilter.values": "the filter's operand",
};

/** Fields the variant fills by a rule of its own (the schema alone gives no value a deployment would choose). */
export const FILL_RULES: Record<string, string> = {
  "Datasets.SourceUrl.source": "the source named by the URL's host",
  "Previews.PreviewSourceUrl.source": "the source named by the URL's host",
  "Datasets.DateRange.from": "365 days before `to` (the seed's default window of a prompt search)",
  "Datasets.DateRange.to": "today (UTC)",
  "Audiences.UpdateAudienceDatasetBody.name":
    "an update without `name` is a no-op answering the current audience dataset (as a dataset's PATCH)",
};

const deref = (s: JsonSchema | undefined): { s?: JsonSchema; name?: string } => {
  let name: string | undefined;
  for (let i = 0; s?.$ref && i < 20; i++) {
    name = s.$ref.split("/").pop();
    s = schemas[name!];
  }
  return { s, name };
};
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const typeOf = (v: unknown) =>
  v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" ? "number" : typeof v;
/** Whether a value can be of a union's branch: its JSON type, and every single-valued enum property it carries. */
export function fits(v: unknown, s: JsonSchema | undefined): boolean {
  if (!s) return false;
  const types = [s.type ?? []].flat().map((t) => (t === "integer" ? "number" : t));
  if (types.length && !types.includes(typeOf(v))) return false;
  if (!isObj(v) || !s.properties) return true;
  return Object.entries(s.properties).every(([k, ps]) => {
    const e = deref(ps).s;
    const one = e?.const !== undefined ? [e.const] : e?.enum?.length === 1 ? e.enum : undefined;
    return !one || !(k in v) || one.includes(v[k]);
  });
}

/** The union tags of the contract: `Mentions.KeywordFilter.type` (a branch's discriminator property). */
const tags = (() => {
  const out = new Set<string>();
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(visit);
    if (!isObj(n)) return;
    const node = n as JsonSchema;
    const prop = node.discriminator?.propertyName;
    if (prop)
      for (const a of [...(node.anyOf ?? []), ...(node.oneOf ?? [])])
        if (a.$ref) out.add(`${a.$ref.split("/").pop()}.${prop}`);
    for (const [k, v] of Object.entries(node)) if (k !== "x-provenance" && typeof v === "object") visit(v);
  };
  visit(schemas);
  return out;
})();

/**
 * Walks a JSON value along its schema, calling `visit` on every object with
 * the component (or inline element) that types it. A union is followed into
 * the one branch its tag names, or the fitting branch that holds most of its
 * required fields.
 */
export function walkBody(
  v: unknown,
  schema: JsonSchema | undefined,
  visit: (element: string, s: JsonSchema, obj: Record<string, unknown>) => void,
  name = "(body)",
): void {
  const r = deref(schema);
  const s = r.s;
  const element = r.name ?? name;
  if (!s || v === null || v === undefined) return;
  const alts = (s.anyOf ?? s.oneOf)?.filter((a) => deref(a).s?.type !== "null");
  if (alts?.length) {
    const disc = s.discriminator?.propertyName;
    const ref = disc && isObj(v) ? s.discriminator?.mapping?.[String(v[disc])] : undefined;
    const held = (a: JsonSchema) => (deref(a).s?.required ?? []).filter((k) => isObj(v) && k in v).length;
    const branch = ref
      ? { $ref: ref }
      : disc
        ? undefined
        : alts.filter((a) => fits(v, deref(a).s)).sort((a, b) => held(b) - held(a))[0];
    if (branch) walkBody(v, branch, visit, element);
    return;
  }
  for (const part of s.allOf ?? []) walkBody(v, part, visit, element);
  if (Array.isArray(v)) {
    if (s.items) for (const x of v) walkBody(x, s.items, visit, `${element}[]`);
    return;
  }
  if (isObj(v) && s.properties) {
    visit(element, s, v);
    for (const [k, ps] of Object.entries(s.properties)) if (k in v) walkBody(v[k], ps, visit, `${element}.${k}`);
  }
}

/** The first value the contract's request examples give each element (`CustomParameters.CreateTrackingAgentBody.name`). */
const exampleValues = (() => {
  const out = new Map<string, unknown>();
  for (const op of operations)
    for (const ex of op.examples)
      walkBody(ex, op.body, (element, _s, obj) => {
        for (const [k, v] of Object.entries(obj)) if (!out.has(`${element}.${k}`)) out.set(`${element}.${k}`, v);
      });
  return out;
})();

/** How the variant fills a left-out field from the contract's schema or examples: its description and the value. */
export interface Fill {
  how: string;
  value?: unknown;
}
/** The fill the contract gives an element (default, enum, empty string, example), or undefined. */
export function schemaFill(element: string): Fill | undefined {
  const dot = element.lastIndexOf(".");
  const owner = deref({ $ref: `#/components/schemas/${element.slice(0, dot)}` }).s;
  const prop = deref(owner?.properties?.[element.slice(dot + 1)]).s;
  if (!prop) return undefined;
  if (prop.default !== undefined) return { how: "the schema's default", value: prop.default };
  const values = prop.const !== undefined ? [prop.const] : prop.enum;
  if (values?.length === 1) return { how: "its only value", value: values[0] };
  if (values?.length) return { how: "its first value", value: values[0] };
  const items = deref(prop.items).s?.enum;
  if (prop.type === "array" && items?.length && (prop.maxItems ?? Infinity) >= items.length)
    return { how: "every value (no restriction)", value: [...items] };
  if (prop.type === "string" && !prop.minLength && !prop.pattern && !prop.format)
    return { how: "an empty string", value: "" };
  if (exampleValues.has(element)) return { how: "the contract's example", value: exampleValues.get(element) };
  return undefined;
}

export type OptionalClass =
  | { element: string; decision: string; varied: true; how: string }
  | { element: string; decision: string; varied: false; reason?: string };

/** Each field required by a decision: made optional (how it is filled), or still required (why). */
export function optionalFields(): OptionalClass[] {
  return requiredByDecision().map(({ element, decision }) => {
    if (STILL_REQUIRED[element]) return { element, decision, varied: false, reason: STILL_REQUIRED[element] };
    if (tags.has(element))
      return { element, decision, varied: false, reason: "a union's tag: without it the request names no branch" };
    if (FILL_RULES[element]) return { element, decision, varied: true, how: FILL_RULES[element] };
    const fill = schemaFill(element);
    return fill ? { element, decision, varied: true, how: fill.how } : { element, decision, varied: false };
  });
}

// ---- 3. response fields the seed closes ("only", "absent") ----------------------------------

/**
 * The seed's sentences that close a response's field list: "carries only
 * `id`, …" (a backticked field right after "only") or "… fields are absent".
 */
export function closingSentences(text = seedText): string[] {
  return text
    .split(/\n|(?<=\.)\s+/)
    .filter((s) => /\bonly\s+`|\bfields are absent\b/.test(s))
    .map((s) => s.trim());
}
