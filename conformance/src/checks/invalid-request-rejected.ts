import fc from "fast-check";
import type { Operation } from "../contract.ts";
import type { CheckContext, Failure } from "../types.ts";
import { codesOf, provenanceAt, provenanceOf, type Place, type Provenance } from "../provenance.ts";
import { defineCheck } from "../define-check.ts";
import { schemaDecisions, schemaRows } from "../contract.ts";
import { decided, marks, seed } from "../grounding/assertions.ts";
import { bound, status, value, words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import {
  bodyCases,
  queryCases,
  randomBodyCase,
  seedCases,
  type NegCase,
  type SeedCaseRule,
} from "./support/negative.ts";
import type { CommonValidationError } from "../../../generated/client/types.gen.ts";
import { bodyOf, isObject } from "../typed.ts";
import { collections, createIn, fillPath, fixtureDataset, idOf, seen } from "./support/util.ts";
import { audienceSource } from "./support/audiences.ts";
import { mentionPrice } from "./support/billing.ts";
import { SkipError } from "../skip.ts";

/**
 * Negative data: for each operation, every bound of its body and query schema is
 * crossed once (deterministic sweep), then fast-check generates more invalid
 * bodies. Each must be refused, with 422 and the validation body. What a
 * mishandled case breaks is judged by the deployment's own answer: accepted,
 * it breaks the crossed constraint's provenance (the seed's grounded words, or
 * the decision); refused with another 4xx, the contract's D-422; refused for
 * a reason of its own (404, 402, 409: a resource it does not know, a balance,
 * a conflict), the case says nothing and is not exercised; a server error
 * breaks the seed's 422 for a malformed body or query.
 */
export default defineCheck({
  id: "invalid-request-rejected",
  phase: "requests",
  rule: "An invalid body or query (a bound crossed, also inside array items; wrong type; unknown enum value; missing required field) gets 422 with the validation body",
  section: "Endpoints (bounds per operation); Limits",
  severity: "critical",
  asserts: {
    // the crossed constraint's own mark decides an accepted case (a seed mark's facts are grounded by the provenance gate)
    constraints: marks([...schemaDecisions("requests"), "D-422", "D-UNPROCESSABLE"], schemaRows("requests")),
    // rules no single constraint holds, each stated by its own row
    mentionFilters: seed("mentions.filters.at-most-10", bound(10), words("filters in total")),
    profileFilters: seed("audience-profiles.filters-at-most-10", bound(10), words("filters in total")),
    keyword: seed("mentions.filters.keyword-2-words", words("at most 2 words")),
    country: seed("mentions.filters.country-code", words("uppercase ISO 3166-1 alpha-2")),
    metricOperator: seed(
      "mentions.filters.metric-change",
      value("greater_than"),
      value("less_than"),
      value("in_range"),
      value("changed_by"),
    ),
    window: seed("previews.prompt.one-window", status(422), words("Both, neither, or an incomplete pair gives 422.")),
    // lists whose own row states their limit's 1-100 (the contract marks the generic pagination sentence)
    agentMessagesLimit: seed("tracking-agents.messages.limit", words("`limit` (default 25, 1-100)")),
    usageHistoryLimit: seed("usage-history.limit", words("`limit` (default 25, 1-100)")),
    // a malformed body or query answered with a server fault
    serverFault: seed("endpoints.422-on-body-or-query", status(422), words("malformed body or query")),
    // refused, but not with the validation body's 422
    refusal: decided("D-422", status(422)),
  },
  profiles: ["readonly", "standard", "full"],
  invalidRequests: true,
  async run(ctx) {
    const ops = ctx.contract.operations.filter((o) => o.bodySchema || o.params.some((p) => p.in === "query"));
    let sentAny = false;
    for (const op of ops) {
      const readonlySafe = op.method === "GET" || !op.bodySchema;
      if (ctx.settings.profile === "readonly" && !readonlySafe) continue;
      const path = await pathFor(ctx, op);
      if (!path) {
        if (ctx.settings.profile !== "readonly")
          ctx.notExercised(`${op.operationId}: no resource of this account to put in ${op.path}`);
        continue;
      }
      sentAny = true;
      const cases = [
        ...(op.bodySchema ? [...bodyCases(ctx.contract, op), ...seedCases(ctx.contract, op)] : []),
        ...queryCases(op),
      ];
      for (const c of cases) await sendCase(ctx, op, path, c, { replay: `case "${c.label}"` });
      const arb = op.bodySchema ? randomBodyCase(ctx.contract, op) : undefined;
      if (arb && ctx.settings.numRuns > 0) {
        const seed = ctx.fcSeed();
        const out = await fc.check(
          fc.asyncProperty(arb, async (c) => (await sendCase(ctx, op, path, c, { seed, report: false })).ok),
          { seed, numRuns: ctx.settings.numRuns, endOnFailure: true, path: ctx.settings.fcPath },
        );
        if (out.failed) {
          const c = out.counterexample?.[0] as NegCase | undefined;
          const ex = c
            ? (await sendCase(ctx, op, path, c, { seed, path: out.counterexamplePath ?? undefined, report: false })).ex
            : undefined;
          const rule = c && ex ? ruleOf(ctx, op, c, ex.status) : undefined;
          if (rule)
            ctx.fail(
              {
                ...rule,
                title: `${op.operationId} accepted or mishandled generated invalid data (${c?.label})`,
                received: ex ? seen(ex) : String(out.errorInstance),
                expected: { status: 422, body: { detail: [{ loc: c?.loc, msg: "…", type: "…" }] } },
                seed,
                path: out.counterexamplePath ?? undefined,
                replay: `--seed ${seed} --fc-path ${out.counterexamplePath} --only invalid-request-rejected --operations ${op.operationId}`,
              },
              ex,
            );
        }
      }
    }
    if (!sentAny) ctx.skip("no operation with a body or query applies in this profile");
  },
});

export async function pathFor(ctx: CheckContext, op: Operation): Promise<string | undefined> {
  if (!op.path.includes("{")) return op.path;
  if (ctx.settings.profile === "readonly") return undefined;
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const values: Record<string, string> = {};
  for (const n of names) {
    if (n === "dataset_id") values[n] = (await fixtureDataset(ctx)).id;
    else {
      // a resource of another collection, created once per kit run (and cleaned up)
      const c = collections(ctx, ["/v1/datasets"]).find((x) => x.param === n);
      if (!c) return undefined;
      const id = await ctx.shared(`fixture-${c.list}`, async () => (await createIn(ctx, c, "fixture")).id);
      if (!id) return undefined;
      values[n] = id;
    }
  }
  return fillPath(op.path, values);
}

export async function sendCase(
  ctx: CheckContext,
  op: Operation,
  path: string,
  c: NegCase,
  o: { seed?: number; path?: string; report?: boolean; replay?: string },
): Promise<{ ok: boolean; ex: Exchange | undefined }> {
  const qs = c.query ? "?" + new URLSearchParams(c.query).toString() : "";
  const body = op.bodySchema ? await ownIds(ctx, op, c, c.body ?? op.bodyExamples[0] ?? {}) : undefined;
  // a chargeable operation would charge if it wrongly accepted the case: guard it, release when refused
  let release: (() => void) | undefined;
  if (op.responses.has("402")) {
    try {
      release = ctx.charge(
        await worstCase(ctx, body),
        `${op.operationId} negative case "${c.label}" (refused if conformant)`,
        { negative: true },
      );
    } catch (e) {
      if (!(e instanceof SkipError) || ctx.settings.profile === "readonly") throw e;
      ctx.notExercised(`${op.operationId} case "${c.label}" not sent: ${e.message}`);
      return { ok: true, ex: undefined };
    }
  }
  const ex = await ctx.req({
    method: op.method,
    path: path + qs,
    body,
    meta: { brokenLoc: c.loc, negative: c.label, seed: o.seed, path: o.path },
  });
  await undoAccidentalCreate(ctx, op, path, ex);
  if (ex.status >= 400) release?.();
  const ok =
    (ex.status === 422 && Array.isArray(bodyOf<CommonValidationError>(ex)?.detail)) ||
    ctx.lenient("D-UNPROCESSABLE", ex);
  if (ok) {
    if (o.report !== false) ctx.pass(ex);
    return { ok, ex };
  }
  // refused for a reason of the deployment's own, before or apart from validation (a resource it does not know, a balance,
  // a conflict, one of the operation's own domain codes): the case says nothing
  if (OWN_REFUSALS.has(ex.status) || domainRefusal(ctx, op, ex)) {
    if (o.report !== false)
      ctx.notExercised(
        `${op.operationId} case "${c.label}": refused with ${ex.status} ${errorCode(ex) ?? ""} (not about the case)`,
      );
    return { ok: true, ex };
  }
  // `order` "where supported": a list that ignores it need not validate it
  if (ex.status < 300 && (await ignoresWhereSupported(ctx, op, path, c))) {
    if (o.report !== false)
      ctx.notExercised(
        `${op.operationId} case "${c.label}": the list ignores the parameter, which the seed accepts "where supported"`,
      );
    return { ok: true, ex };
  }
  if (o.report !== false)
    ctx.fail(
      {
        ...ruleOf(ctx, op, c, ex.status),
        title: `${op.operationId} ${c.label} → ${ex.status}`,
        received: seen(ex),
        expected: { status: 422, body: { detail: [{ loc: c.loc, msg: "…", type: "…" }] } },
        replay: o.replay,
      },
      ex,
    );
  return { ok: false, ex };
}

/** The assertions a case's finding names. */
type Judges = SeedCaseRule | "constraints" | "serverFault" | "refusal" | "agentMessagesLimit" | "usageHistoryLimit";

/** Lists whose own endpoint row states `limit` 1-100: a crossed limit there breaks that row. */
const OWN_LIMIT_ROWS: Record<string, Judges> = {
  "GET /v1/tracking_agents/{agent_id}/messages": "agentMessagesLimit",
  "GET /v1/me/usage_history": "usageHistoryLimit",
};

/**
 * The case's body with the ids of the contract's examples put right: an id
 * field the case does not break names the account's own fixture dataset
 * (`dataset_id`, `source_dataset_id`, `dataset_ids`), or is left out when
 * the schema lets it go (a chat, parameters, integrations, post refs the
 * account does not hold); a `name` is the run's own. A deployment may look
 * its ids up (or its names) before it validates, so only the case's own
 * breakage is left for it to judge.
 */
async function ownIds(ctx: CheckContext, op: Operation, c: NegCase, body: unknown): Promise<unknown> {
  if (!isObject(body) || ctx.settings.profile === "readonly") return body;
  const broken = c.loc[0] === "body" ? c.loc[1] : undefined;
  const required = new Set(op.bodySchema?.required ?? []);
  const out: Record<string, unknown> = { ...body };
  for (const key of Object.keys(out)) {
    if (key === broken) continue;
    // a name the account may already hold (the example's, sent again by every case) would meet a uniqueness rule instead
    if (key === "name" && typeof out[key] === "string") out[key] = ctx.name(`neg-${++negNames}`);
    // an audience run's source: one the deployment can profile (a completed run of posts), so that a case it
    // wrongly accepts is accepted, not refused for its source
    else if (key === "source_dataset_id") out[key] = (await audienceSource(ctx)).id;
    else if (key === "dataset_id") out[key] = (await fixtureDataset(ctx)).id;
    else if (key === "dataset_ids" && Array.isArray(out[key])) out[key] = [(await fixtureDataset(ctx)).id];
    else if (LOOKED_UP.has(key) && !required.has(key)) delete out[key];
  }
  if (isObject(out.context) && broken !== "context") {
    const { dataset_ids: _d, post_refs: _p, ...rest } = out.context;
    out.context = {
      ...rest,
      ...(Array.isArray(_d) && c.loc[2] !== "dataset_ids" ? { dataset_ids: [(await fixtureDataset(ctx)).id] } : {}),
      ...(c.loc[2] === "post_refs" ? { post_refs: _p } : {}),
    };
  }
  return out;
}

/** How many case names this run gave out (each case its own, so a wrongly accepted one never collides with the next). */
let negNames = 0;

/** Optional body fields that name resources a deployment may look up before it validates. */
const LOOKED_UP = new Set(["chat_id", "audience_dataset_ids", "parameter_ids", "integration_ids", "post_refs"]);

/** A refusal with one of the operation's own documented domain codes (not a validation or generic one). */
function domainRefusal(ctx: CheckContext, op: Operation, ex: Exchange): boolean {
  const code = errorCode(ex);
  if (!code || ["bad_request", "unprocessable_entity", "invalid_cursor"].includes(code)) return false;
  return [...op.responses.entries()].some(
    ([s, spec]) => /^4/.test(s) && codesOf(ctx.contract.doc, spec.schema).includes(code),
  );
}

/** Statuses a deployment answers for reasons of its own (an unknown resource, a balance, a conflict): never the case's verdict. */
const OWN_REFUSALS = new Set([402, 404, 409]);

const errorCode = (ex: Exchange): string | undefined => {
  const code = isObject(ex.json) ? ex.json.error_code : undefined;
  return typeof code === "string" ? code : undefined;
};

/**
 * The rule a mishandled case breaks, from what the deployment answered: an
 * acceptance breaks the crossed constraint's provenance (its grounded seed
 * words, or its decision; a mark the gate could not ground is the contract's
 * D-422) or the seed case's own row; a server fault breaks the seed's 422 for a
 * malformed body or query; a refusal with another 4xx is D-422's, except
 * where the case's own row states the 422 (the prompt preview's window).
 */
function ruleOf(
  ctx: CheckContext,
  op: Operation,
  c: NegCase,
  status: number,
): Pick<Failure, "decision" | "seedQuote"> & { judges: Judges } {
  if (status >= 500) return { judges: "serverFault" };
  if (c.seed && (status < 400 || c.seed.strict)) return { judges: c.seed.judges };
  const rule = constraintRule(ctx, op, c);
  // a case crossing a decided constraint is that decision's whatever the answer: the seed says nothing of the case
  if (rule?.kind === "decision") return { judges: "constraints", decision: rule.decision };
  // a stated constraint refused with another 4xx: the refusal holds, its body is D-422's
  if (status >= 400) return { judges: "refusal", decision: "D-422" };
  const own = c.loc[0] === "query" && c.loc[1] === "limit" ? OWN_LIMIT_ROWS[op.key] : undefined;
  if (rule?.kind === "seed" && own) return { judges: own };
  if (rule?.kind === "seed") return { judges: "constraints", seedQuote: rule.quote };
  return { judges: "constraints", decision: "D-422" };
}

/** The provenance of the constraint a case crosses (its end, for a bound). */
function constraintRule(ctx: CheckContext, op: Operation, c: NegCase): Provenance | undefined {
  const map = provenanceOf(ctx.contract.doc);
  const [where, name = "", ...rest] = c.loc;
  let place: Place | undefined;
  if (where === "body" && op.bodyRef)
    place = map.placeOf(
      { $ref: `#/components/schemas/${op.bodyRef}` },
      [name, ...rest].map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg)),
      c.body,
    );
  const param = op.params.find((p) => p.in === "query" && p.name === name);
  if (where === "query" && param) place = map.placeOfParameter(param.raw, `${op.operationId} query ${name}`);
  return place ? provenanceAt(place, c.kind, c.end) : undefined;
}

/**
 * Whether a query parameter the seed accepts only "where supported" (its
 * mark's words say so: `order`) is ignored by this list: the same items in
 * the same order for both of its values. A list with fewer than two items
 * cannot tell, and is taken as ignoring it (the case is not exercised).
 */
async function ignoresWhereSupported(ctx: CheckContext, op: Operation, path: string, c: NegCase): Promise<boolean> {
  if (op.method !== "GET" || !c.query) return false;
  const [name] = Object.keys(c.query);
  const param = op.params.find((p) => p.in === "query" && p.name === name);
  if (!param || c.kind !== "enum") return false;
  const place = provenanceOf(ctx.contract.doc).placeOfParameter(param.raw, `${op.operationId} query ${name}`);
  const rule = provenanceAt(place, "enum");
  if (rule?.kind !== "seed" || !/where supported/i.test(rule.quote)) return false;
  const values = (place.node.enum ?? []).map(String);
  if (values.length < 2) return false;
  const ids = async (v: string) => {
    const ex = await ctx.req({ method: "GET", path: `${path}?${new URLSearchParams({ [name!]: v, limit: "20" })}` });
    const data = isObject(ex.json) && Array.isArray(ex.json.data) ? ex.json.data : undefined;
    return data?.map((d) => (isObject(d) ? String(d.id ?? d.message_id ?? JSON.stringify(d)) : String(d)));
  };
  const [a, b] = [await ids(values[0]!), await ids(values[1]!)];
  if (!a || !b || a.length < 2) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A refused request the deployment accepted may have created a resource: it
 * is deleted at once (and kept for the cleanup when the delete fails), so it
 * never holds one of the account's caps (tracking agents, custom parameters)
 * for the checks that run after.
 */
export async function undoAccidentalCreate(
  ctx: CheckContext,
  op: Operation,
  path: string,
  ex: Exchange,
): Promise<void> {
  const deletable = ctx.contract.operations.some(
    (o) =>
      o.method === "DELETE" && o.path.startsWith(op.path + "/{") && !o.path.slice(op.path.length + 1).includes("/"),
  );
  if (!deletable || op.method !== "POST" || ex.status < 200 || ex.status >= 300 || op.path.endsWith("}")) return;
  const id = idOf(ex);
  if (id === undefined) return;
  const target = `${path.split("?")[0]}/${encodeURIComponent(id)}`;
  ctx.track("accidental", target);
  const del = await ctx.req({ method: "DELETE", path: target });
  if (del.status >= 200 && del.status < 300) ctx.untrack(target);
}

/** What a wrongly accepted run could cost: its count (default 200) × the mention price. */
async function worstCase(ctx: CheckContext, body: unknown): Promise<string> {
  if (!ctx.contract.op("GET /v1/prices")) return "0";
  const { price } = await mentionPrice(ctx);
  const n = Number(isObject(body) ? body.count : undefined);
  const count = Number.isFinite(n) && n > 0 ? Math.min(Math.ceil(n), 1_000_000) : 200;
  return price.mul(count).toFixed();
}
