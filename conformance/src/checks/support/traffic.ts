// Representative traffic for the response-level checks when they run alone
// (e.g. `--only response-schema-conformance`): every parameterless GET, a
// dataset's whole CRUD cycle, a missing id, a bad query and a garbage cursor.
import { defineCheck } from "../../define-check.ts";
import { DATASETS, MISSING_DATASET_ID, createDataset, fillPath } from "./util.ts";

export const trafficDriver = defineCheck({
  id: "(traffic)",
  phase: "requests",
  rule: "representative traffic for response-level checks",
  section: "-",
  severity: "minor",
  profiles: ["readonly", "standard", "full"],
  mock: true,
  async run(ctx) {
    const sent = new Set(ctx.client.exchanges.map((e) => `${e.op?.key}|${e.status}`));
    const want = (key: string) => ![...sent].some((s) => s.startsWith(key + "|"));
    for (const op of ctx.contract.operations) {
      if (op.method === "GET" && !op.path.includes("{") && want(op.key))
        await ctx.req({ method: "GET", path: op.path + (op.params.some((p) => p.name === "limit") ? "?limit=2" : "") });
    }
    if (ctx.contract.op("GET /v1/datasets/{dataset_id}"))
      await ctx.req({ method: "GET", path: `${DATASETS}/${MISSING_DATASET_ID}` });
    if (ctx.contract.op("GET /v1/datasets")) {
      if (!ctx.settings.validatingProxy)
        await ctx.req({
          method: "GET",
          path: `${DATASETS}?limit=0`,
          meta: { brokenLoc: ["query", "limit"], negative: "limit 0" },
        });
      await ctx.req({ method: "GET", path: `${DATASETS}?cursor=Z2FyYmFnZQ` });
    }
    if (ctx.settings.profile === "readonly" || ctx.settings.mock) {
      if (ctx.settings.mock) {
        // a stateless mock: call every operation once with its example body
        for (const op of ctx.contract.operations) {
          const path = fillPath(
            op.path,
            Object.fromEntries(
              [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => [
                m[1],
                m[1] === "dataset_id" ? "ds_01HZX3M9Q2" : `x_${m[1]}`,
              ]),
            ),
          );
          if (path && !(op.method === "GET" && !op.path.includes("{")))
            await ctx.req({ method: op.method, path, body: op.bodySchema ? (op.bodyExamples[0] ?? {}) : undefined });
        }
      }
      return;
    }
    if (!ctx.contract.op("POST /v1/datasets")) return;
    const { id } = await createDataset(ctx, "traffic");
    const p = `${DATASETS}/${encodeURIComponent(id)}`;
    await ctx.req({ method: "GET", path: p });
    await ctx.req({ method: "PATCH", path: p, body: { name: ctx.name("traffic-renamed") } });
    for (const op of ctx.contract.operations.filter(
      (o) => o.method === "GET" && o.path.startsWith("/v1/datasets/{dataset_id}/") && !o.path.slice(25).includes("{"),
    )) {
      await ctx.req({ method: "GET", path: fillPath(op.path, { dataset_id: id })! });
    }
    const del = await ctx.req({ method: "DELETE", path: p });
    if (del.status < 300) ctx.untrack(p);
  },
});
