import { defineCheck } from "../define-check.ts";
import { marks, seed, type Asserts } from "../grounding/assertions.ts";
import { status } from "../grounding/facts.ts";
import type { OperationObject } from "../openapi.ts";
import { codesOf, errorCodeProvenance, type Provenance } from "../provenance.ts";
import { STATUS_DECISIONS } from "../status-decisions.ts";
import { errorCodeDecisions } from "../contract.ts";
import { isObject } from "../typed.ts";
import type { Exchange } from "../http.ts";
import type { Contract } from "../contract.ts";

/**
 * The success status the seed's own row states for an operation, and the
 * assertion (ledger rows) that states it. An operation not listed here has a
 * success status the seed does not show: the contract decided it.
 */
const STATED_SUCCESS: Record<string, { judges: "created" | "accepted" | "emptied" | "read"; status: number }> = {
  "POST /v1/datasets": { judges: "created", status: 201 },
  "POST /v1/audience_datasets": { judges: "created", status: 201 },
  "POST /v1/datasets/{dataset_id}/runs": { judges: "accepted", status: 202 },
  "POST /v1/audience_datasets/{audience_dataset_id}/runs": { judges: "accepted", status: 202 },
  "POST /v1/ask": { judges: "accepted", status: 202 },
  "DELETE /v1/datasets/{dataset_id}": { judges: "emptied", status: 204 },
  "GET /v1/datasets": { judges: "read", status: 200 },
  "GET /v1/datasets/{dataset_id}": { judges: "read", status: 200 },
  "PATCH /v1/datasets/{dataset_id}": { judges: "read", status: 200 },
  "GET /v1/datasets/{dataset_id}/runs": { judges: "read", status: 200 },
  "GET /v1/datasets/{dataset_id}/runs/{run_id}": { judges: "read", status: 200 },
  "GET /v1/audience_datasets": { judges: "read", status: 200 },
  "GET /v1/audience_datasets/{audience_dataset_id}": { judges: "read", status: 200 },
  "PATCH /v1/audience_datasets/{audience_dataset_id}": { judges: "read", status: 200 },
  "GET /v1/audience_datasets/{audience_dataset_id}/runs": { judges: "read", status: 200 },
  "GET /v1/audience_datasets/{audience_dataset_id}/runs/{run_id}": { judges: "read", status: 200 },
};

const asserts = {
  created: seed(["datasets.create.201", "audience-datasets.create"], status(201)),
  accepted: seed(["dataset-run.create-pending-202", "audience-datasets.runs.create.202", "ask.202"], status(202)),
  emptied: seed("datasets.delete.204", status(204)),
  read: seed(
    [
      "datasets.list.sorted",
      "datasets.read.200",
      "datasets.update.semantics",
      "datasets.runs.list.404",
      "datasets.runs.read.404",
      "audience-datasets.list",
      "audience-datasets.read",
      "audience-datasets.update",
      "audience-datasets.runs.list",
      "audience-datasets.runs.read",
    ],
    status(200),
  ),
  // every other status: the decision that placed it (a code's decided status, the contract's success status, D-OP-STATUSES)
  statuses: marks([
    ...STATUS_DECISIONS.map((d) => d.decision),
    "D-OP-STATUSES",
    "D-UNNAMED-STATUS",
    ...errorCodeDecisions(),
  ]),
} satisfies Asserts;

/**
 * A deployment answers only statuses its operation documents. A success
 * status other than the one the seed's row states for the operation breaks
 * that row; every other undocumented status is a decision: an error code
 * answered at another status than the contract's (the code's status decided,
 * e.g. D-409), a success status the seed does not show, or which error
 * statuses an operation answers at all (D-OP-STATUSES).
 */
export default defineCheck({
  id: "documented-status-only",
  rule: "Every response status is one the operation documents in the contract",
  section: "Endpoints (per-operation responses); Errors",
  severity: "critical",
  asserts,
  mock: true,
  inspect(ex, ctx) {
    if (!ex.op) return;
    if (
      ex.op.responses.has(String(ex.status)) ||
      ex.op.responses.has("default") ||
      ex.op.responses.has(`${String(ex.status)[0]}XX`)
    )
      return ctx.pass(ex);
    const base = {
      title: `${ex.op.operationId} answered undocumented ${ex.status}`,
      received: ex.status,
      expected: [...ex.op.responses.keys()].join(" | "),
      message: ex.meta.negative ? `negative case: ${ex.meta.negative}` : undefined,
    };
    const stated = STATED_SUCCESS[ex.op.key];
    if (ex.status >= 200 && ex.status < 300 && stated && ex.status !== stated.status)
      return ctx.fail(ex, { ...base, judges: stated.judges, expected: stated.status });
    const rule = ruleOf(ctx.contract, ex);
    ctx.fail(ex, {
      ...base,
      judges: "statuses",
      ...(rule.kind === "seed" ? { seedQuote: rule.quote } : { decision: rule.decision }),
    });
  },
});

/**
 * What placed a status the operation does not document: an error code the
 * operation documents at another status is the seed's where the seed gives
 * the code that status for the operation (a 404 code answered at 400), and
 * otherwise that status's decision (D-409, D-400…); a success status the seed
 * does not show is the contract's; any other status is D-OP-STATUSES.
 */
function ruleOf(contract: Contract, ex: Exchange): Provenance {
  const op = ex.op!;
  if (ex.status >= 200 && ex.status < 300)
    return {
      kind: "decision",
      decision: STATUS_DECISIONS.find((d) => d.ops.test(op.operationId))?.decision ?? "D-OP-STATUSES",
    };
  const code = isObject(ex.json) ? ex.json.error_code : undefined;
  const raw = contract.doc.paths?.[op.path]?.[op.method.toLowerCase() as "get"] as OperationObject | undefined;
  if (typeof code === "string" && raw)
    for (const [documented, spec] of op.responses) {
      if (!/^[45]/.test(documented) || !codesOf(contract.doc, spec.schema).includes(code)) continue;
      const grounds = errorCodeProvenance(contract.doc, raw, documented, code);
      if (grounds) return grounds;
    }
  return { kind: "decision", decision: "D-OP-STATUSES" };
}
