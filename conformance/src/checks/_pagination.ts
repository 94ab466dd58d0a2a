import type { CheckContext } from "../types.ts";
import type { Operation } from "../contract.ts";
import type { Exchange } from "../http.ts";
import { DATASETS, createDataset, walk, type Walk } from "./_util.ts";

export const PAGE = 2;
export const FIXTURE_SIZE = 5;

/** Five datasets created in sequence (none in readonly: the account's own data is used). */
export function paginationFixture(ctx: CheckContext): Promise<string[]> {
  return ctx.shared("pagination-fixture", async () => {
    if (ctx.settings.profile === "readonly") return [];
    const ids: string[] = [];
    for (let i = 0; i < FIXTURE_SIZE; i++) ids.push((await createDataset(ctx, `page-${i}`)).id);
    return ids;
  });
}

/** A walk of the dataset list with a small page, newest first, far enough to pass the fixture. */
export function smallPageWalk(ctx: CheckContext): Promise<{ ids: string[]; walk: Walk }> {
  return ctx.shared("pagination-walk-desc", async () => {
    const ids = await paginationFixture(ctx);
    const w = await walk(ctx, DATASETS, { limit: PAGE, order: "desc", maxPages: 40, stopWhen: (items) => ids.length > 0 && ids.every((id) => items.some((x) => x?.id === id)) && items.length >= ids.length + PAGE });
    if (ids.length === 0 && w.items.length < 3) ctx.skip("readonly profile and fewer than 3 datasets on the account");
    return { ids, walk: w };
  });
}

/** The first page (limit 2) and a cursor to the second. */
export async function firstPage(ctx: CheckContext, order = "desc"): Promise<{ ex: Exchange; cursor: string }> {
  await paginationFixture(ctx);
  const ex = await ctx.req({ method: "GET", path: `${DATASETS}?limit=${PAGE}&order=${order}` });
  const cursor = (ex.json as any)?.cursor;
  if (ex.status !== 200 || typeof cursor !== "string") ctx.skip(`no second page to reach (first page answered ${ex.status}, cursor ${JSON.stringify(cursor)})`);
  return { ex, cursor };
}

export function ts(x: any): number {
  return Date.parse(x?.created_at);
}

/** Every parameterless list of the contract other than datasets (grows with the contract). */
export function otherLists(ctx: CheckContext): Operation[] {
  return ctx.contract.operations.filter((o) => o.method === "GET" && !o.path.includes("{") && o.path !== DATASETS && o.params.some((p) => p.name === "limit"));
}

/** Comparable time of an item: ISO strings and Unix seconds alike. */
export function when(x: any): number {
  const v = x?.created_at;
  return typeof v === "number" ? v * 1000 : Date.parse(v);
}
