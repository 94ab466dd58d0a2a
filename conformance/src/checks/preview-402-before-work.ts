import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, field, status, words } from "../grounding/facts.ts";
import type { CheckContext } from "../types.ts";
import { seen, setupNotAccepted } from "./support/util.ts";
import { expect402Body, usageRows, PAYMENT_REQUIRED_ASSERTS } from "./support/billing.ts";
import { balanceOf, errorCode, jsonAt, newUsageRows, priceOf } from "./support/groups.ts";
import { PREVIEWS } from "./support/previews.ts";

/** `n` distinct instagram profile URLs carrying the run id. */
function profileUrls(ctx: CheckContext, n: number): Array<{ source: string; url: string }> {
  return Array.from({ length: n }, (_, i) => ({
    source: "instagram",
    url: `https://www.instagram.com/slk_${ctx.runId.replace(/-/g, "_")}_${i}/`,
  }));
}

/**
 * A URL preview the poor account's balance cannot fund is refused before any
 * scraping: 402 insufficient_credits_research_preview with the seed's 402
 * body (required more than available), and nothing is charged. The kit asks
 * for the fewest URLs the balance cannot fund at the preview price the
 * deployment shows (each URL may return data, so each is part of the upper
 * bound reserved before work). That `required` is exactly those URLs × the
 * price and `available` the balance is D-402-AMOUNTS', judged on its own.
 */
export default defineCheck({
  id: "preview-402-before-work",
  phase: "groups",
  rule: "A URL preview whose URLs × the preview price the --poor-key balance cannot fund gets 402 insufficient_credits_research_preview with the 402 body (required > available, decimal strings, transient false); balance and usage history are unchanged; required = URLs × price and available = balance (D-402-AMOUNTS)",
  section: "Endpoints › Research previews (402 before any scraping; never partially charged); Errors (402 body)",
  severity: "critical",
  asserts: {
    refused: seed(
      ["previews.create.402", "errors.402", "charges.reservation-before-work", "charges.url-preview"],
      status(402),
      code("insufficient_credits_research_preview"),
      words("before any scraping"),
      words("balance cannot fund the reservation"),
      words("the upper bound is reserved before work starts"),
      words("charge equals number of URLs returning data"),
    ),
    ...PAYMENT_REQUIRED_ASSERTS,
    nothingCharged: seed("previews.create.402", words("never partially charged")),
    amounts: decided("D-402-AMOUNTS", field("required"), field("available")),
  },
  keys: ["poor"],
  requires: ["POST /v1/research_previews", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    ctx.mutates("a refused preview on the poor account");
    // the contract's cap on a preview's URLs (D-PREVIEW-URL-CAP): the kit never asks for more
    const cap = Number(
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
    if (price.isZero()) return ctx.skip("not exercised: the poor account's preview price is 0");
    // the fewest URLs whose upper bound the balance cannot fund
    const n = before.div(price).floor().toNumber() + 1;
    if (n > cap)
      return ctx.skip(
        `not exercised: the --poor-key account funds ${n - 1} URLs × $${price.toFixed()} ($${before.toFixed()}), more than a preview takes (${cap})`,
      );
    const { rows: rowsBefore } = await usageRows(ctx, "poor");
    const ex = await ctx.req({
      method: "POST",
      path: PREVIEWS,
      key: "poor",
      body: { type: "url", source_urls: profileUrls(ctx, n) },
    });
    // the items of a URL preview are not shown (D-PREVIEW-URL-ITEM): a validation refusal is a refused setup
    if (ex.status === 422) setupNotAccepted(ctx, `a URL preview of ${n} profile URLs`, ex);
    const answered = errorCode(ex);
    const refused = ctx.expect(
      ex.status === 402 && answered === "insufficient_credits_research_preview",
      {
        judges: "refused",
        title:
          `a preview of ${n} URLs ($${price.mul(n).toFixed()} at most) on a balance of $${before.toFixed()} answered ${ex.status} ${answered ?? ""}`.trimEnd(),
        received: seen(ex),
        expected: { status: 402, error_code: "insufficient_credits_research_preview" },
      },
      ex,
    );
    if (refused) {
      const d = expect402Body(ctx, ex);
      const required = price.mul(n);
      if (d.required && d.available)
        ctx.expect(
          d.required.equals(required) && d.available.equals(before),
          {
            judges: "amounts",
            title: `the 402 states required $${d.required.toFixed()} and available $${d.available.toFixed()}`,
            received: { required: d.detail?.required, available: d.detail?.available },
            expected: { required: required.toFixed(6), available: before.toFixed(6) },
          },
          ex,
        );
    }
    const { balance: after, ex: me } = await balanceOf(ctx, "poor");
    const { rows: rowsAfter } = await usageRows(ctx, "poor");
    const added = newUsageRows(rowsBefore, rowsAfter);
    // a preview accepted instead is charged as it returned data: judged as a refusal missed, not twice
    if (refused)
      ctx.expect(
        after.equals(before) && added.length === 0,
        {
          judges: "nothingCharged",
          title: "a refused preview charged or wrote usage",
          received: { balance: after.toFixed(), new_rows: added },
          expected: { balance: before.toFixed(), new_rows: [] },
        },
        me,
      );
  },
});
