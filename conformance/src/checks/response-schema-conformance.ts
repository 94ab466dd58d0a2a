import { decision, defineCheck } from "../define-check.ts";
import { schemaDecisions } from "../contract.ts";
import { readDecisions } from "../decisions.ts";
import { LENIENT, lenientWarning, normalised, UNDOABLE, type LenientId } from "../lenient.ts";
import { describeConstraint, judgeIssues, provenanceOf, type Judged } from "../provenance.ts";

/** Every documented response body validates against the generated zod of its operation and status. */
export default defineCheck({
  id: "response-schema-conformance",
  rule: "Every response body validates against the generated zod schema of its operation and status",
  section: "Resources (every model)",
  severity: "critical",
  rules: {
    seed: "Resources and their fields (every model of the seed)",
    decisions: [
      decision("D-PREVIEW-404", { ops: /^ResearchPreviews_read$/, status: (s) => s === 404 }),
      // a 400 or 422 body that is not the contract's on the operations whose conflicts (D-409) and domain refusals (D-400) the contract placed
      decision("D-409", {
        ops: /^(CustomParameters_(create|update|createRun)|TrackingAgents_trigger)$/,
        status: (s) => s === 400,
      }),
      decision("D-400", {
        ops: /^(CustomParameters_(create|update|createRun)|TrackingAgents_trigger)$/,
        status: (s) => s === 422,
      }),
      decision("D-CURSOR", { sentBy: ["pagination-garbage-cursor-400", "pagination-sort-change-cursor-400"] }),
      decision("D-DATE-RANGE-ORDER", { sentBy: ["date-range-order-422"] }),
      decision("D-BODY-LIMIT", { sentBy: ["body-limit-413"] }),
      decision("D-PDR-STATES", { ops: /^PatternDetections_(read|create)$/, status: (s) => s < 300 }),
      decision("D-CPR-STATES", { ops: /^CustomParameters_(readRun|listRuns)$/, status: (s) => s < 300 }),
      decision("D-MONEY-NUMBER", { ops: /^(Pricing_read|Account_read|Account_usageHistory)$/, status: (s) => s < 300 }),
      decision("D-RUN-422", { ops: /^DatasetRuns_create$/, status: (s) => s === 422 }),
      decision("D-STATUS-STRING", { title: /D-STATUS-STRING/ }),
      decision("D-UNPROCESSABLE", { title: /D-UNPROCESSABLE/ }),
    ],
  },
  mock: true,
  // the check's own rows, then every decision a provenance mark names in the schemas it validates against
  decisions: unique([
    "D-STATUS-STRING",
    "D-UNPROCESSABLE",
    "D-MONEY-STRING",
    "D-TIMESTAMPS",
    "D-MENTION-ANALYSIS-NULL",
    "D-MENTION-PARAMETERS",
    "D-LIST-ENVELOPE",
    "D-RUN-422",
    "D-BILLING-PRECISION",
    "D-PARAM-VALUE-STATUS",
    "D-RUN-STATES",
    "D-PDR-STATES",
    "D-CPR-STATES",
    "D-TAR-STATES",
    "D-PATTERN-SHAPE",
    "D-PATTERN-ITEM-SHAPE",
    "D-PREVIEW-URL-ITEM",
    "D-TA-MESSAGE",
    "D-TA-NEXT-RUN",
    "D-RUN-404",
    "D-MESSAGE-404",
    "D-PATTERN-ITEM-404",
    "D-CPR-UNKNOWN-RUN",
    "D-PDR-EMPTY",
    ...schemaDecisions("responses"),
  ]),
  inspect(ex, ctx) {
    const spec = ex.op?.responses.get(String(ex.status));
    if (!ex.op || !spec) return; // undocumented statuses are documented-status-only's business
    if (!spec.hasJson) return; // empty bodies: empty-body-204
    if (!spec.zod) {
      ctx.warn(`no generated zod for ${ex.op.operationId} ${ex.status} (${spec.schemaRef ?? "inline schema"})`);
      return;
    }
    if (ex.jsonError || ex.text.length === 0)
      return ctx.fail(ex, {
        title: `${ex.op.operationId} ${ex.status} body is not JSON`,
        received: ex.text.slice(0, 200),
        expected: spec.schemaRef,
      });
    // the lenient rules of spec/DECISIONS.md come from the one registry, so this check tolerates exactly what status-string-mapping does
    if (ctx.lenient("D-UNPROCESSABLE", ex)) return ctx.pass(ex);
    // each tolerated departure is warned (both are asked, not just the first) and undone before the rest is validated
    const departures = [ctx.lenient("D-STATUS-STRING", ex), ...UNDOABLE.map((id) => ctx.lenient(id, ex))];
    const body = departures.some(Boolean) ? normalised(ex) : ex.json;
    const r = spec.zod.safeParse(body);
    if (r.success) return ctx.pass(ex);
    const expected = `#/components/schemas/${spec.schemaRef} (${spec.zodName})`;
    const judged = spec.schema
      ? judgeIssues(provenanceOf(ctx.contract.doc), spec.schema, r.error.issues, body)
      : r.error.issues.map((i): Judged => ({ path: i.path }));
    const view = (j: Judged) => ({
      path: j.path.join("."),
      constraint: j.constraint ? describeConstraint(j.constraint) : "(outside the schema)",
      received: pick(ex.json, j.path),
    });
    // constraints the seed states (or that nothing marks) fail as one finding; each contract decision is its own
    const seedOnes = judged.filter((j) => j.constraint?.provenance?.kind !== "decision");
    if (seedOnes.length)
      ctx.fail(ex, {
        title: `${ex.op.operationId} ${ex.status} body does not match ${spec.schemaRef}`,
        received: seedOnes.slice(0, 5).map(view),
        expected: { schema: expected, seed: quotesOf(seedOnes) },
      });
    for (const [id, items] of byDecision(judged)) {
      const where = items
        .map((j) => describeConstraint(j.constraint!))
        .slice(0, 3)
        .join("; ");
      // a lenient row tolerates its departure: with a warning (the registry's rule), or without a finding where the row says so
      if (id in LENIENT) {
        ctx.warn(lenientWarning(id as LenientId, where), ex);
        continue;
      }
      if (UNJUDGED_ROWS.has(id)) continue;
      ctx.fail(ex, {
        title: `${ex.op.operationId} ${ex.status} body does not match ${spec.schemaRef}: ${where} (${id})`,
        received: items.slice(0, 5).map(view),
        expected,
        decision: id,
      });
    }
  },
});

/** Lenient rows without a registry rule: the table accepts their departures without a finding. */
const UNJUDGED_ROWS = new Set(
  readDecisions()
    .filter((r) => /^lenient/i.test(r.kit) && !(r.id in LENIENT))
    .map((r) => r.id),
);

/** The seed's words behind the failed seed constraints (distinct). */
function quotesOf(judged: Judged[]): string[] {
  return [
    ...new Set(judged.map((j) => j.constraint?.provenance).flatMap((p) => (p?.kind === "seed" ? [p.quote] : []))),
  ];
}

/** The failed decision constraints, grouped by decision. */
function byDecision(judged: Judged[]): Map<string, Judged[]> {
  const out = new Map<string, Judged[]>();
  for (const j of judged) {
    const p = j.constraint?.provenance;
    if (p?.kind === "decision") out.set(p.decision, [...(out.get(p.decision) ?? []), j]);
  }
  return out;
}

/** The value at a zod issue's path in the body as sent (indexing as JavaScript does, arrays and strings included). */
function pick(v: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = v;
  for (const p of path) cur = cur === null || cur === undefined ? undefined : (cur as Record<PropertyKey, unknown>)[p];
  return cur === undefined ? "(missing)" : cur;
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}
