import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, value, words } from "../grounding/facts.ts";
import { newUsageRows } from "./support/groups.ts";
import { chargedPreview } from "./support/previews.ts";
import { dec } from "./support/billing.ts";

/**
 * A prompt preview costs one preview_generation per source it names, with no
 * partial refund, at the price the deployment shows. The contract's example
 * names distinct sources, so a repeated source (D-PREVIEW-CHARGE) is never
 * sent. That the charge shows as one preview_generation usage row is
 * D-USAGE-SIGN's, judged on its own.
 */
export default defineCheck({
  id: "preview-charge-per-source",
  phase: "groups",
  rule: "A prompt research preview charges exactly number of sources × the preview_generation price; usage history gains one preview_generation row of that amount (D-USAGE-SIGN)",
  section: "Limits › Charges (preview_generation: 1 unit per source; 2: prompt preview, no partial refund)",
  severity: "critical",
  asserts: {
    charged: seed(
      ["charges.preview-generation", "charges.prompt-preview"],
      words("| preview_generation | 1 | each source |"),
      words("charge equals number of sources, no partial refund"),
    ),
    row: decided("D-USAGE-SIGN", field("quantity"), value("preview_generation")),
  },
  requires: ["POST /v1/research_previews", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const p = await chargedPreview(ctx, "prompt");
    // the contract's example names its sources (chargedPreview counted them already)
    const sources = new Set(p.body.sources!);
    const expected = p.price.mul(sources.size);
    const charged = p.before.minus(p.after);
    ctx.expect(
      charged.equals(expected),
      {
        judges: "charged",
        title: `a preview of ${sources.size} sources charged $${charged.toFixed()}`,
        received: charged.toFixed(),
        expected: `${sources.size} × ${p.price.toFixed()} = ${expected.toFixed()}`,
      },
      p.create,
    );
    const rows = newUsageRows(p.rowsBefore, p.rowsAfter).filter((r) => r?.category === "preview_generation");
    ctx.expect(rows.length === 1 && dec(rows[0]!.quantity)?.equals(expected) === true, {
      judges: "row",
      title: "usage history has no single preview_generation row of the charge",
      received: rows,
      expected: [{ category: "preview_generation", quantity: Number(expected.toFixed(6)) }],
    });
  },
});
