import type { DatasetsDataset } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";
import { bodyOf, dataOf, isObject } from "../typed.ts";
import { createDataset, seen } from "./support/util.ts";

const CREATE_KEYS = ["created_at", "id", "name"];

/** A new dataset: the create response carries only id, name and created_at; read back, it estimates 0 mentions. */
export default defineCheck({
  id: "dataset-new-only-fields",
  phase: "resources",
  rule: "POST /v1/datasets answers data with only id, name and created_at; the new (empty) dataset reads estimated_mentions_count 0",
  section: "Resources › Dataset (create response; estimated_mentions_count)",
  severity: "minor",
  asserts: {
    only: seed("dataset.create-response-only", words("carries only"), field("id"), field("name"), field("created_at")),
    emptyEstimate: seed("dataset.estimated-mentions-count", words("empty dataset gives 0")),
  },
  requires: ["POST /v1/datasets", "GET /v1/datasets/{dataset_id}"],
  async run(ctx) {
    const { id, ex } = await createDataset(ctx, "only-fields");
    const data = bodyOf<{ data: unknown }>(ex)?.data;
    const keys = isObject(data) ? Object.keys(data).sort() : [];
    const extra = keys.filter((k) => !CREATE_KEYS.includes(k));
    ctx.expect(
      extra.length === 0,
      {
        judges: "only",
        title: `the create response carries ${extra.join(", ")} besides id, name and created_at`,
        received: keys,
        expected: CREATE_KEYS,
      },
      ex,
    );
    const read = await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(id)}` });
    if (read.status !== 200) ctx.skip(`the new dataset could not be read back (${read.status})`);
    const estimated = dataOf<DatasetsDataset>(read)?.estimated_mentions_count;
    ctx.expect(
      estimated === 0,
      {
        judges: "emptyEstimate",
        title: `a new, empty dataset reads estimated_mentions_count ${JSON.stringify(estimated)}`,
        received: seen(read),
        expected: { data: { estimated_mentions_count: 0 } },
      },
      read,
    );
  },
});
