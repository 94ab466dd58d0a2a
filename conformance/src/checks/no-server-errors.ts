import type { ResponseCheck } from "../types.ts";

/** Nothing the kit sends, valid or not, may produce a 5xx. */
const check: ResponseCheck = {
  kind: "response",
  id: "no-server-errors",
  rule: "No request the kit sends (valid or invalid) gets a 5xx",
  section: "Errors (5xx is a server fault)",
  severity: "critical",
  profiles: ["readonly", "standard", "full"],
  mock: true,
  inspect(ex, ctx) {
    if (ex.status >= 500)
      return ctx.fail(ex, {
        title: `no-server-errors: ${ex.status} from ${ex.method} ${ex.path}`,
        received: ex.json ?? ex.text.slice(0, 200),
        expected: "a 2xx or a documented 4xx",
        message: ex.meta.negative ? `negative case: ${ex.meta.negative}` : undefined,
      });
    ctx.pass(ex);
  },
};
export default check;
