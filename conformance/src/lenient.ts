// The one registry of lenient rules. A row of spec/DECISIONS.md whose Kit
// column says "lenient" tolerates a departure with a warning; every check asks
// this registry (never its own copy of the rule), so one check cannot accept
// what another fails. Keyed by decision id; a new lenient row of the contract
// gets its entry here.
import type { Exchange } from "./http.ts";
import { isObject } from "./typed.ts";

/** A JSON object body, as a rule reads and rewrites it. */
type Body = Record<string, unknown>;

export interface LenientRule {
  /** what the deployment does that the contract tolerates */
  tolerates: string;
  /** whether this exchange shows the tolerated departure (response-level rules); absent for rules a check applies by id */
  applies?(ex: Exchange): boolean;
  /** the body with the tolerated departure undone (response-level rules whose body a schema check validates) */
  undo?(body: Body): Body;
  /** rules response-schema-conformance applies to a failed constraint whose provenance mark names the row */
  schema?: true;
}

/** The body when it is a JSON object (an array or a scalar carries none of the fields the rules read). */
const body = (ex: Exchange): Body | undefined => (isObject(ex.json) ? ex.json : undefined);

/** An error of one operation at one status whose error_code is not the decided one (`only`: tolerate just that other code); undone to the decided code. */
const otherCode = (status: number, opKey: string, decided: string, only?: string) => ({
  applies: (ex: Exchange) =>
    ex.status === status &&
    ex.op?.key === opKey &&
    typeof body(ex)?.error_code === "string" &&
    body(ex)?.error_code !== decided &&
    (only === undefined || body(ex)?.error_code === only),
  undo: (b: Body) => ({ ...b, error_code: decided }),
});

export const LENIENT = {
  "D-STATUS-STRING": {
    tolerates: '2xx body with status "info" instead of "success"',
    applies: (ex: Exchange) => ex.status >= 200 && ex.status < 300 && body(ex)?.status === "info",
  },
  // the seed states the 422 body two ways (the validation body, and the Errors table's 422 `unprocessable_entity`):
  // a 422 answered with the error envelope is the other reading, whatever its error_code (ledger row conventions.422-no-envelope)
  "D-UNPROCESSABLE": {
    tolerates:
      "422 answered with the error envelope (any error_code: unprocessable_entity, invalid_cursor…) instead of the validation body {detail: [{loc, msg, type}]}",
    applies: (ex: Exchange) =>
      ex.status === 422 && typeof body(ex)?.error_code === "string" && !Array.isArray(body(ex)?.detail),
  },
  "D-ID-PREFIX": {
    tolerates: "an id without its documented prefix (ids are opaque)",
  },
  "D-RATE-WINDOW": {
    tolerates:
      "a window algorithm other than one fixed second per key (a burst that straddles a window boundary may see more than RateLimit-Limit successes once)",
  },
  "D-MENTIONS-SORT-DEFAULT": {
    tolerates: "a mention search without sort returning an order other than date desc",
  },
  "D-CITE-ESCAPE": {
    tolerates:
      "a bracketed number in an assistant or agent text that no post reference cites (a stray number not escaped as [N\\])",
  },
  "D-RUN-404": {
    tolerates:
      "a dataset run read answering 404 with an error_code other than dataset_not_found (an exchange cannot tell an unknown run from an unknown dataset, so any 404 of that read is tolerated)",
    ...otherCode(404, "GET /v1/datasets/{dataset_id}/runs/{run_id}", "dataset_not_found"),
  },
  "D-PREVIEW-FUTURE": {
    tolerates:
      "a prompt preview with date_since after today refused with 422 at a loc other than [body, date_since], or a window that only ends after today refused",
  },
  "D-TA-PAUSE": {
    tolerates:
      "a repeated pause (or resume) of an agent already paused (or active) that answers 204 but changes the agent (pause/resume is decided idempotent)",
  },
  "D-TA-MESSAGE-SENTIMENT": {
    tolerates: "an agent message whose sentiment_score is not a JSON number",
  },
  "D-PREVIEW-PROFILE": {
    tolerates: "a resolved profile of a URL preview without a string username or a boolean is_verified",
  },
  "D-AUD-RUN-400": {
    tolerates:
      "an audience run refused with 400 and another code of the decided set (the checks ran in another order than plan, completed run, YouTube-only, eligible posts)",
  },
  "D-AUD-RUN-404": {
    tolerates: "an unknown run of a visible audience dataset answering 404 with an error_code other than not_found",
  },
  "D-PDR-STEPS": {
    tolerates: "pattern detection step names other than the contract's (clustering, labeling, assignment)",
  },
  "D-PDR-EMPTY": {
    tolerates:
      "a pattern detection on a dataset without a completed run refused with 400 and an error_code other than nothing_to_analyze (the 400 itself is held strictly)",
    ...otherCode(400, "POST /v1/pattern_detections", "nothing_to_analyze"),
  },
  "D-PATTERN-ASSIGNMENTS-KEY": {
    tolerates:
      "pattern_assignments keyed by something other than the pattern id (its entries are matched to the pattern by their pattern_item_id and judged as the pattern's)",
  },
  "D-PATTERN-ASSIGNMENT-ONE": {
    tolerates: "a post with other than one assignment in one pattern",
  },
  "D-CPR-SCOPE-404": {
    tolerates:
      "an unknown scope dataset of a custom parameter run answering 404 custom_parameter_not_found instead of dataset_not_found",
  },
  "D-MESSAGE-404": {
    tolerates:
      "a chat message read answering 404 with an error_code other than chat_not_found (an exchange cannot tell an unknown message from an unknown chat, so any 404 code of that read is tolerated)",
    ...otherCode(404, "GET /v1/chats/{chat_id}/messages/{message_id}", "chat_not_found"),
  },
  "D-PATTERN-ITEM-404": {
    tolerates:
      "a pattern item read answering 404 with an error_code other than pattern_not_found (an exchange cannot tell an unknown item from an unknown pattern, so any 404 code of that read is tolerated)",
    ...otherCode(404, "GET /v1/patterns/{pattern_id}/items/{item_id}", "pattern_not_found"),
  },
  "D-CPR-UNKNOWN-RUN": {
    tolerates: "a custom parameter run read answering 404 not_found instead of custom_parameter_not_found",
    ...otherCode(
      404,
      "GET /v1/custom_parameters/{parameter_id}/runs/{run_id}",
      "custom_parameter_not_found",
      "not_found",
    ),
  },
  "D-MCP-TOOL-ERROR": {
    tolerates:
      "an argument-validation failure of a tool answered with the MCP SDK's plain-text argument error instead of a ToolError",
  },
  "D-MCP-RENDER": {
    tolerates:
      "svc__render of a render: false block not answering ToolError not_found/404, or a render result other than {block_id, content: string} (rendering a render: true block at all is the seed's and held strictly)",
  },
  "D-MCP-BLOCK": {
    tolerates: "a render: true block whose type is not openui or that carries text (the type/render/text coupling)",
  },
  "D-MCP-ASK-AUTH": {
    tolerates: "svc__ask refusing x-api-key with ToolError 401 (the rest of the ask flow is then not exercised)",
  },
  "D-MCP-OAUTH-METADATA": {
    tolerates:
      "optional fields of the protected-resource metadata document (bearer_methods_supported, scopes_supported) that are not arrays",
  },
  "D-TA-NEXT-RUN": {
    tolerates:
      "an active agent's next_run_at that is not after its created_at (the second a cycle is due is computed by the deployment; its type and its null while paused are held strictly)",
  },
  // rules of schema constraints: a failed constraint marked with the row is warned, not failed
  "D-MENTION-AUTHOR": {
    tolerates:
      "a mention author field present, absent or null otherwise than the contract's (title, title_url required; the rest nullable)",
    schema: true,
  },
  "D-AUD-OCEAN": {
    tolerates: "a profile's ocean object with other keys or values than five numbers 0-1",
    schema: true,
  },
  "D-AUD-PLATFORM-METADATA": {
    tolerates: "a profile's platform_metadata of another shape",
    schema: true,
  },
  "D-PREVIEW-POST": {
    tolerates:
      "a prompt preview post whose fields differ in type or nullability from the contract's (headline null vs empty)",
    schema: true,
  },
  "D-TA-INTEGRATION": {
    tolerates: "tracking agent integration items with other fields or type strings",
    schema: true,
  },
  "D-PLAN-TYPE": {
    tolerates: "a plan.type other than the contract's strings",
    schema: true,
  },
} satisfies Record<string, LenientRule>;

export type LenientId = keyof typeof LENIENT;

/** The rules whose departure a schema check undoes before validating the rest of the body. */
export const UNDOABLE = (Object.entries(LENIENT) as Array<[LenientId, LenientRule]>)
  .filter(([, r]) => r.undo)
  .map(([id]) => id);

/** The response-level lenient rules this exchange falls under. */
export function lenientMatches(ex: Exchange): LenientId[] {
  return (Object.entries(LENIENT) as Array<[LenientId, LenientRule]>)
    .filter(([, r]) => r.applies?.(ex))
    .map(([id]) => id);
}

/** The wording every check uses for a tolerated departure. */
export function lenientWarning(id: LenientId, where?: string): string {
  return `${id} (lenient): ${LENIENT[id].tolerates}${where ? ` — ${where}` : ""}`;
}

/** A body with the tolerated departures undone, for checks that validate the rest of it (e.g. schema checks). */
export function normalised(ex: Exchange): unknown {
  const b = body(ex);
  if (!b) return ex.json;
  let out = b;
  if (LENIENT["D-STATUS-STRING"].applies(ex)) out = { ...out, status: "success" };
  for (const [, rule] of Object.entries(LENIENT) as Array<[LenientId, LenientRule]>)
    if (rule.undo && rule.applies?.(ex)) out = rule.undo(out);
  return out;
}
