import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { status, words } from "../grounding/facts.ts";
import { pathFor, undoAccidentalCreate } from "./invalid-request-rejected.ts";
import { bodyOf } from "../typed.ts";
import type { CommonValidationError } from "../../../generated/client/types.gen.ts";
import { seen } from "./support/util.ts";

const MALFORMED = ['{"name": "unterminated', "{name: 'single quotes'}", "[1, 2,", "not json at all", '{"name": "x",}'];

/**
 * A body that is not JSON is a malformed body: 422 (the seed's Errors table).
 * Which 422 body it carries is D-422's: the validation body pointing at
 * `body` (the error envelope with unprocessable_entity is D-UNPROCESSABLE's,
 * accepted with a warning).
 */
export default defineCheck({
  id: "malformed-json-rejected",
  phase: "requests",
  rule: "A request body that is not valid JSON gets 422 (never 2xx, another 4xx or 5xx); its body is the validation body with a loc starting at body (D-422)",
  section: "Endpoints (422 on every body); Errors (422: malformed body or query)",
  severity: "major",
  asserts: {
    status: seed("endpoints.422-on-body-or-query", status(422), words("malformed body or query")),
    body: decided("D-422"),
  },
  invalidRequests: true,
  async run(ctx) {
    const ops = ctx.contract.operations.filter((o) => o.bodySchema);
    let i = 0;
    for (const op of ops) {
      const path = await pathFor(ctx, op);
      if (!path) continue;
      const raw = MALFORMED[i++ % MALFORMED.length];
      const ex = await ctx.req({
        method: op.method,
        path,
        rawBody: raw,
        meta: { brokenLoc: ["body"], negative: `malformed JSON ${JSON.stringify(raw)}` },
      });
      await undoAccidentalCreate(ctx, op, path, ex);
      const expected = { status: 422, body: { detail: [{ loc: ["body", "…"], msg: "…", type: "json_invalid" }] } };
      if (
        !ctx.expect(
          ex.status === 422,
          {
            judges: "status",
            title: `${op.operationId} answered ${ex.status} to malformed JSON`,
            received: seen(ex),
            expected,
          },
          ex,
        )
      )
        continue;
      if (ctx.lenient("D-UNPROCESSABLE", ex)) continue;
      const issues = bodyOf<CommonValidationError>(ex)?.detail;
      const loc: unknown = Array.isArray(issues) ? issues[0]?.loc : undefined;
      ctx.expect(
        Array.isArray(issues) && Array.isArray(loc) && loc[0] === "body",
        {
          judges: "body",
          title: `${op.operationId} answered malformed JSON with a 422 that is not the validation body at body`,
          received: seen(ex),
          expected,
        },
        ex,
      );
    }
  },
});
