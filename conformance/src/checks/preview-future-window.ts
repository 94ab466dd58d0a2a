import { decision, defineCheck } from "../define-check.ts";
import { bodyOf } from "../typed.ts";
import type { CommonValidationError } from "../../../generated/client/types.gen.ts";
import { seen } from "./support/util.ts";
import { priceOf } from "./support/groups.ts";
import { PREVIEWS, previewExample } from "./support/previews.ts";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A prompt preview window that starts in the future is a request-validation 422; one that merely ends in the future is accepted. */
export default defineCheck({
  id: "preview-future-window",
  phase: "groups",
  rule: "A prompt preview with date_since after today gets 422 with the validation body pointing at [body, date_since] and charges nothing; one with date_until after today is accepted (the window ends now)",
  section: "Endpoints › Research previews (prompt: absolute pair date_since plus date_until)",
  severity: "minor",
  rules: { refusals: true, decisions: [decision("D-PREVIEW-FUTURE")] },
  decisions: ["D-PREVIEW-FUTURE"],
  requires: ["POST /v1/research_previews"],
  async run(ctx) {
    const base = previewExample(ctx, "prompt");
    delete base.time_filter;
    base.sources = [base.sources![0]];
    const price = await priceOf(ctx, "preview_generation");
    ctx.charge(price.toFixed(), "one one-source preview");
    const future = await ctx.req({
      method: "POST",
      path: PREVIEWS,
      body: { ...base, date_since: day(30), date_until: day(60) },
    });
    const detail = bodyOf<CommonValidationError>(future)?.detail;
    const locs = Array.isArray(detail) ? detail.map((d) => (d?.loc ?? []).join(".")) : [];
    // strict: the 422 (a contract decision; a warning at --level seed); lenient, through the registry: the loc
    if (future.status === 422 && !locs.includes("body.date_since")) ctx.lenient("D-PREVIEW-FUTURE", future);
    ctx.expect(
      future.status === 422,
      {
        title: `a window starting in the future answered ${future.status}`,
        received: seen(future),
        expected: { status: 422, body: { detail: [{ loc: ["body", "date_since"], msg: "…", type: "…" }] } },
      },
      future,
    );
    const ending = await ctx.req({
      method: "POST",
      path: PREVIEWS,
      body: { ...base, date_since: day(-30), date_until: day(30) },
    });
    // lenient: a window that only ends after today being refused
    if (ending.status !== 201) ctx.lenient("D-PREVIEW-FUTURE", ending);
    else ctx.pass(ending);
  },
});
