import { decision, defineCheck } from "../define-check.ts";
import { isObj } from "./support/util.ts";

/** A 422 provoked by breaking one field names that field in some issue's `loc`. */
function pointsAt(loc: string[], broken: string[]): boolean {
  if (loc[0] !== broken[0]) return false;
  let i = 0;
  for (const part of loc) if (i < broken.length && String(part) === broken[i]) i++;
  return i === broken.length;
}

export default defineCheck({
  id: "validation-loc-accurate",
  rule: "A 422 caused by one broken field has an issue whose loc is [body|query|path, …field path]",
  section: "Resources › Conventions › 422 validation body",
  severity: "major",
  rules: {
    seed: "422 validation body | `{detail: [{loc: [string], msg: string, type: string}]}` (no envelope).",
    decisions: [decision("D-422", { title: /body|query|path/ })],
  },
  decisions: ["D-422", "D-UNPROCESSABLE"],
  invalidRequests: true,
  inspect(ex, ctx) {
    const broken = ex.meta.brokenLoc;
    if (!broken || ex.status !== 422) return;
    const b = ex.json;
    if (ctx.lenient("D-UNPROCESSABLE", ex)) return ctx.pass(ex);
    const locs: string[][] =
      isObj(b) && Array.isArray(b.detail)
        ? b.detail.filter((d: any) => isObj(d) && Array.isArray(d.loc)).map((d: any) => d.loc.map(String))
        : [];
    if (locs.some((l) => pointsAt(l, broken))) return ctx.pass(ex);
    ctx.fail(ex, {
      title: `422 does not point at ${JSON.stringify(broken)}`,
      received: locs,
      expected: [broken],
      message: ex.meta.negative,
    });
  },
});
