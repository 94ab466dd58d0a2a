import type { MentionsMention } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, status, words } from "../grounding/facts.ts";
import { isObject, itemsOf } from "../typed.ts";
import { is2xx, seen } from "./support/util.ts";
import { detection, itemIdOf, itemPath, itemsOfPattern, postRefsOf } from "./support/patterns.ts";

/** A post reference's key, when it carries the seed's {source, id}. */
const refKey = (r: unknown) =>
  isObject(r) && typeof r.source === "string" && (typeof r.id === "string" || typeof r.id === "number")
    ? `${r.source}:${String(r.id)}`
    : undefined;

/**
 * The pattern a completed detection names (its run's pattern_id) answers
 * items[], each with post_count and item_id (the seed's names; every other
 * field of a pattern and of an item is not shown). An item's expansion lists
 * its constituent posts as post_refs: as many as post_count, none twice,
 * each resolving through POST /v1/mentions to a post of the analysed
 * dataset. An item that does not exist is 404 (its code is lenient,
 * D-PATTERN-ITEM-404).
 */
export default defineCheck({
  id: "pattern-item-post-count",
  phase: "groups",
  rule: "For every item of a detected pattern, GET /v1/patterns/{pattern_id}/items/{item_id} lists post_refs of length post_count without duplicates, each resolving through POST /v1/mentions {post_refs} to a post of the analysed dataset; an unknown item is 404",
  section:
    "Resources › Pattern detection run, pattern (item expansion lists its posts as post_refs); Endpoints › Pattern detections and patterns",
  severity: "major",
  asserts: {
    items: seed(
      ["patterns.read", "pattern.items"],
      words("pattern summary with items[]"),
      field("post_count"),
      field("item_id"),
    ),
    expansion: seed("patterns.item", words("the item with its constituent posts")),
    postCount: seed("pattern.items", field("post_count"), field("post_refs"), words("lists its constituent posts")),
    resolves: seed(
      "references.post-resolves",
      words("A post reference resolves through POST /v1/mentions with post_refs."),
    ),
    unknown: seed("service.scope.foreign-404", status(404), words("one that does not exist")),
    unknownCode: decided("D-PATTERN-ITEM-404", status(404)),
  },
  requires: ["GET /v1/patterns/{pattern_id}", "GET /v1/patterns/{pattern_id}/items/{item_id}", "POST /v1/mentions"],
  async run(ctx) {
    const d = await detection(ctx);
    if (!d.patternId || !d.patternEx)
      return ctx.notExercised(`the detection ended ${String(d.final?.status?.type)} without a pattern_id`);
    const items = itemsOfPattern(d.pattern);
    const ids = (items ?? []).map(itemIdOf);
    if (
      !ctx.expect(
        is2xx(d.patternEx) && !!items && items.length > 0 && ids.every((id) => id !== undefined),
        {
          judges: "items",
          title: !is2xx(d.patternEx)
            ? `the pattern answered ${d.patternEx.status}`
            : !items
              ? "the pattern has no items[]"
              : items.length === 0
                ? "the pattern of a completed detection has no items"
                : `${ids.filter((id) => id === undefined).length} item(s) carry no item_id`,
          received: seen(d.patternEx),
          expected: { items: [{ item_id: "…", post_count: "…" }] },
        },
        d.patternEx,
      )
    )
      return;
    for (const [i, item] of items!.entries()) {
      const id = ids[i]!;
      const postCount: unknown = isObject(item) ? item.post_count : undefined;
      ctx.expect(
        isObject(item) && "post_count" in item,
        {
          judges: "items",
          title: `item ${id} has no post_count`,
          received: item,
          expected: { item_id: id, post_count: "<count of its posts>" },
        },
        d.patternEx,
      );
      const ex = await ctx.req({ method: "GET", path: itemPath(d.patternId, id) });
      const refs = postRefsOf(ex);
      if (
        !ctx.expect(
          is2xx(ex) && Array.isArray(refs),
          {
            judges: is2xx(ex) ? "postCount" : "expansion",
            title: is2xx(ex) ? `item ${id}'s expansion lists no post_refs` : `item ${id} answered ${ex.status}`,
            received: seen(ex),
            expected: { status: 200, data: { post_refs: [{ source: "…", id: "…" }] } },
          },
          ex,
        ) ||
        !refs
      )
        continue;
      const keys = refs.map(refKey);
      const distinct = new Set(keys.filter((k) => k !== undefined));
      // the count's type is not shown (D-PATTERN-SHAPE): compared when it is a number
      if (typeof postCount !== "number")
        ctx.notExercised(`item ${id}'s post_count ${JSON.stringify(postCount)} is not a number: not compared`);
      else
        ctx.expect(
          refs.length === postCount && distinct.size === refs.length,
          {
            judges: "postCount",
            title: `item ${id} has post_count ${postCount} but lists ${refs.length} post_refs (${distinct.size} distinct {source, id})`,
            received: refs.length,
            expected: postCount,
          },
          ex,
        );
      if (distinct.size === 0) continue;
      const asked = [...distinct].slice(0, 100);
      const m = await ctx.req({
        method: "POST",
        path: "/v1/mentions",
        body: {
          post_refs: asked.map((k) => ({ source: k.slice(0, k.indexOf(":")), id: k.slice(k.indexOf(":") + 1) })),
          limit: 100,
        },
      });
      const found = new Set(
        itemsOf<MentionsMention>(m)
          .filter((x) => (x.datasets ?? []).some((ds) => ds?.id === d.datasetId))
          .map((x) => `${x.source}:${x.id}`),
      );
      const missing = asked.filter((k) => !found.has(k));
      ctx.expect(
        m.status === 200 && missing.length === 0,
        {
          judges: "resolves",
          title: `${missing.length} post_refs of item ${id} do not resolve to posts of the dataset`,
          received: missing.slice(0, 5),
          expected: "every post_ref resolvable via POST /v1/mentions",
        },
        m,
      );
    }
    // an item id no item of the pattern carries
    const unknownId = `${ids[0]}slkmissing`;
    const unknown = await ctx.req({ method: "GET", path: itemPath(d.patternId, unknownId) });
    ctx.expect(
      unknown.status === 404,
      {
        judges: "unknown",
        title: `an unknown item answered ${unknown.status}`,
        received: seen(unknown),
        expected: { status: 404 },
      },
      unknown,
    );
    if (unknown.status === 404) ctx.lenient("D-PATTERN-ITEM-404", unknown); // the code: lenient through the registry
  },
});
