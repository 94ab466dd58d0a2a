import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import { everyOperationAnswers401 } from "./support/auth.ts";

/** No x-api-key header: 401 unauthorized on every operation. */
export default defineCheck({
  id: "auth-missing-key-401",
  phase: "requests",
  rule: "A request without x-api-key gets 401 unauthorized on every operation (an unknown path id or a refused body answered first is D-AUTH-ORDER's)",
  section: "Authentication › REST (1, 4); Endpoints (all require the API key); Errors (401)",
  severity: "critical",
  asserts: {
    refused: seed(
      ["auth.401", "endpoints.api-key-required"],
      status(401),
      code("unauthorized"),
      words("A missing or invalid key"),
      words("All require the API key header"),
    ),
    prices: seed(["prices.read", "auth.401"], words("requires the API key"), status(401), code("unauthorized")),
    order: decided("D-AUTH-ORDER"),
  },
  profiles: ["readonly", "standard", "full"],
  // Prism refuses a request without a key (the security requirement); an unknown key it cannot tell from a real one
  mock: true,
  lane: "anonymous",
  // a missing key breaks the security requirement, so a validating proxy answers it itself
  invalidRequests: true,
  run: everyOperationAnswers401("none", { refused: "refused", prices: "prices", order: "order" }),
});
