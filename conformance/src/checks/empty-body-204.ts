import { defineCheck } from "../define-check.ts";

/** Empty-body successes answer 204 with no body (decision D-EMPTY-204). */
export default defineCheck({
  id: "empty-body-204",
  rule: "A 204 has an empty body, and operations documented as 204 answer 204 (not 200 with a body)",
  section: "Resources › Conventions › 204",
  severity: "major",
  rules: {
    seed: "204 | Empty body.",
    seedWhen: [{ received: /"body":"[^"]/ }],
  },
  decisions: ["D-EMPTY-204"],
  mock: true,
  inspect(ex, ctx) {
    if (ex.status === 204) {
      if (ex.text.length > 0)
        return ctx.fail(ex, {
          title: "204 with a body",
          received: ex.text.slice(0, 200),
          expected: "(empty body)",
        });
      return ctx.pass(ex);
    }
    if (ex.op?.responses.has("204") && ex.status >= 200 && ex.status < 300) {
      ctx.fail(ex, {
        title: `${ex.op.operationId} answered ${ex.status} instead of 204`,
        received: { status: ex.status, body: ex.text.slice(0, 200) },
        expected: { status: 204, body: "" },
      });
    }
  },
});
