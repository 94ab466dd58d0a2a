import { defineCheck } from "../define-check.ts";
import { bodyOf, isObject } from "../typed.ts";
import type { PreviewsInsufficientCreditsResearchPreviewError } from "../../../generated/client/types.gen.ts";
import { seen } from "./support/util.ts";
import { usageRows } from "./support/billing.ts";
import { balanceOf, errorCode, jsonAt, priceOf } from "./support/groups.ts";
import { PREVIEWS } from "./support/previews.ts";

/** A preview the balance cannot fund is 402 before any scraping: nothing stored, nothing charged. */
export default defineCheck({
  id: "preview-402-before-work",
  phase: "groups",
  rule: "A URL preview of the most URLs allowed that the --poor-key balance cannot fund gets 402 insufficient_credits_research_preview with required = URLs × price and available = balance; balance and usage history are unchanged",
  section: "Endpoints › Research previews (402 before any scraping; never partially charged); Errors (402 body)",
  severity: "critical",
  rules: {
    seed: "402 `insufficient_credits_research_preview` (before any scraping; never partially charged)",
  },
  decisions: ["D-MONEY-STRING"],
  keys: ["poor"],
  requires: ["POST /v1/research_previews", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    ctx.mutates("a refused preview on the poor account");
    const max = Number(
      jsonAt(
        ctx.contract.doc,
        "components",
        "schemas",
        "Previews.UrlPreviewBody",
        "properties",
        "source_urls",
        "maxItems",
      ) ?? 100,
    );
    const price = await priceOf(ctx, "preview_generation", "poor");
    const { balance: before } = await balanceOf(ctx, "poor");
    const required = price.mul(max);
    if (required.lte(before))
      ctx.skip(
        `the --poor-key account can fund the largest preview (${max} URLs × $${price.toFixed()} = $${required.toFixed()} ≤ $${before.toFixed()})`,
      );
    const { rows: rowsBefore } = await usageRows(ctx, "poor");
    const urls = Array.from({ length: max }, (_, i) => ({
      source: "instagram",
      url: `https://www.instagram.com/slk_${ctx.runId.replace(/-/g, "_")}_${i}/`,
    }));
    const ex = await ctx.req({ method: "POST", path: PREVIEWS, key: "poor", body: { type: "url", source_urls: urls } });
    const detail: unknown = bodyOf<PreviewsInsufficientCreditsResearchPreviewError>(ex)?.detail;
    ctx.expect(
      ex.status === 402 &&
        errorCode(ex) === "insufficient_credits_research_preview" &&
        isObject(detail) &&
        typeof detail.required === "string" &&
        required.equals(detail.required) &&
        typeof detail.available === "string" &&
        before.equals(detail.available),
      {
        title: `an unfundable preview answered ${ex.status} ${errorCode(ex) ?? ""}`,
        received: seen(ex),
        expected: {
          status: 402,
          error_code: "insufficient_credits_research_preview",
          detail: { required: required.toFixed(6), available: before.toFixed(6) },
        },
      },
      ex,
    );
    const { balance: after, ex: me } = await balanceOf(ctx, "poor");
    const { rows: rowsAfter } = await usageRows(ctx, "poor");
    ctx.expect(
      after.equals(before) && rowsAfter.length === rowsBefore.length,
      {
        title: "a refused preview charged or wrote usage",
        received: { balance: after.toFixed(), rows: rowsAfter.length },
        expected: { balance: before.toFixed(), rows: rowsBefore.length },
      },
      me,
    );
  },
});
