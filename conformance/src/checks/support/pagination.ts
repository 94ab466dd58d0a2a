import type { CheckContext } from "../../types.ts";
import type { Contract, Operation } from "../../contract.ts";
import { responseSchema } from "../../groups/derive.ts";
import type { Exchange } from "../../http.ts";
import { DATASETS, createDataset, walk, type Walk } from "./util.ts";

export const PAGE = 2;
export const FIXTURE_SIZE = 5;

/**
 * Datasets created in sequence (none in readonly: the account's own data is
 * used): five, or as many as it takes for the account to hold one more than
 * the list's default page size, so the default limit is exercised.
 */
export function paginationFixture(ctx: CheckContext): Promise<string[]> {
  return ctx.shared("pagination-fixture", async () => {
    if (ctx.settings.profile === "readonly") return [];
    const op = ctx.contract.op("GET /v1/datasets");
    const dflt = Number(op?.params.find((p) => p.name === "limit")?.schema.default ?? 10);
    const now = await ctx.req({ method: "GET", path: `${DATASETS}?limit=${dflt + 1}` });
    const have = Array.isArray((now.json as any)?.data) ? (now.json as any).data.length : 0;
    const n = Math.max(FIXTURE_SIZE, dflt + 1 - have);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await createDataset(ctx, `page-${i}`)).id);
    return ids;
  });
}

/** A walk of the dataset list with a small page, newest first, far enough to pass the fixture. */
export function smallPageWalk(ctx: CheckContext): Promise<{ ids: string[]; walk: Walk }> {
  return ctx.shared("pagination-walk-desc", async () => {
    const ids = await paginationFixture(ctx);
    const w = await walk(ctx, DATASETS, {
      limit: PAGE,
      order: "desc",
      maxPages: 40,
      stopWhen: (items) =>
        ids.length > 0 && ids.every((id) => items.some((x) => x?.id === id)) && items.length >= ids.length + PAGE,
    });
    if (ids.length === 0 && w.items.length < 3) ctx.skip("readonly profile and fewer than 3 datasets on the account");
    return { ids, walk: w };
  });
}

/** The first page (limit 2) and a cursor to the second. */
export async function firstPage(ctx: CheckContext, order = "desc"): Promise<{ ex: Exchange; cursor: string }> {
  await paginationFixture(ctx);
  const ex = await ctx.req({ method: "GET", path: `${DATASETS}?limit=${PAGE}&order=${order}` });
  const cursor = (ex.json as any)?.cursor;
  if (ex.status !== 200 || typeof cursor !== "string")
    ctx.skip(`no second page to reach (first page answered ${ex.status}, cursor ${JSON.stringify(cursor)})`);
  return { ex, cursor };
}

export function ts(x: any): number {
  return when(x);
}

/**
 * Where a list breaks its order by created_at (newest first for "desc"): the
 * first index whose item is out of order or has no readable created_at.
 * NaN never compares, so a missing timestamp is reported, not skipped.
 */
export function orderBreak(items: any[], dir: "asc" | "desc"): { index: number; why: string } | undefined {
  for (let i = 0; i < items.length; i++) {
    const t = when(items[i]);
    if (Number.isNaN(t))
      return {
        index: i,
        why: `item ${items[i]?.id ?? i} has no readable created_at (${JSON.stringify(items[i]?.created_at)})`,
      };
    if (i === 0) continue;
    const prev = when(items[i - 1]);
    if (dir === "desc" ? t > prev : t < prev)
      return {
        index: i,
        why: `created_at ${JSON.stringify(items[i - 1]?.created_at)} then ${JSON.stringify(items[i]?.created_at)}`,
      };
  }
  return undefined;
}

/** Whether a list operation's items document created_at (else its order cannot be checked by it). */
export function itemsHaveCreatedAt(contract: Contract, op: Operation): boolean {
  const item = responseSchema(contract, op, "200")?.properties?.data?.items;
  return !item?.properties || "created_at" in item.properties;
}

/** Every parameterless list of the contract other than datasets (grows with the contract). */
export function otherLists(ctx: CheckContext): Operation[] {
  return ctx.contract.operations.filter(
    (o) =>
      o.method === "GET" && !o.path.includes("{") && o.path !== DATASETS && o.params.some((p) => p.name === "limit"),
  );
}

/** Comparable time of an item: ISO strings and Unix seconds alike. */
export function when(x: any): number {
  const v = x?.created_at;
  return typeof v === "number" ? v * 1000 : Date.parse(v);
}
