import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import { everyOperationAnswers401 } from "./support/auth.ts";

/** An unknown key: 401 unauthorized on every operation. */
export default defineCheck({
  id: "auth-invalid-key-401",
  phase: "requests",
  rule: "A request with an unknown x-api-key gets 401 unauthorized on every operation (an unknown path id or a refused body answered first is D-AUTH-ORDER's)",
  section: "Authentication › REST (4); Errors (401)",
  severity: "critical",
  asserts: {
    refused: seed("auth.401", status(401), code("unauthorized"), words("invalid key")),
    prices: seed(["prices.read", "auth.401"], words("requires the API key"), status(401), code("unauthorized")),
    order: decided("D-AUTH-ORDER"),
  },
  profiles: ["readonly", "standard", "full"],
  lane: "anonymous",
  run: everyOperationAnswers401(
    { invalid: "slk_invalid_key_for_conformance_0000000000" },
    { refused: "refused", prices: "prices", order: "order" },
  ),
});
