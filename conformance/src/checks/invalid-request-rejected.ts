import fc from "fast-check";
import type { Operation } from "../contract.ts";
import type { CheckContext, Failure } from "../types.ts";
import { provenanceAt, provenanceOf, type Place } from "../provenance.ts";
import { decision, defineCheck } from "../define-check.ts";
import { schemaDecisions } from "../contract.ts";
import type { Exchange } from "../http.ts";
import { bodyCases, queryCases, randomBodyCase, seedCases, type NegCase } from "./support/negative.ts";
import type { CommonValidationError } from "../../../generated/client/types.gen.ts";
import { bodyOf, isObject } from "../typed.ts";
import { collections, createIn, fillPath, fixtureDataset, idOf, seen } from "./support/util.ts";
import { mentionPrice } from "./support/billing.ts";
import { SkipError } from "../skip.ts";

/**
 * Negative data: for each operation, every bound of its body and query schema is
 * crossed once (deterministic sweep), then fast-check generates more invalid
 * bodies. Each must get 422 with the validation body (never 2xx, never 5xx).
 */
export default defineCheck({
  id: "invalid-request-rejected",
  phase: "requests",
  rule: "An invalid body or query (a bound crossed, also inside array items; wrong type; unknown enum value; missing required field) gets 422 with the validation body",
  section: "Endpoints (bounds per operation); Limits",
  severity: "critical",
  rules: {
    refusals: true,
    seed: "every endpoint with a body or query can return 422 with the validation body",
    // bounds the seed states itself: names 1-255, search_query 1-5000, count 20-1000, comments 0-100, profiles 1-2000, limit 1-100, 100 URLs, 50 ask post_refs, 1-5 preview post_refs
    seedWhen: [
      {
        title:
          /^(Datasets_(create|update)|AudienceDatasets_create) name: |search_query|\bcount: |num_comments_per_post|total_profile_count|\blimit: |source_urls|^Ask_ask post_refs|^CustomParameters_preview post_refs/,
        status: (s) => s < 400,
      },
    ],
    decisions: [
      decision("D-SEARCH-MODE", { title: /search_mode/ }),
      decision("D-MENTIONS-OPERATION", { title: /Mentions_search operation\b|\boperation:/ }),
      decision("D-TIME-FILTER", { title: /time_filter/ }),
      decision("D-CP-VALUE-TYPE", { title: /value_type/ }),
      decision("D-FILTER-TOTAL", { title: /filters.*(more than 10|total)/ }),
      decision("D-PDR-BODY", { title: /PatternDetections_create/ }),
      decision("D-TA-SCHEDULE", { title: /schedule/ }),
      decision("D-PREVIEW-URL-CAP", { title: /ResearchPreviews_create source_urls/ }),
      decision("D-PREVIEW-DATES", { title: /date_since|date_until/ }),
      decision("D-AUD-PATCH", { title: /AudienceDatasets_update/ }),
      decision("D-BOUND-ARRAYS", { title: /maxItems|too many items/ }),
      decision("D-BOUND-STRINGS", { title: /maxLength|too long/ }),
      // refused, but not with the validation body's 422
      decision("D-422", { status: (s) => s >= 400 && s < 500 && s !== 422 }),
    ],
  },
  // the check's own rows, then every decision a provenance mark names in the schemas it validates against
  decisions: unique([
    "D-422",
    "D-UNPROCESSABLE",
    "D-SEARCH-MODE",
    "D-MENTIONS-OPERATION",
    "D-FILTER-TOTAL",
    "D-METRIC-CHANGE-OPERATOR",
    "D-TIME-FILTER",
    "D-PREVIEW-QUERY-BOUNDS",
    "D-PREVIEW-URL-CAP",
    "D-PREVIEW-DATES",
    "D-PREVIEW-WINDOW",
    "D-PDR-BODY",
    "D-TA-NAME",
    "D-TA-SCHEDULE",
    "D-TA-SCHEDULE-TZ",
    "D-TA-CREATE",
    "D-CP-VALUE-TYPE",
    "D-AUD-PATCH",
    "D-AUD-PROFILE-FILTERS",
    "D-AUD-FILTER-CAP",
    "D-BOUND-ARRAYS",
    ...schemaDecisions("requests"),
  ]),
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
          ctx.warn(`${op.operationId} not exercised (no resource of this account to put in ${op.path})`);
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
          ctx.fail(
            {
              ...(c && ex ? ruleOf(ctx, op, c, ex.status) : {}),
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
  const body = op.bodySchema ? (c.body ?? op.bodyExamples[0] ?? {}) : undefined;
  // a chargeable operation would charge if it wrongly accepted the case: guard it, release when refused
  let release: (() => void) | undefined;
  if (op.responses.has("402")) {
    try {
      release = ctx.charge(
        await worstCase(ctx, body),
        `${op.operationId} negative case "${c.label}" (refused if conformant)`,
      );
    } catch (e) {
      if (!(e instanceof SkipError) || ctx.settings.profile === "readonly") throw e;
      ctx.warn(`case not sent: ${e.message}`);
      return { ok: true, ex: undefined };
    }
  }
  const ex = await ctx.req({
    method: op.method,
    path: path + qs,
    body,
    meta: { brokenLoc: c.loc, negative: c.label, seed: o.seed, path: o.path },
  });
  trackAccidentalCreate(ctx, op, path, ex);
  if (ex.status >= 400) release?.();
  const ok =
    (ex.status === 422 && Array.isArray(bodyOf<CommonValidationError>(ex)?.detail)) ||
    ctx.lenient("D-UNPROCESSABLE", ex);
  if (o.report !== false)
    ctx.expect(
      ok,
      {
        ...ruleOf(ctx, op, c, ex.status),
        title: `${op.operationId} ${c.label} → ${ex.status}`,
        received: seen(ex),
        expected: { status: 422, body: { detail: [{ loc: c.loc, msg: "…", type: "…" }] } },
        replay: o.replay,
      },
      ex,
    );
  return { ok, ex };
}

/**
 * The rule a mishandled case breaks, from the provenance of the constraint it
 * crosses. A constraint the contract decided makes any outcome other than the
 * validation 422 a finding of that decision (a warning at --level seed). A
 * constraint the seed states makes an acceptance a seed finding; its refusal
 * with another 4xx is judged by the check's rules (D-422).
 */
function ruleOf(ctx: CheckContext, op: Operation, c: NegCase, status: number): Pick<Failure, "decision" | "seedQuote"> {
  // a rule the seed states in its own words for this case (a total, a pair): accepting it breaks them
  if (c.seed && (status < 400 || c.seed.strict)) return { seedQuote: c.seed.quote };
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
  const rule = place && provenanceAt(place, c.kind);
  if (rule?.kind === "decision") return { decision: rule.decision };
  if (rule?.kind === "seed" && status < 400) return { seedQuote: rule.quote };
  return {};
}

export function trackAccidentalCreate(ctx: CheckContext, op: Operation, path: string, ex: Exchange): void {
  const deletable = ctx.contract.operations.some(
    (o) =>
      o.method === "DELETE" && o.path.startsWith(op.path + "/{") && !o.path.slice(op.path.length + 1).includes("/"),
  );
  if (deletable && op.method === "POST" && ex.status >= 200 && ex.status < 300 && !op.path.endsWith("}")) {
    const id = idOf(ex);
    if (id !== undefined) ctx.track("accidental", `${path.split("?")[0]}/${encodeURIComponent(id)}`);
  }
}

/** What a wrongly accepted run could cost: its count (default 200) × the mention price. */
async function worstCase(ctx: CheckContext, body: unknown): Promise<string> {
  if (!ctx.contract.op("GET /v1/prices")) return "0";
  const { price } = await mentionPrice(ctx);
  const n = Number(isObject(body) ? body.count : undefined);
  const count = Number.isFinite(n) && n > 0 ? Math.min(Math.ceil(n), 1_000_000) : 200;
  return price.mul(count).toFixed();
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}
