import { decision, defineCheck } from "../define-check.ts";
import { isObject } from "../typed.ts";

/** 2xx bodies are `{status, data}`; list bodies add `has_next` (boolean) and `cursor` (string or null). */
export default defineCheck({
  id: "success-envelope",
  rule: "Every 2xx JSON body is {status, data}; lists add has_next (boolean) and cursor (string or null)",
  section: "Resources › Conventions › Success envelope",
  severity: "critical",
  rules: {
    seed: "`{status: success, data: <resource or array>}`. Lists add `has_next` (boolean) and `cursor` (string or null).",
    // the seed answers these three as "array of …": their list envelope is the contract's
    decisions: [
      decision("D-LIST-ENVELOPE", {
        title: /^list body lacks/,
        ops: /^(CustomParameters_list|CustomParameters_listRuns|TrackingAgents_list)$/,
      }),
    ],
  },
  decisions: ["D-LIST-ENVELOPE"],
  mock: true,
  inspect(ex, ctx) {
    if (ex.status < 200 || ex.status >= 300 || ex.status === 204 || ex.text.length === 0) return;
    const b = ex.json;
    if (!isObject(b) || !("status" in b) || !("data" in b)) {
      return ctx.fail(ex, {
        title: "2xx body is not {status, data}",
        received: b ?? ex.text.slice(0, 200),
        expected: '{status: "success", data: <resource or array>}',
      });
    }
    const isList = Array.isArray(b.data);
    if (isList && (typeof b.has_next !== "boolean" || !(b.cursor === null || typeof b.cursor === "string"))) {
      return ctx.fail(ex, {
        title: "list body lacks has_next/cursor",
        received: { has_next: b.has_next, cursor: b.cursor },
        expected: { has_next: "boolean", cursor: "string | null" },
      });
    }
    ctx.pass(ex);
  },
});
