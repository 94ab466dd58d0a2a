import { defineCheck } from "../define-check.ts";
import { decided } from "../grounding/assertions.ts";
import { field } from "../grounding/facts.ts";
import { bodyOf, isObject } from "../typed.ts";
import type { CommonValidationError } from "../../../generated/client/types.gen.ts";

/** A 422 provoked by breaking one field names that field in some issue's `loc`. */
function pointsAt(loc: string[], broken: string[]): boolean {
  if (loc[0] !== broken[0]) return false;
  let i = 0;
  for (const part of loc) if (i < broken.length && String(part) === broken[i]) i++;
  return i === broken.length;
}

/**
 * The seed gives the 422 body `{detail: [{loc: [string], …}]}` and says no
 * more about `loc`: that it starts with `body`, `query` or `path` and names
 * the broken field is D-422's (a warning at `--level seed`). A 422 answered
 * with the error envelope is D-UNPROCESSABLE's (lenient registry).
 */
export default defineCheck({
  id: "validation-loc-accurate",
  rule: "A 422 caused by one broken field has an issue whose loc is [body|query|path, …field path]",
  section: "Resources › Conventions › 422 validation body",
  severity: "major",
  asserts: {
    loc: decided("D-422", field("loc")),
  },
  invalidRequests: true,
  inspect(ex, ctx) {
    const broken = ex.meta.brokenLoc;
    if (!broken || ex.status !== 422) return;
    if (ctx.lenient("D-UNPROCESSABLE", ex)) return ctx.pass(ex);
    const detail: unknown = bodyOf<CommonValidationError>(ex)?.detail;
    const issues: unknown[] = Array.isArray(detail) ? detail : [];
    const locs: string[][] = issues.flatMap((d) => {
      const loc = isObject(d) ? d.loc : undefined;
      return Array.isArray(loc) ? [(loc as unknown[]).map(String)] : [];
    });
    if (locs.some((l) => pointsAt(l, broken))) return ctx.pass(ex);
    ctx.fail(ex, {
      judges: "loc",
      title: `422 does not point at ${JSON.stringify(broken)}`,
      received: locs,
      expected: [broken],
      message: ex.meta.negative,
    });
  },
});
