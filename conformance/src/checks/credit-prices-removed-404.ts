import type { ActiveCheck } from "../types.ts";
import { isObj, seen } from "./support/util.ts";

/** The removed credit prices route is not served (no alias, no dual-serving). */
const check: ActiveCheck = {
  kind: "active",
  id: "credit-prices-removed-404",
  rule: "GET /v1/credit_prices is not served: 404 not_found like any unknown route",
  section: "Endpoints › Account and prices; Versioning (4); decision D-CREDIT-PRICES",
  severity: "minor",
  decisions: ["D-CREDIT-PRICES"],
  profiles: ["readonly", "standard", "full"],
  mock: false,
  invalidRequests: true, // a route outside the contract: a validating proxy answers it itself
  async run(ctx) {
    const ex = await ctx.req({ method: "GET", path: "/v1/credit_prices" });
    ctx.expect(
      ex.status === 404 && isObj(ex.json) && ex.json.error_code === "not_found",
      {
        title: `credit-prices-removed-404: the removed route answered ${ex.status}`,
        received: seen(ex),
        expected: { status: 404, body: { status: "client_error", error_code: "not_found", transient: false } },
      },
      ex,
    );
  },
};
export default check;
