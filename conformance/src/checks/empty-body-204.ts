import type { ResponseCheck } from "../types.ts";

/** Empty-body successes answer 204 with no body (decision D-EMPTY-204). */
const check: ResponseCheck = {
  kind: "response",
  id: "empty-body-204",
  rule: "A 204 has an empty body, and operations documented as 204 answer 204 (not 200 with a body)",
  section: "Resources › Conventions › 204; decision D-EMPTY-204",
  severity: "major",
  decisions: ["D-EMPTY-204"],
  profiles: ["readonly", "standard", "full"],
  mock: true,
  inspect(ex, ctx) {
    if (ex.status === 204) {
      if (ex.text.length > 0)
        return ctx.fail(ex, {
          title: "empty-body-204: 204 with a body",
          received: ex.text.slice(0, 200),
          expected: "(empty body)",
        });
      return ctx.pass(ex);
    }
    if (ex.op?.responses.has("204") && ex.status >= 200 && ex.status < 300) {
      ctx.fail(ex, {
        title: `empty-body-204: ${ex.op.operationId} answered ${ex.status} instead of 204`,
        received: { status: ex.status, body: ex.text.slice(0, 200) },
        expected: { status: 204, body: "" },
      });
    }
  },
};
export default check;
