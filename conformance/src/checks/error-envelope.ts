import { decision, defineCheck } from "../define-check.ts";
import { isObj } from "./support/util.ts";

/** 4xx/5xx bodies are {status, error_code, detail, transient}; request-shape 422s are {detail: [{loc, msg, type}]}. */
export default defineCheck({
  id: "error-envelope",
  rule: "Error bodies are {status, error_code, detail, transient} with a contract error_code; a request-shape 422 is {detail: [{loc, msg, type}]} without envelope",
  section: "Errors; Resources › Conventions › 422 validation body; decision D-422",
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
    ],
  },
  decisions: ["D-422", "D-DOMAIN-422", "D-UNPROCESSABLE", "D-RUN-422"],
  mock: true,
  inspect(ex, ctx) {
    if (ex.status < 400) return;
    const b = ex.json;
    if (ex.status === 422 && isObj(b) && Array.isArray(b.detail)) {
      const bad = b.detail.find(
        (d: any) =>
          !isObj(d) ||
          !Array.isArray(d.loc) ||
          !d.loc.every((x: unknown) => typeof x === "string") ||
          typeof d.msg !== "string" ||
          typeof d.type !== "string",
      );
      if (bad !== undefined || b.detail.length === 0)
        return ctx.fail(ex, {
          title: "422 validation body malformed",
          received: b,
          expected: "{detail: [{loc: string[], msg: string, type: string}, ...]} (at least one issue)",
        });
      return ctx.pass(ex);
    }
    const codes: string[] =
      (ctx.contract.doc.components?.schemas?.["Common.ErrorCode"]?.enum as string[] | undefined) ?? [];
    if (
      !isObj(b) ||
      typeof b.status !== "string" ||
      typeof b.error_code !== "string" ||
      !("detail" in b) ||
      typeof b.transient !== "boolean"
    ) {
      return ctx.fail(ex, {
        title: `${ex.status} body is not the error envelope`,
        received: b ?? ex.text.slice(0, 200),
        expected: "{status, error_code, detail, transient: boolean}",
      });
    }
    if (codes.length && !codes.includes(b.error_code))
      return ctx.fail(ex, {
        title: `unknown error_code ${b.error_code}`,
        received: b.error_code,
        expected: `one of the contract's ${codes.length} error codes`,
      });
    ctx.pass(ex);
  },
});
