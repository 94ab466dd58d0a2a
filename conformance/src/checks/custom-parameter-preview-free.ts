import type { CustomParametersCustomParameterPreview, MentionsMention } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";
import { dataOf } from "../typed.ts";
import { is2xx, listItemsOf, seen } from "./support/util.ts";
import { usageRows } from "./support/billing.ts";
import { balanceOf } from "./support/groups.ts";
import { CP, cpSource } from "./support/custom-parameters.ts";

/**
 * The preview extracts a value for each post_ref (the account's own posts, so
 * no ref is a miss) and costs nothing: the balance and the usage history are
 * the same after it. Its success status is not the seed's (any 2xx).
 */
export default defineCheck({
  id: "custom-parameter-preview-free",
  phase: "groups",
  rule: "POST /v1/custom_parameters/preview with 1-5 post_refs of the account's own posts answers (2xx) one result {post_id, source, value} per ref and leaves the balance and usage history unchanged",
  section: "Endpoints › Custom parameters (preview: free); Limits › Charges (3: custom parameter preview is free)",
  severity: "critical",
  asserts: {
    results: seed("custom-parameters.preview", field("results"), field("post_id"), field("source"), field("value")),
    free: seed("custom-parameters.preview", words("free")),
  },
  requires: ["POST /v1/custom_parameters/preview", "POST /v1/mentions", "GET /v1/me"],
  async run(ctx) {
    const src = await cpSource(ctx);
    const m = await ctx.req({ method: "POST", path: "/v1/mentions", body: { dataset_ids: [src.id], limit: 5 } });
    const refs = listItemsOf<MentionsMention>(m)
      .slice(0, 3)
      .map((x) => ({ id: x?.id, source: x?.source }));
    if (refs.length === 0) ctx.skip("the source dataset has no mentions to preview on");
    const { rows: rowsBefore } = await usageRows(ctx);
    const { balance: before } = await balanceOf(ctx);
    const ex = await ctx.req({
      method: "POST",
      path: `${CP}/preview`,
      body: {
        instructions: "Which brand of plant milk does the post mention? Answer with the brand name only.",
        value_type: "string",
        post_refs: refs,
      },
    });
    const results = dataOf<CustomParametersCustomParameterPreview>(ex)?.results;
    const keys = (Array.isArray(results) ? results : []).map((r) => `${r?.source}:${r?.post_id}`).sort();
    ctx.expect(
      is2xx(ex) && JSON.stringify(keys) === JSON.stringify(refs.map((r) => `${r.source}:${r.id}`).sort()),
      {
        judges: "results",
        title: `a preview of ${refs.length} posts answered ${ex.status} with ${keys.length} results`,
        received: seen(ex),
        expected: {
          status: 200,
          data: { results: refs.map((r) => ({ post_id: r.id, source: r.source, value: "…" })) },
        },
      },
      ex,
    );
    const { balance: after, ex: me } = await balanceOf(ctx);
    const { rows: rowsAfter } = await usageRows(ctx);
    ctx.expect(
      after.equals(before) && rowsAfter.length === rowsBefore.length,
      {
        judges: "free",
        title: "a preview charged or wrote usage",
        received: { balance: after.toFixed(), usage_rows: rowsAfter.length },
        expected: { balance: before.toFixed(), usage_rows: rowsBefore.length },
      },
      me,
    );
  },
});
