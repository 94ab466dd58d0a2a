import { decision, defineCheck } from "../define-check.ts";
import { everyOperationAnswers401 } from "./support/auth.ts";

/** No x-api-key header: 401 unauthorized on every operation. */
export default defineCheck({
  id: "auth-missing-key-401",
  phase: "requests",
  rule: "A request without x-api-key gets 401 unauthorized on every operation",
  section: "Authentication › REST (4); Errors (401)",
  severity: "critical",
  rules: {
    seed: "A missing or invalid key yields 401 `unauthorized`.",
    decisions: [decision("D-AUTH-ORDER")],
  },
  decisions: ["D-AUTH-ORDER"],
  profiles: ["readonly", "standard", "full"],
  // Prism refuses a request without a key (the security requirement); an unknown key it cannot tell from a real one
  mock: true,
  lane: "anonymous",
  // a missing key breaks the security requirement, so a validating proxy answers it itself
  invalidRequests: true,
  run: everyOperationAnswers401("none"),
});
