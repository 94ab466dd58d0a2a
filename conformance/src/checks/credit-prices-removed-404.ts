import { decision, defineCheck } from "../define-check.ts";
import type { CommonNotFoundError } from "../../../generated/client/types.gen.ts";
import { bodyOf } from "../typed.ts";
import { seen } from "./support/util.ts";

/** The removed credit prices route is not served (no alias, no dual-serving). */
export default defineCheck({
  id: "credit-prices-removed-404",
  phase: "resources",
  rule: "GET /v1/credit_prices is not served: 404 not_found like any unknown route",
  section: "Endpoints › Account and prices; Versioning (4)",
  severity: "minor",
  rules: {
    refusals: true,
    seed: "The route `GET /v1/credit_prices` is removed and is not served.",
    decisions: [decision("D-CREDIT-PRICES", { status: (s) => s >= 400 && s !== 404 })],
  },
  decisions: ["D-CREDIT-PRICES"],
  profiles: ["readonly", "standard", "full"],
  invalidRequests: true, // a route outside the contract: a validating proxy answers it itself
  async run(ctx) {
    const ex = await ctx.req({ method: "GET", path: "/v1/credit_prices" });
    ctx.expect(
      ex.status === 404 && bodyOf<CommonNotFoundError>(ex)?.error_code === "not_found",
      {
        title: `the removed route answered ${ex.status}`,
        received: seen(ex),
        expected: { status: 404, body: { status: "client_error", error_code: "not_found", transient: false } },
      },
      ex,
    );
  },
});
