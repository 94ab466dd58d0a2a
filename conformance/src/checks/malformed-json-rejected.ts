import { decision, defineCheck } from "../define-check.ts";
import { pathFor, trackAccidentalCreate } from "./invalid-request-rejected.ts";
import { bodyOf } from "../typed.ts";
import type { CommonValidationError } from "../../../generated/client/types.gen.ts";
import { seen } from "./support/util.ts";

const MALFORMED = ['{"name": "unterminated', "{name: 'single quotes'}", "[1, 2,", "not json at all", '{"name": "x",}'];

/** A body that is not JSON gets 422 with the validation body pointing at `body`. */
export default defineCheck({
  id: "malformed-json-rejected",
  phase: "requests",
  rule: "A request body that is not valid JSON gets 422 with the validation body (loc starts with body), never 2xx or 5xx",
  section: "Endpoints (422 on every body)",
  severity: "major",
  rules: {
    refusals: true,
    seed: "every endpoint with a body or query can return 422 with the validation body",
    decisions: [decision("D-422", { status: (s) => s < 500 && s !== 422 })],
  },
  decisions: ["D-422", "D-UNPROCESSABLE"],
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
      trackAccidentalCreate(ctx, op, path, ex);
      const lenient = ctx.lenient("D-UNPROCESSABLE", ex);
      ctx.expect(
        lenient || (ex.status === 422 && Array.isArray(bodyOf<CommonValidationError>(ex)?.detail)),
        {
          title: `${op.operationId} answered ${ex.status} to malformed JSON`,
          received: seen(ex),
          expected: { status: 422, body: { detail: [{ loc: ["body", "…"], msg: "…", type: "json_invalid" }] } },
        },
        ex,
      );
    }
  },
});
