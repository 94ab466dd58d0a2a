import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";

/** Lists the seed answers as "array of …": their list envelope is the contract's (D-LIST-ENVELOPE). */
const BARE_LISTS = /^(CustomParameters_list|CustomParameters_listRuns|TrackingAgents_list)$/;
import { isObject } from "../typed.ts";

/** 2xx bodies are `{status, data}`; list bodies add `has_next` (boolean) and `cursor` (string or null). */
export default defineCheck({
  id: "success-envelope",
  rule: "Every 2xx JSON body is {status, data}; lists add has_next (boolean) and cursor (string or null)",
  section: "Resources › Conventions › Success envelope",
  severity: "critical",
  asserts: {
    envelope: seed("conventions.success-envelope", words("status: success, data:"), field("data")),
    list: seed(
      "conventions.success-envelope",
      words("Lists add has_next (boolean) and cursor (string or null)"),
      field("has_next"),
      field("cursor"),
    ),
    "bare-list": decided("D-LIST-ENVELOPE"),
  },
  mock: true,
  inspect(ex, ctx) {
    if (ex.status < 200 || ex.status >= 300 || ex.status === 204 || ex.text.length === 0) return;
    const b = ex.json;
    if (!isObject(b) || !("status" in b) || !("data" in b)) {
      return ctx.fail(ex, {
        judges: "envelope",
        title: "2xx body is not {status, data}",
        received: b ?? ex.text.slice(0, 200),
        expected: '{status: "success", data: <resource or array>}',
      });
    }
    const isList = Array.isArray(b.data);
    if (isList && (typeof b.has_next !== "boolean" || !(b.cursor === null || typeof b.cursor === "string"))) {
      return ctx.fail(ex, {
        judges: ex.op && BARE_LISTS.test(ex.op.operationId) ? "bare-list" : "list",
        title: "list body lacks has_next/cursor",
        received: { has_next: b.has_next, cursor: b.cursor },
        expected: { has_next: "boolean", cursor: "string | null" },
      });
    }
    ctx.pass(ex);
  },
});
