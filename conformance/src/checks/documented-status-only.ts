import type { ResponseCheck } from "../types.ts";

/** A deployment answers only statuses its operation documents. */
const check: ResponseCheck = {
  kind: "response",
  id: "documented-status-only",
  rule: "Every response status is one the operation documents in the contract",
  section: "Endpoints (per-operation responses); Errors",
  severity: "critical",
  decisions: ["D-CREATE-201", "D-ASYNC-202", "D-409", "D-400", "D-EMPTY-204", "D-CREDIT-PRICES"],
  profiles: ["readonly", "standard", "full"],
  mock: true,
  inspect(ex, ctx) {
    if (!ex.op) return;
    if (
      ex.op.responses.has(String(ex.status)) ||
      ex.op.responses.has("default") ||
      ex.op.responses.has(`${String(ex.status)[0]}XX`)
    )
      return ctx.pass(ex);
    ctx.fail(ex, {
      title: `documented-status-only: ${ex.op.operationId} answered undocumented ${ex.status}`,
      received: ex.status,
      expected: [...ex.op.responses.keys()].join(" | "),
      message: ex.meta.negative ? `negative case: ${ex.meta.negative}` : undefined,
    });
  },
};
export default check;
