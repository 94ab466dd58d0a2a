import type { ActiveCheck } from "../types.ts";
import { DATASETS } from "./_util.ts";
import { otherLists, paginationFixture, smallPageWalk, ts, when } from "./_pagination.ts";

/** Lists are sorted by created_at; the default order is desc, and asc reverses it. */
const check: ActiveCheck = {
  kind: "active",
  id: "pagination-default-order",
  rule: "Dataset lists are sorted by created_at, newest first by default (order=desc); order=asc is oldest first",
  section: "Endpoints › Datasets (GET list sorted by created_at); Resources › Conventions › Pagination (default desc)",
  severity: "major",
  profiles: ["readonly", "standard", "full"],
  mock: false,
  requires: ["GET /v1/datasets"],
  async run(ctx) {
    const { ids, walk } = await smallPageWalk(ctx);
    const times = walk.items.map(ts);
    const bad = times.findIndex((t, i) => i > 0 && t > times[i - 1]);
    ctx.expect(bad < 0, { title: "pagination-default-order: order=desc walk is not newest first", received: walk.items.slice(Math.max(0, bad - 1), bad + 1).map((x) => ({ id: x.id, created_at: x.created_at })), expected: "created_at non-increasing" }, walk.pages[Math.floor(bad / 2)]);
    if (ids.length) {
      const pos = ids.map((id) => walk.items.findIndex((x) => x?.id === id));
      const inOrder = pos.every((p, i) => i === 0 || p < pos[i - 1]);
      ctx.expect(inOrder, { title: "pagination-default-order: datasets created in sequence are not listed newest first", received: pos, expected: "later creations at lower positions" }, walk.pages[0]);
    }
    await paginationFixture(ctx);
    const dflt = await ctx.req({ method: "GET", path: `${DATASETS}?limit=5` });
    const desc = await ctx.req({ method: "GET", path: `${DATASETS}?limit=5&order=desc` });
    const a = ((dflt.json as any)?.data ?? []).map((x: any) => x.id);
    const b = ((desc.json as any)?.data ?? []).map((x: any) => x.id);
    ctx.expect(JSON.stringify(a) === JSON.stringify(b), { title: "pagination-default-order: without order the list is not in desc order", received: a, expected: b }, dflt);
    const asc = await ctx.req({ method: "GET", path: `${DATASETS}?limit=5&order=asc` });
    const at = ((asc.json as any)?.data ?? []).map(ts);
    for (const other of otherLists(ctx).filter((o) => o.params.some((p) => p.name === "order"))) {
      const ex = await ctx.req({ method: "GET", path: `${other.path}?limit=100` });
      if (ex.status !== 200) continue; // documented-status-only reports it
      const items: any[] = (ex.json as any)?.data ?? [];
      const t = items.map(when);
      const i = t.findIndex((v, k) => k > 0 && v > t[k - 1]);
      ctx.expect(i < 0, { title: `pagination-default-order: ${other.operationId} without order is not newest first`, received: items.slice(Math.max(0, i - 1), i + 1).map((x) => x?.created_at), expected: "created_at non-increasing (default order desc)" }, ex);
    }
    ctx.expect(asc.status === 200 && at.every((t: number, i: number) => i === 0 || t >= at[i - 1]), { title: "pagination-default-order: order=asc is not oldest first", received: ((asc.json as any)?.data ?? []).map((x: any) => x.created_at), expected: "created_at non-decreasing" }, asc);
  },
};
export default check;
