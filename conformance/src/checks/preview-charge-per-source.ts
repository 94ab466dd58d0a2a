import { decision, defineCheck } from "../define-check.ts";
import { newUsageRows } from "./support/groups.ts";
import { chargedPreview } from "./support/previews.ts";
import { dec } from "./support/billing.ts";

/** A prompt preview costs one preview_generation per source, no partial refund. */
export default defineCheck({
  id: "preview-charge-per-source",
  phase: "groups",
  rule: "A prompt research preview (201) charges exactly number of sources × the preview_generation price, and usage history gains one preview_generation row of that amount",
  section: "Limits › Charges (preview_generation: 1 unit per source; 2: prompt preview, no partial refund)",
  severity: "critical",
  rules: {
    seed: "Prompt preview: charge equals number of sources, no partial refund.",
    decisions: [decision("D-PREVIEW-CHARGE", { title: /repeated|distinct/ })],
  },
  decisions: ["D-PREVIEW-CHARGE", "D-USAGE-SIGN"],
  requires: ["POST /v1/research_previews", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const p = await chargedPreview(ctx, "prompt");
    // the contract's example names its sources (chargedPreview counted them already)
    const sources = p.body.sources!;
    const expected = p.price.mul(new Set(sources).size);
    ctx.expect(
      p.before.minus(p.after).equals(expected),
      {
        title: `a preview of ${sources.length} sources charged $${p.before.minus(p.after).toFixed()}`,
        received: p.before.minus(p.after).toFixed(),
        expected: expected.toFixed(),
      },
      p.create,
    );
    const rows = newUsageRows(p.rowsBefore, p.rowsAfter).filter((r) => r?.category === "preview_generation");
    ctx.expect(rows.length === 1 && dec(rows[0].quantity)?.equals(expected) === true, {
      title: "usage history has no single preview_generation row of the charge",
      received: rows,
      expected: [{ category: "preview_generation", quantity: Number(expected.toFixed(6)) }],
    });
  },
});
