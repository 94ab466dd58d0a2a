import type { CommonErrorCode, CommonValidationError } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";
import { bodyOf, isObject } from "../typed.ts";

/** The error envelope every 4xx/5xx body shares (each error's own type narrows `error_code` and `detail`). */
interface ErrorEnvelope {
  status: string;
  error_code: CommonErrorCode;
  detail: unknown;
  transient: boolean;
}

/**
 * 4xx/5xx bodies are {status, error_code, detail, transient} (the seed); a
 * 422 may instead be the validation body {detail: [{loc: [string], msg:
 * string, type: string}]} (the seed), which of the two a 422 carries is
 * D-422's and D-UNPROCESSABLE's; that no error_code outside the documented
 * ones appears is D-ERROR-CODES's. Everything about an answer at a status the
 * seed never names (413, 415, 405…) is a decision (attribution.ts).
 */
export default defineCheck({
  id: "error-envelope",
  rule: "Error bodies are {status, error_code, detail, transient} with string status and error_code and a boolean transient; a 422 validation body is {detail: [{loc: [string], msg: string, type: string}, …]}; error_code is one of the contract's (D-ERROR-CODES)",
  section: "Errors; Resources › Conventions › Error envelope, 422 validation body",
  severity: "critical",
  asserts: {
    envelope: seed(
      "conventions.error-envelope",
      field("status"),
      field("error_code"),
      field("detail"),
      field("transient"),
      words("transient true means"),
    ),
    validation: seed(
      "conventions.422-validation-body",
      field("loc"),
      field("msg"),
      field("type"),
      words("loc: [string], msg: string, type: string"),
    ),
    codes: decided("D-ERROR-CODES"),
    unprocessable: decided("D-UNPROCESSABLE"),
  },
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
          judges: "validation",
          title:
            bad === undefined
              ? "422 validation body lists no issue"
              : `422 validation body has an issue that is not {loc: [string], msg: string, type: string}`,
          received: bad ?? b,
          expected: "{detail: [{loc: string[], msg: string, type: string}, ...]} (at least one issue)",
        });
      return ctx.pass(ex);
    }
    const env = bodyOf<ErrorEnvelope>(ex);
    if (
      !env ||
      typeof env.status !== "string" ||
      typeof env.error_code !== "string" ||
      !("detail" in env) ||
      typeof env.transient !== "boolean"
    ) {
      return ctx.fail(ex, {
        judges: "envelope",
        title: `${ex.status} body is not the error envelope`,
        received: b ?? ex.text.slice(0, 200),
        expected: "{status: string, error_code: string, detail, transient: boolean}",
      });
    }
    const codes = (ctx.contract.doc.components?.schemas?.["Common.ErrorCode"]?.enum ?? []).filter(
      (c): c is string => typeof c === "string",
    );
    if (codes.length && !codes.includes(env.error_code))
      return ctx.fail(ex, {
        judges: "codes",
        title: `unknown error_code ${env.error_code}`,
        received: env.error_code,
        expected: `one of the contract's ${codes.length} error codes`,
      });
    // a 422 envelope with unprocessable_entity where the validation body is decided: tolerated with a warning
    if (ex.status === 422) ctx.lenient("D-UNPROCESSABLE", ex);
    ctx.pass(ex);
  },
});
