import { defineCheck } from "../define-check.ts";
import { schemaDecisions, schemaRows } from "../contract.ts";
import { readDecisions } from "../decisions.ts";
import { marks, seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { LENIENT, lenientWarning, normalised, UNDOABLE, type LenientId, type LenientRule } from "../lenient.ts";
import type { OperationObject } from "../openapi.ts";
import {
  codesOf,
  describeConstraint,
  errorCodeProvenance,
  judgeIssues,
  provenanceOf,
  type Judged,
  type Provenance,
} from "../provenance.ts";
import type { Exchange } from "../http.ts";
import type { Contract } from "../contract.ts";

/**
 * Every documented response body validates against the generated zod of its
 * operation and status. Each failed constraint is judged by its own
 * provenance mark (the gate grounds every @seed mark's facts in its quote):
 * the seed's constraints fail together as one finding, each decision apart.
 * An error body's `error_code` is judged per operation: the seed's only where
 * the operation's passages name its documented codes at that status.
 */
export default defineCheck({
  id: "response-schema-conformance",
  rule: "Every response body validates against the generated zod schema of its operation and status",
  section: "Resources (every model)",
  severity: "critical",
  asserts: {
    // the marks of the constraint that failed decide: the seed's words, or the decision (with the lenient rows the registry reads)
    schema: marks(
      [
        ...schemaDecisions("responses"),
        "D-STATUS-STRING",
        "D-UNPROCESSABLE",
        ...(Object.entries(LENIENT) as Array<[LenientId, LenientRule]>)
          .filter(([, r]) => r.undo || r.schema)
          .map(([id]) => id),
      ],
      schemaRows("responses"),
    ),
    json: seed("service.json-bodies", words("All bodies are JSON.")),
  },
  mock: true,
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
        judges: "json",
        title: `${ex.op.operationId} ${ex.status} body is not JSON`,
        received: ex.text.slice(0, 200),
        expected: spec.schemaRef,
      });
    // each tolerated departure is warned (both are asked, not just the first) and undone before the rest is validated
    const departures = [ctx.lenient("D-STATUS-STRING", ex), ...UNDOABLE.map((id) => ctx.lenient(id, ex))];
    const body = departures.some(Boolean) ? normalised(ex) : ex.json;
    const r = spec.zod.safeParse(body);
    if (r.success) return ctx.pass(ex);
    // the seed states the 422 body two ways: the error envelope (any code) in the place of the validation body is D-UNPROCESSABLE's
    if (ex.status === 422 && ctx.lenient("D-UNPROCESSABLE", ex)) return ctx.pass(ex);
    const expected = `#/components/schemas/${spec.schemaRef} (${spec.zodName})`;
    const judged = (
      spec.schema
        ? judgeIssues(provenanceOf(ctx.contract.doc), spec.schema, r.error.issues, body)
        : r.error.issues.map((i): Judged => ({ path: i.path }))
    ).map((j) => perOperationCode(ctx.contract, ex, j));
    const view = (j: Judged) => ({
      path: j.path.join("."),
      constraint: j.constraint ? describeConstraint(j.constraint) : "(outside the schema)",
      received: pick(ex.json, j.path),
    });
    // constraints the seed states (or that nothing marks) fail as one finding; each contract decision is its own
    const seedOnes = judged.filter((j) => j.constraint?.provenance?.kind !== "decision");
    if (seedOnes.length)
      ctx.fail(ex, {
        judges: "schema",
        title: `${ex.op.operationId} ${ex.status} body does not match ${spec.schemaRef}`,
        received: seedOnes.slice(0, 5).map(view),
        expected: { schema: expected, seed: quotesOf(seedOnes) },
        seedQuote: quotesOf(seedOnes).join(" … ") || undefined,
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
        judges: "schema",
        title: `${ex.op.operationId} ${ex.status} body does not match ${spec.schemaRef}: ${where} (${id})`,
        received: items.slice(0, 5).map(view),
        expected,
        decision: id,
      });
    }
  },
});

/**
 * An error body's `error_code` failed: judged by what the seed states for
 * this operation at this status (errorCodeProvenance), never by the error
 * model's own mark. The documented codes are the seed's only when each of
 * them is stated for the operation at the status; otherwise the
 * operation's decision names the finding.
 */
function perOperationCode(contract: Contract, ex: Exchange, j: Judged): Judged {
  const c = j.constraint;
  if (!c?.perOperation && !(c && /\.error_code$/.test(c.element) && c.kind !== "required")) return j;
  if (ex.status < 400 || !ex.op) return j;
  const op = contract.doc.paths?.[ex.op.path]?.[ex.op.method.toLowerCase() as "get"] as OperationObject | undefined;
  const schema = ex.op.responses.get(String(ex.status))?.schema;
  if (!op || !schema) return j;
  const status = String(ex.status);
  const grounds = codesOf(contract.doc, schema).map((code) => errorCodeProvenance(contract.doc, op, status, code));
  const decision = grounds.find((g): g is Extract<Provenance, { kind: "decision" }> => g?.kind === "decision");
  const provenance: Provenance | undefined =
    decision ?? (grounds.length && grounds.every((g) => g?.kind === "seed") ? grounds[0] : c.provenance);
  return { ...j, constraint: { ...c, provenance } };
}

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
