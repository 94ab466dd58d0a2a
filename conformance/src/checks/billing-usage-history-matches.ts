import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, value, words } from "../grounding/facts.ts";
import { dec, emptyRun, newRows, successfulRun } from "./support/billing.ts";
import { countOf } from "./support/groups.ts";

/**
 * Usage history quantities are never negative (the seed's credit-era rule).
 * That a settled run shows as one `mention` row of exactly its charge, and a
 * run that collected nothing as no charge row, is D-USAGE-SIGN's (the seed
 * does not say how charges are split into rows), judged on its own.
 */
export default defineCheck({
  id: "billing-usage-history-matches",
  phase: "billing",
  rule: "Usage history quantities are never negative; after a completed run, usage history gains one `mention` row whose quantity equals the settled charge (mentions_count × price), and an uncharged run adds no charge (D-USAGE-SIGN)",
  section: "Resources › Usage history row; Endpoints › Account and prices",
  severity: "major",
  asserts: {
    nonNegative: seed(
      "usage-history.quantity-non-negative",
      field("quantity"),
      words("non-negative US dollars charged"),
    ),
    row: decided("D-USAGE-SIGN", field("quantity"), value("mention")),
  },
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/me/usage_history", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const r = await successfulRun(ctx);
    const negative = r.rowsAfter.find((row) => dec(row?.quantity)?.isNegative() ?? false);
    ctx.expect(
      !negative,
      {
        judges: "nonNegative",
        title: `a usage row has a negative quantity (${String(negative?.quantity)})`,
        received: negative,
        expected: "quantity >= 0",
      },
      r.usageAfter,
    );
    const collected = countOf(r.final?.mentions_count);
    if (r.final?.status?.type !== "completed" || collected === undefined)
      ctx.notExercised(
        `the billed run ended ${r.final?.status?.type} without an integer mentions_count: its row was not judged`,
      );
    else {
      const charge = r.price.mul(collected);
      const added = newRows(r.rowsBefore, r.rowsAfter);
      const match = added.filter((row) => row?.category === "mention" && dec(row?.quantity)?.equals(charge));
      ctx.expect(
        charge.isZero() ? true : match.length === 1,
        {
          judges: "row",
          title: `no single usage row of category mention holds the settled charge $${charge.toFixed()}`,
          received: added,
          expected: [{ category: "mention", quantity: Number(charge.toFixed()) }],
        },
        r.usageAfter,
      );
    }
    if (!ctx.contract.op("GET /v1/datasets/{dataset_id}/runs/{run_id}")) return;
    const e = await emptyRun(ctx);
    const charged = e.final?.status?.type === "completed" ? countOf(e.final.mentions_count) : 0;
    if (charged !== 0)
      return ctx.notExercised(
        `the run of a gone post collected ${String(charged)} mentions: no uncharged run to judge its rows by`,
      );
    const extra = newRows(e.rowsBefore, e.rowsAfter).filter((row) => !(dec(row?.quantity)?.isZero() ?? true));
    ctx.expect(
      extra.length === 0,
      {
        judges: "row",
        title: "a run that collected nothing wrote a charge row",
        received: extra,
        expected: "no new non-zero rows",
      },
      e.usageAfter,
    );
  },
});
