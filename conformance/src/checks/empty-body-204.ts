import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { status, words } from "../grounding/facts.ts";

/** Operations whose seed row states an empty body (their success status is not stated, except the dataset delete's 204). */
const EMPTY_BODY = new Set([
  "AudienceDatasets_delete",
  "CustomParameters_delete",
  "TrackingAgents_delete",
  "TrackingAgents_pause",
  "TrackingAgents_resume",
]);

/**
 * DELETE /v1/datasets/{dataset_id} answers 204 (its row says so; HTTP gives a
 * 204 no body, so the seed's "204: empty body" holds by itself); the other
 * empty-body operations carry no body on
 * success (their rows say "empty body"), and that their status is 204 is the
 * contract's (D-EMPTY-204, D-CP-DELETE for the custom parameter delete).
 */
export default defineCheck({
  id: "empty-body-204",
  rule: "DELETE /v1/datasets/{dataset_id} answers 204; every other operation documented as 204 answers without a body, and with 204 (D-EMPTY-204, D-CP-DELETE)",
  section: "Resources › Conventions › 204; Endpoints (empty body on success)",
  severity: "major",
  asserts: {
    "dataset-delete": seed("datasets.delete.204", status(204)),
    "empty-body": seed(
      [
        "audience-datasets.delete",
        "custom-parameters.delete",
        "tracking-agent.delete",
        "tracking-agents.pause-resume.empty",
      ],
      words("empty body"),
    ),
    "status-204": decided("D-EMPTY-204", status(204)),
    "cp-delete-204": decided("D-CP-DELETE", status(204)),
  },
  mock: true,
  inspect(ex, ctx) {
    // HTTP gives a 204 no body (a client never reads one): a 204 holds the rule
    if (ex.status === 204) return ctx.pass(ex);
    const op = ex.op;
    if (!op?.responses.has("204") || ex.status < 200 || ex.status >= 300) return;
    const received = { status: ex.status, body: ex.text.slice(0, 200) };
    if (op.operationId === "Datasets_delete")
      return ctx.fail(ex, {
        judges: "dataset-delete",
        title: `${op.operationId} answered ${ex.status} instead of 204`,
        received,
        expected: { status: 204, body: "" },
      });
    if (EMPTY_BODY.has(op.operationId) && ex.text.length > 0)
      return ctx.fail(ex, {
        judges: "empty-body",
        title: `${op.operationId} answered ${ex.status} with a body`,
        received,
        expected: { status: 204, body: "" },
      });
    ctx.fail(ex, {
      judges: op.operationId === "CustomParameters_delete" ? "cp-delete-204" : "status-204",
      title: `${op.operationId} answered ${ex.status} instead of 204`,
      received,
      expected: { status: 204, body: "" },
    });
  },
});
