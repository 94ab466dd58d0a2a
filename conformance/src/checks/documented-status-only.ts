import { decision, defineCheck } from "../define-check.ts";

/** A deployment answers only statuses its operation documents. */
export default defineCheck({
  id: "documented-status-only",
  rule: "Every response status is one the operation documents in the contract",
  section: "Endpoints (per-operation responses); Errors",
  severity: "critical",
  rules: {
    seed: "Every endpoint that takes a path id can return 404 for an unknown or foreign id, and every endpoint with a body or query can return 422 with the validation body.",
    // A decision rule names the checks whose refusals it covers and the refusal's
    // status class: the setup requests those checks also send (a dataset they
    // create first) stay under the seed's rule.
    decisions: [
      decision("D-409", {
        status: (s) => s === 400,
        sentBy: [
          "custom-parameter-name-rules",
          "custom-parameter-run-409-in-flight",
          "tracking-agent-trigger-202-then-409",
        ],
      }),
      decision("D-400", {
        status: (s) => s === 422,
        sentBy: ["custom-parameter-name-rules", "custom-parameter-run-codes", "tracking-agent-no-queries-400"],
      }),
      decision("D-CURSOR", {
        status: (s) => s >= 400 && s < 500,
        sentBy: ["pagination-garbage-cursor-400", "pagination-sort-change-cursor-400"],
      }),
      decision("D-DATE-RANGE-ORDER", { status: (s) => s >= 400 && s < 500, sentBy: ["date-range-order-422"] }),
      decision("D-BODY-LIMIT", { status: (s) => s >= 400 && s < 500, sentBy: ["body-limit-413"] }),
      decision("D-AUD-RUN-SOURCE-404", {
        status: (s) => s >= 400 && s < 500,
        sentBy: ["audience-profiles-after-source-delete"],
      }),
      decision("D-CREDIT-PRICES", { status: (s) => s >= 400 && s < 500, sentBy: ["credit-prices-removed-404"] }),
      decision("D-CONTENT-TYPE", { status: (s) => s >= 400 && s < 500, sentBy: ["content-type-415"] }),
    ],
  },
  decisions: ["D-CREATE-201", "D-ASYNC-202", "D-409", "D-400", "D-EMPTY-204", "D-CREDIT-PRICES"],
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
      title: `${ex.op.operationId} answered undocumented ${ex.status}`,
      received: ex.status,
      expected: [...ex.op.responses.keys()].join(" | "),
      message: ex.meta.negative ? `negative case: ${ex.meta.negative}` : undefined,
    });
  },
});
