import { defineCheck } from "../define-check.ts";
import { decided } from "../grounding/assertions.ts";
import { code, status } from "../grounding/facts.ts";
import { undoAccidentalCreate } from "./invalid-request-rejected.ts";
import { createBodyFor, seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";

// Twice the limit, so a server that rounds its limit or counts headers still
// has to refuse it. The body is otherwise a valid create (whitespace padding
// inside the JSON), so only the size can explain a refusal and a server that
// ignores the limit really creates something (then cleaned up).
const LIMIT_BYTES = 1_048_576;
const PADDING_BYTES = 2 * LIMIT_BYTES;

/** A request body over 1 MiB is 413 payload_too_large with the error envelope, before it is parsed. */
export default defineCheck({
  id: "body-limit-413",
  phase: "requests",
  rule: "A 2 MiB request body (a valid POST /v1/datasets padded with whitespace) gets 413 with the error envelope and error_code payload_too_large; nothing is created",
  section: "Limits (no request body size is stated); Errors (no 413 is listed)",
  severity: "major",
  // the seed states no body size limit: the whole rule is the contract's
  asserts: { limit: decided("D-BODY-LIMIT", status(413), code("payload_too_large")) },
  invalidRequests: true,
  requires: ["POST /v1/datasets"],
  async run(ctx) {
    const op = ctx.contract.op("POST /v1/datasets")!;
    const valid = JSON.stringify(await createBodyFor(ctx, "/v1/datasets", "body-limit"));
    const raw = `${valid.slice(0, -1)}${" ".repeat(PADDING_BYTES)}}`;
    const ex = await ctx.req({
      method: "POST",
      path: "/v1/datasets",
      rawBody: raw,
      meta: { negative: `a ${raw.length}-byte body (limit ${LIMIT_BYTES})` },
    });
    await undoAccidentalCreate(ctx, op, "/v1/datasets", ex);
    ctx.expect(
      ex.status === 413 && errorCode(ex) === "payload_too_large",
      {
        judges: "limit",
        title: `a ${raw.length}-byte body answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd(),
        received: seen(ex),
        expected: { status: 413, body: { error_code: "payload_too_large" } },
      },
      ex,
    );
  },
});
