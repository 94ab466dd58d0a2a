import { decision, defineCheck } from "../define-check.ts";
import { everyOperationAnswers401 } from "./support/auth.ts";

/** An unknown key: 401 unauthorized on every operation. */
export default defineCheck({
  id: "auth-invalid-key-401",
  phase: "requests",
  rule: "A request with an unknown x-api-key gets 401 unauthorized on every operation",
  section: "Authentication › REST (4); Errors (401)",
  severity: "critical",
  rules: {
    seed: "A missing or invalid key yields 401 `unauthorized`.",
    decisions: [decision("D-KEY-ROTATION"), decision("D-AUTH-ORDER")],
  },
  decisions: ["D-KEY-ROTATION", "D-AUTH-ORDER"],
  profiles: ["readonly", "standard", "full"],
  lane: "anonymous",
  run: everyOperationAnswers401({ invalid: "slk_invalid_key_for_conformance_0000000000" }),
});
