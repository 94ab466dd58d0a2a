import { decision, defineCheck } from "../define-check.ts";
import { dataOf, itemsOf } from "../typed.ts";
import type { MentionsMention, PatternsPatternItemDetail } from "../../../generated/client/types.gen.ts";
import { seen } from "./support/util.ts";
import { detection } from "./support/patterns.ts";

/** An item's expansion lists exactly post_count posts, each resolvable through POST /v1/mentions post_refs. */
export default defineCheck({
  id: "pattern-item-post-count",
  phase: "groups",
  rule: "For every item of a detected pattern, GET /v1/patterns/{id}/items/{item_id} lists post_refs of length post_count without duplicates, each resolving through POST /v1/mentions {post_refs} to a post of the analysed dataset; an unknown item is 404",
  section: "Resources › Pattern detection run, pattern (item expansion lists its posts as post_refs)",
  severity: "major",
  rules: {
    seed: "each item has a short title, a synopsis, `post_count` and an `item_id`. An item expansion lists its constituent posts as `post_refs`.",
    decisions: [decision("D-PATTERN-ITEM-404", { title: /unknown item/, status: (s) => s >= 400 && s < 500 })],
  },
  decisions: ["D-PATTERN-ITEM-404"],
  requires: ["GET /v1/patterns/{pattern_id}", "GET /v1/patterns/{pattern_id}/items/{item_id}", "POST /v1/mentions"],
  async run(ctx) {
    const d = await detection(ctx);
    const pattern = d.pattern;
    if (!pattern) return ctx.notExercised(`the detection ended ${d.final?.status?.type} without a readable pattern`);
    if (
      !ctx.expect(
        Array.isArray(pattern.items) && pattern.items.length > 0,
        { title: "the pattern has no items", received: pattern, expected: "items[]" },
        d.patternEx,
      )
    )
      return;
    const base = `/v1/patterns/${encodeURIComponent(String(pattern.id))}/items`;
    for (const item of pattern.items ?? []) {
      const ex = await ctx.req({ method: "GET", path: `${base}/${encodeURIComponent(String(item.item_id))}` });
      const detail = dataOf<PatternsPatternItemDetail>(ex);
      const refs = detail?.post_refs;
      if (
        !ctx.expect(
          ex.status === 200 && Array.isArray(refs),
          {
            title: `item ${item.item_id} answered ${ex.status}`,
            received: seen(ex),
            expected: { status: 200, data: { post_refs: [] } },
          },
          ex,
        ) ||
        !Array.isArray(refs)
      )
        continue;
      const keys = refs.map((r) => `${r?.source}:${r?.id}`);
      ctx.expect(
        refs.length === item.post_count && detail?.post_count === item.post_count && new Set(keys).size === keys.length,
        {
          title: `item ${item.item_id} has post_count ${item.post_count} but lists ${refs.length} post_refs (${new Set(keys).size} distinct)`,
          received: refs.length,
          expected: item.post_count,
        },
        ex,
      );
      if (refs.length === 0) continue;
      const m = await ctx.req({
        method: "POST",
        path: "/v1/mentions",
        body: { post_refs: refs.slice(0, 100).map((r) => ({ source: r.source, id: r.id })), limit: 100 },
      });
      const found = new Set(
        itemsOf<MentionsMention>(m)
          .filter((x) => (x.datasets ?? []).some((ds) => ds?.id === d.datasetId))
          .map((x) => `${x.source}:${x.id}`),
      );
      const missing = keys.slice(0, 100).filter((k) => !found.has(k));
      ctx.expect(
        m.status === 200 && missing.length === 0,
        {
          title: `${missing.length} post_refs of item ${item.item_id} do not resolve to posts of the dataset`,
          received: missing.slice(0, 5),
          expected: "every post_ref resolvable via POST /v1/mentions",
        },
        m,
      );
    }
    const unknown = await ctx.req({ method: "GET", path: `${base}/slk_missing_item` });
    ctx.expect(
      unknown.status === 404,
      {
        title: `an unknown item answered ${unknown.status}`,
        received: seen(unknown),
        expected: { status: 404 },
      },
      unknown,
    );
    if (unknown.status === 404) ctx.lenient("D-PATTERN-ITEM-404", unknown); // the code: lenient through the registry
  },
});
