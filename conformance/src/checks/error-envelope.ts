import type { CommonErrorCode, CommonValidationError } from "../../../generated/client/types.gen.ts";
import { decision, defineCheck } from "../define-check.ts";
import { bodyOf, isObject } from "../typed.ts";

/** The error envelope every 4xx/5xx body shares (each error's own type narrows `error_code` and `detail`). */
interface ErrorEnvelope {
  status: string;
  error_code: CommonErrorCode;
  detail: unknown;
  transient: boolean;
}

/** 4xx/5xx bodies are {status, error_code, detail, transient}; request-shape 422s are {detail: [{loc, msg, type}]}. */
export default defineCheck({
  id: "error-envelope",
  rule: "Error bodies are {status, error_code, detail, transient} with a contract error_code; a request-shape 422 is {detail: [{loc, msg, type}]} without envelope",
  section: "Errors; Resources › Conventions › 422 validation body",
  severity: "critical",
  rules: {
    seed: "Error body: `{status, error_code, detail, transient}`. … 422 validation errors use the validation body in Resources.",
    decisions: [
      decision("D-PREVIEW-404", { ops: /^ResearchPreviews_read$/, status: (s) => s === 404 }),
      decision("D-CURSOR", { sentBy: ["pagination-garbage-cursor-400", "pagination-sort-change-cursor-400"] }),
      decision("D-DATE-RANGE-ORDER", { sentBy: ["date-range-order-422"] }),
      decision("D-DOMAIN-422", { title: /collection_content_type_mismatch|date_filter_unavailable/ }),
      decision("D-UNPROCESSABLE", { title: /D-UNPROCESSABLE|unprocessable_entity/ }),
      decision("D-422", { status: (s) => s === 422 }),
      // the seed lists codes; that no other code may appear is the contract's closed set
      decision("D-ERROR-CODES", { title: /^unknown error_code/ }),
    ],
  },
  decisions: ["D-422", "D-DOMAIN-422", "D-UNPROCESSABLE", "D-RUN-422", "D-ERROR-CODES"],
  mock: true,
  inspect(ex, ctx) {
    if (ex.status < 400) return;
    const b = ex.json;
    const issues: unknown = bodyOf<CommonValidationError>(ex)?.detail;
    if (ex.status === 422 && Array.isArray(issues)) {
      const bad = issues.find(
        (d) =>
          !isObject(d) ||
          !Array.isArray(d.loc) ||
          !d.loc.every((x) => typeof x === "string") ||
          typeof d.msg !== "string" ||
          typeof d.type !== "string",
      );
      if (bad !== undefined || issues.length === 0)
        return ctx.fail(ex, {
          title: "422 validation body malformed",
          received: b,
          expected: "{detail: [{loc: string[], msg: string, type: string}, ...]} (at least one issue)",
        });
      return ctx.pass(ex);
    }
    const codes = (ctx.contract.doc.components?.schemas?.["Common.ErrorCode"]?.enum ?? []).filter(
      (c): c is string => typeof c === "string",
    );
    const env = bodyOf<ErrorEnvelope>(ex);
    if (
      !env ||
      typeof env.status !== "string" ||
      typeof env.error_code !== "string" ||
      !("detail" in env) ||
      typeof env.transient !== "boolean"
    ) {
      return ctx.fail(ex, {
        title: `${ex.status} body is not the error envelope`,
        received: b ?? ex.text.slice(0, 200),
        expected: "{status, error_code, detail, transient: boolean}",
      });
    }
    if (codes.length && !codes.includes(env.error_code))
      return ctx.fail(ex, {
        title: `unknown error_code ${env.error_code}`,
        received: env.error_code,
        expected: `one of the contract's ${codes.length} error codes`,
      });
    ctx.pass(ex);
  },
});
