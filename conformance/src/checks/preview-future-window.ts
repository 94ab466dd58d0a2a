import { defineCheck } from "../define-check.ts";
import { decided } from "../grounding/assertions.ts";
import { field, status } from "../grounding/facts.ts";
import { bodyOf } from "../typed.ts";
import type { CommonValidationError } from "../../../generated/client/types.gen.ts";
import { is2xx, seen } from "./support/util.ts";
import { priceOf } from "./support/groups.ts";
import { PREVIEWS, previewExample } from "./support/previews.ts";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * The seed says nothing of a prompt preview window reaching past today: the
 * contract decides (D-PREVIEW-FUTURE) that one starting in the future is a
 * 422, judged strictly as that decision (a warning at --level seed), and
 * that one merely ending in the future is accepted (lenient).
 */
export default defineCheck({
  id: "preview-future-window",
  phase: "groups",
  rule: "A prompt preview with date_since after today gets 422 with the validation body pointing at [body, date_since]; one with date_until after today is accepted (the window ends now) (D-PREVIEW-FUTURE)",
  section: "Endpoints › Research previews (prompt: absolute pair date_since plus date_until); D-PREVIEW-FUTURE",
  severity: "minor",
  asserts: { future: decided("D-PREVIEW-FUTURE", status(422), field("date_since")) },
  requires: ["POST /v1/research_previews"],
  async run(ctx) {
    const base = previewExample(ctx, "prompt");
    delete base.time_filter;
    base.sources = [base.sources![0]];
    const price = await priceOf(ctx, "preview_generation");
    // each of the two previews may be charged one source (the refused one is not, when conformant)
    ctx.charge(price.mul(2).toFixed(), "two one-source previews");
    const future = await ctx.req({
      method: "POST",
      path: PREVIEWS,
      body: { ...base, date_since: day(30), date_until: day(60) },
    });
    const detail = bodyOf<CommonValidationError>(future)?.detail;
    const locs = Array.isArray(detail) ? detail.map((d) => (d?.loc ?? []).join(".")) : [];
    // strict: the 422; lenient, through the registry: the loc
    if (future.status === 422 && !locs.includes("body.date_since")) ctx.lenient("D-PREVIEW-FUTURE", future);
    ctx.expect(
      future.status === 422,
      {
        judges: "future",
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
    if (!is2xx(ending)) ctx.lenient("D-PREVIEW-FUTURE", ending);
    else ctx.pass(ending);
  },
});
