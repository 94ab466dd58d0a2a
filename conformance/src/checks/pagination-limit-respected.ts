import type { ActiveCheck } from "../types.ts";
import { DATASETS } from "./_util.ts";
import { otherLists, paginationFixture } from "./_pagination.ts";

/** A page never holds more than `limit` items; the default page size is the documented one. */
const check: ActiveCheck = {
  kind: "active",
  id: "pagination-limit-respected",
  rule: "A page holds at most `limit` items (exactly `limit` when has_next is true); without limit the documented default applies (10 resources, 25 usage history, …); 1 and 100 are accepted",
  section: "Limits › Page size; Endpoints › Datasets (limit default 10)",
  severity: "major",
  profiles: ["readonly", "standard", "full"],
  mock: false,
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    await paginationFixture(ctx);
    const op = ctx.contract.op("GET /v1/datasets")!;
    const dflt = Number(op.params.find((p) => p.name === "limit")?.schema.default ?? 10);
    for (const limit of [1, 3, undefined, 100]) {
      const ex = await ctx.req({ method: "GET", path: DATASETS + (limit ? `?limit=${limit}` : "") });
      const b = ex.json as any;
      const n = Array.isArray(b?.data) ? b.data.length : -1;
      const cap = limit ?? dflt;
      ctx.expect(ex.status === 200 && n >= 0 && n <= cap && (!b.has_next || n === cap), { title: `pagination-limit-respected: limit=${limit ?? `(default ${dflt})`} returned ${n} items (has_next ${b?.has_next})`, received: { status: ex.status, items: n, has_next: b?.has_next }, expected: { status: 200, items: b?.has_next ? cap : `<= ${cap}` } }, ex);
    }
    // every other parameterless list: its documented default page size, and limit=1
    for (const other of otherLists(ctx)) {
      const d = Number(other.params.find((p) => p.name === "limit")?.schema.default ?? 10);
      for (const limit of [undefined, 1]) {
        const ex = await ctx.req({ method: "GET", path: other.path + (limit ? `?limit=${limit}` : "") });
        if (ex.status !== 200) continue; // documented-status-only reports it
        const b = ex.json as any;
        const n = Array.isArray(b?.data) ? b.data.length : -1;
        const cap = limit ?? d;
        ctx.expect(n >= 0 && n <= cap && (!b.has_next || n === cap), { title: `pagination-limit-respected: ${other.operationId} limit=${limit ?? `(default ${d})`} returned ${n} items (has_next ${b?.has_next})`, received: { items: n, has_next: b?.has_next }, expected: { items: b?.has_next ? cap : `<= ${cap}` } }, ex);
      }
    }
  },
};
export default check;
