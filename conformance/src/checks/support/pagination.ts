// The list scenarios the pagination checks share (a fixture of datasets, a
// walk of small pages, a first page and its cursor) and the reading of a
// list's items, which a deployment may send in any shape.
import type { CheckContext } from "../../types.ts";
import type { Contract, Operation } from "../../contract.ts";
import { responseSchema } from "../../groups/derive.ts";
import type { Exchange } from "../../http.ts";
import { bodyOf, isObject, type Untrusted } from "../../typed.ts";
import type { DatasetsDataset } from "../../../../generated/client/types.gen.ts";
import { DATASETS, createDataset, listOf, walk } from "./util.ts";
import { jsonAt } from "./groups.ts";

export const PAGE = 2;
export const FIXTURE_SIZE = 5;

/** A page of any list: the envelope every list shares (D-LIST-ENVELOPE), its items read separately. */
export type Page = Untrusted<{ data: unknown[]; has_next: boolean; cursor: string | null }>;

/** What the list checks read of an item: its id and when it was created (ISO string or Unix seconds). */
export type Listed = Untrusted<{ id: string; created_at: string | number }>;

/** A list's items as sent, in place: an object read as `Listed`, anything else `undefined` (so counts stay true). */
export function listed(items: readonly unknown[]): (Listed | undefined)[] {
  return items.map((x) => (isObject(x) ? (x as Listed) : undefined));
}

/** The items of a list answer as `listed` reads them; empty when `data` is not an array. */
export function pageItems(ex: Exchange): (Listed | undefined)[] {
  return listed(listOf(ex) ?? []);
}

/** The ids of a list answer's items, in order. */
export function pageIds(ex: Exchange): unknown[] {
  return pageItems(ex).map((x) => x?.id);
}

/** How many items a list answer holds, or -1 when `data` is not an array. */
export function pageSize(ex: Exchange): number {
  return listOf(ex)?.length ?? -1;
}

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
    const have = Math.max(0, pageSize(now));
    const n = Math.max(FIXTURE_SIZE, dflt + 1 - have);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await createDataset(ctx, `page-${i}`)).id);
    return ids;
  });
}

/** A walk of the dataset list with a small page, newest first, far enough to pass the fixture. */
export function smallPageWalk(ctx: CheckContext) {
  return ctx.shared("pagination-walk-desc", async () => {
    const ids = await paginationFixture(ctx);
    const w = await walk<DatasetsDataset>(ctx, DATASETS, {
      limit: PAGE,
      order: "desc",
      maxPages: 40,
      stopWhen: (items) => {
        const got = listed(items);
        return ids.length > 0 && ids.every((id) => got.some((x) => x?.id === id)) && got.length >= ids.length + PAGE;
      },
    });
    const items = listed(w.items);
    if (ids.length === 0 && items.length < 3) ctx.skip("readonly profile and fewer than 3 datasets on the account");
    return { ids, walk: w, items };
  });
}

/** The first page (limit 2) and a cursor to the second. */
export async function firstPage(ctx: CheckContext, order = "desc"): Promise<{ ex: Exchange; cursor: string }> {
  await paginationFixture(ctx);
  const ex = await ctx.req({ method: "GET", path: `${DATASETS}?limit=${PAGE}&order=${order}` });
  const cursor = bodyOf<Page>(ex)?.cursor;
  if (ex.status !== 200 || typeof cursor !== "string")
    ctx.skip(`no second page to reach (first page answered ${ex.status}, cursor ${JSON.stringify(cursor)})`);
  return { ex, cursor };
}

/**
 * Where a list breaks its order by created_at (newest first for "desc"): the
 * first index whose item is out of order or has no readable created_at.
 * NaN never compares, so a missing timestamp is reported, not skipped.
 */
export function orderBreak(
  items: readonly (Listed | undefined)[],
  dir: "asc" | "desc",
): { index: number; why: string } | undefined {
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
  const itemProps = jsonAt(responseSchema(contract, op, "200"), "properties", "data", "items", "properties");
  return !itemProps || (typeof itemProps === "object" && "created_at" in itemProps);
}

/** Every parameterless list of the contract other than datasets (grows with the contract). */
export function otherLists(ctx: CheckContext): Operation[] {
  return ctx.contract.operations.filter(
    (o) =>
      o.method === "GET" && !o.path.includes("{") && o.path !== DATASETS && o.params.some((p) => p.name === "limit"),
  );
}

/** Comparable time of an item: ISO strings and Unix seconds alike (NaN when it has none). */
function when(x: Listed | undefined): number {
  const v = x?.created_at;
  return typeof v === "number" ? v * 1000 : Date.parse(String(v));
}
