import { defineCheck } from "../define-check.ts";
import { decided } from "../grounding/assertions.ts";
import { code, status } from "../grounding/facts.ts";
import { undoAccidentalCreate } from "./invalid-request-rejected.ts";
import { createBodyFor, seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";

/** A JSON body declared as text/plain is 415 unsupported_media_type with the error envelope. */
export default defineCheck({
  id: "content-type-415",
  phase: "requests",
  rule: "A valid JSON body for POST /v1/datasets sent with Content-Type: text/plain gets 415 with the error envelope and error_code unsupported_media_type; nothing is created",
  section:
    'What the service does ("Send Content-Type: application/json on requests with a body"; the answer to another type is not stated)',
  severity: "major",
  // the seed asks clients for application/json and says nothing of the answer to another type
  asserts: { refused: decided("D-CONTENT-TYPE", status(415), code("unsupported_media_type")) },
  invalidRequests: true,
  requires: ["POST /v1/datasets"],
  async run(ctx) {
    const op = ctx.contract.op("POST /v1/datasets")!;
    // the body itself is valid: only the declared media type can explain a refusal
    const raw = JSON.stringify(await createBodyFor(ctx, "/v1/datasets", "content-type"));
    const ex = await ctx.req({
      method: "POST",
      path: "/v1/datasets",
      rawBody: raw,
      headers: { "content-type": "text/plain" },
      meta: { negative: "JSON body sent as text/plain" },
    });
    await undoAccidentalCreate(ctx, op, "/v1/datasets", ex);
    ctx.expect(
      ex.status === 415 && errorCode(ex) === "unsupported_media_type",
      {
        judges: "refused",
        title: `a JSON body sent as text/plain answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd(),
        received: seen(ex),
        expected: { status: 415, body: { error_code: "unsupported_media_type" } },
      },
      ex,
    );
  },
});
