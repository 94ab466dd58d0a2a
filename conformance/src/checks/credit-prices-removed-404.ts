import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import { errorCode } from "./support/groups.ts";
import { seen } from "./support/util.ts";

/**
 * The removed credit prices route is not served: no alias, no dual-serving.
 * The seed says only that it is not served, so any refusal (4xx) holds the
 * seed's rule; that it is 404 not_found like any unknown route is D-CREDIT-PRICES.
 */
export default defineCheck({
  id: "credit-prices-removed-404",
  phase: "resources",
  rule: "GET /v1/credit_prices is not served (a 4xx, never a price list); 404 not_found like any unknown route is D-CREDIT-PRICES",
  section: "Endpoints › Account and prices; Versioning (4)",
  severity: "minor",
  asserts: {
    notServed: seed("prices.credit-prices-removed", words("is removed and is not served")),
    notFound: decided("D-CREDIT-PRICES", status(404), code("not_found")),
  },
  profiles: ["readonly", "standard", "full"],
  invalidRequests: true, // a route outside the contract: a validating proxy answers it itself
  async run(ctx) {
    const ex = await ctx.req({ method: "GET", path: "/v1/credit_prices" });
    const refused = ctx.expect(
      ex.status >= 400 && ex.status < 500,
      {
        judges: "notServed",
        title: `the removed route answered ${ex.status}`,
        received: seen(ex),
        expected: { status: "4xx (the route is not served)" },
      },
      ex,
    );
    if (refused)
      ctx.expect(
        ex.status === 404 && errorCode(ex) === "not_found",
        {
          judges: "notFound",
          title: `the removed route answered ${ex.status} ${errorCode(ex) ?? ""}, not 404 not_found`.trimEnd(),
          received: seen(ex),
          expected: { status: 404, body: { status: "client_error", error_code: "not_found", transient: false } },
        },
        ex,
      );
  },
});
