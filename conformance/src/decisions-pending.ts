// Strict or lenient decisions of spec/DECISIONS.md that no check enforces yet,
// each with the reason. The decision coverage test fails on any other
// uncovered row, and on an entry here that a check now declares (so this list
// can only shrink).
export const PENDING_DECISIONS: Record<string, string> = {
  "D-OPTIONAL-BODY": "Platform-wide: no check yet (strict)",
  "D-KEY-ROTATION":
    "a revoked key is an invalid key: auth-invalid-key-401 holds its 401 as the seed's own rule (auth.401); the kit has no revoked key to send",
  "D-DOMAIN-422":
    "error-envelope holds every 422 to the validation body or the error envelope (the seed's two); no check provokes collection_content_type_mismatch or date_filter_unavailable to see which one it carries",
  "D-RUN-422":
    "error-envelope holds every 422 of the run create to one of the two bodies as the seed's own rows (conventions.error-envelope, conventions.422-validation-body); nothing is left for the decision to add",
  "D-MCP-COMPONENTS":
    "how the contract writes the tool schemas down: mcp-tool-catalogue compares the served inputSchemas with them (D-MCP-TOOL-ARGS)",
  "D-MCP-FILTER-GROUPS":
    "the total of 10 filters is the seed's (mcp-bad-arguments-tool-error); the schema's nesting is the contract's own writing, not an answer a client sees",
  "D-PREVIEW-CHARGE":
    "preview-charge-per-source holds the seed's own rule (charge equals number of sources) as a seed assertion; the decided parts (a repeated source charged once, the reservation's size) are not provoked",
  "D-PREVIEW-URL-CHARGE":
    "preview-url-charge-per-returning-url holds the seed's rule (charge equals URLs returning data) from what the deployment lists; the decided one-profile-per-URL mapping and de-duplication are not provoked",
  "D-PDR-CHECK-ORDER":
    "pattern-detection-codes judges each code where the seed names it; which refusal comes first when several apply is not provoked",
  "D-PDR-CHARGE":
    "pattern-detection-billing-latest-run holds the seed's rule (post_processing per post of the most recent completed run) as a seed assertion; the decided moment the count is fixed at is not provoked",
  "D-TA-SCHEDULE-TZ":
    "the time pattern is judged through the contract's marks (invalid-request-rejected); the time zone of a cycle is not observable by a client",
  "D-MCP-BEARER-SEAT": "lenient: mcp-auth-order compares the account a token resolves to, never the seat",
  "D-AUD-PROFILE-NULLS": "audience group rule: lenient profile nullability",
  "D-AUD-SORT-DEFAULT": "audience group rule: default profile sort",
  "D-AUD-PROFILE-RUN": "Audience datasets, runs and profiles: no check yet (lenient (warn))",
  "D-AUD-RUN-STEPS": "Audience datasets, runs and profiles: no check yet (lenient (warn) on step names)",
  "D-AUD-DELETE-INFLIGHT": "Audience datasets, runs and profiles: no check yet (lenient (warn))",
  "D-AUD-RUN-AT": "Audience datasets, runs and profiles: no check yet (lenient (warn))",
  "D-PREVIEW-SCRAPE-FAILED": "Research previews: no check yet (lenient (warn) on the status; strict on the refund)",
  "D-PREVIEW-SAMPLE": "Research previews: no check yet (lenient (warn))",
  "D-PREVIEW-ESTIMATE": "Research previews: no check yet (lenient (warn))",
  "D-PDR-DATASET-DELETED": "Pattern detections and patterns: no check yet (lenient (warn))",
  "D-CP-LIMIT": "custom parameter group rule: 409 at the ceiling when hit",
  "D-CP-INSTRUCTIONS": "custom parameter group rule: instructions without bound (lenient)",
  "D-TA-LIMIT": "tracking agent group rule: 409 at plan.limits.tracking_agents",
  "D-TA-MESSAGE-COUNTS": "tracking agent group rule: meaning of the alert counts (lenient)",
  "D-TA-PATTERN-REF": "tracking agent group rule: pattern reference of alerts (lenient)",
  "D-ASK-CHARGE":
    "ask rule: ask-402-creates-nothing checks the 402 creating nothing; the post_processing usage row after the reply is not checked",
  "D-ASK-SCOPE": "ask rule: unknown context ids are skipped, not 404 (lenient)",
  "D-MCP-PLAN-GATE": "MCP: no check yet (needs a key whose plan lacks `mcp`; the demo plans all include it)",
  "D-MCP-UNKNOWN-TOOL": "MCP: no check yet (lenient: a tools/call of an unknown name answers the ToolError not_found)",
  "D-REF-EXTRAPOLATION":
    "mentions rule via seeded data: needs a deployment-independent formulation or a 'not checked' mark",
  "D-REF-SCAN-BUDGET":
    "Reference server choices: no check yet (lenient: the kit follows cursors and never counts on full pages)",
};
