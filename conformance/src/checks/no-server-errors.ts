import { defineCheck } from "../define-check.ts";

/** Nothing the kit sends, valid or not, may produce a 5xx. */
export default defineCheck({
  id: "no-server-errors",
  rule: "No request the kit sends (valid or invalid) gets a 5xx",
  section: "Errors (5xx is a server fault)",
  severity: "critical",
  rules: { seed: "5xx | `internal_server_error` | server fault, often `transient` true" },
  mock: true,
  inspect(ex, ctx) {
    if (ex.status >= 500)
      return ctx.fail(ex, {
        title: `${ex.status} from ${ex.method} ${ex.path}`,
        received: ex.json ?? ex.text.slice(0, 200),
        expected: "a 2xx or a documented 4xx",
        message: ex.meta.negative ? `negative case: ${ex.meta.negative}` : undefined,
      });
    ctx.pass(ex);
  },
});
