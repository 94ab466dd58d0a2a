// The list scenarios the pagination checks share (a fixture of datasets, a
// walk of small pages, a first page and its cursor) and the reading of a
// list's items, which a deployment may send in any shape.
import type { CheckContext } from "../../types.ts";
import type { Contract, Operation } from "../../contract.ts";
import { responseSchema } from "../../groups/derive.ts";
import type { Exchange } from "../../http.ts";
import { bodyOf, isObject, type Untrusted } from "../../typed.ts";
import type { DatasetsDataset } from "../../../../generated/client/types.gen.ts";
import { DATASETS, collections, createDataset, createIn, listOf, seen, walk, type Walk } from "./util.ts";
import { errorCode, jsonAt, pollUntil, postUrls, priceOf, runIdOf, terminalType } from "./groups.ts";

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

// ---- equivalences: two requests the seed makes the same -------------------------------

/** An item's identity in a list: its `id` (a chat or agent message's `message_id`), else the whole item. */
export function itemKey(x: unknown): string {
  if (isObject(x)) {
    const id = x.id ?? x.message_id;
    if (typeof id === "string" || typeof id === "number") return String(id);
  }
  return JSON.stringify(x);
}

/** What an equivalence compares of a page: its status, its items' identities in order, and has_next. */
export interface PageView {
  status: number;
  items?: string[];
  has_next?: unknown;
}

export function viewOf(ex: Exchange): PageView {
  const data = listOf(ex);
  return { status: ex.status, items: data?.map(itemKey), has_next: bodyOf<Page>(ex)?.has_next };
}

export function sameView(a: PageView, b: PageView): boolean {
  return a.status === b.status && a.has_next === b.has_next && JSON.stringify(a.items) === JSON.stringify(b.items);
}

/** The outcome of sending two requests the seed makes equivalent. */
export interface Equivalence {
  /** same: both answered the same page; differ: they did not while the list held still; moving: the list kept changing */
  verdict: "same" | "differ" | "moving";
  /** the answer to the first form (the one the seed defines by default: omitted field, unpadded cursor…) */
  a: Exchange;
  /** the answer to the second form (the explicit one) */
  b: Exchange;
}

/**
 * Send `a`, `b`, then `a` again: when the two `a` answers agree the list held
 * still around `b`, so `b` must give the same page. A list that changes
 * between the reads (a run settling, another seat writing) is tried again,
 * up to three times, then reported `moving` (nothing judged).
 */
export async function equivalent(
  a: () => Promise<Exchange>,
  b: () => Promise<Exchange>,
  tries = 3,
): Promise<Equivalence> {
  let last: Equivalence | undefined;
  for (let i = 0; i < tries; i++) {
    const first = await a();
    const other = await b();
    const again = await a();
    const held = sameView(viewOf(first), viewOf(again));
    last = { verdict: "moving", a: again, b: other };
    if (held) return { verdict: sameView(viewOf(again), viewOf(other)) ? "same" : "differ", a: again, b: other };
  }
  return last!;
}

// ---- walks that reach their cap ----------------------------------------------------------

/**
 * Why a walk that stopped at its page cap is stuck rather than long: a page
 * before the cap that promised more (has_next true) but held no item, or only
 * items an earlier page already gave. Undefined: every page brought new items
 * (the list is merely longer than the cap; not a finding).
 */
export function stuckWalk(w: Walk<unknown>): { page: number; why: string } | undefined {
  if (!w.capped) return undefined;
  const seenKeys = new Set<string>();
  const seenPages = new Set<string>();
  for (const [i, p] of w.pages.entries()) {
    const keys = (listOf(p) ?? []).map(itemKey);
    const page = JSON.stringify(keys);
    if (keys.length === 0) return { page: i + 1, why: `page ${i + 1} is empty, has_next still true` };
    if (seenPages.has(page)) return { page: i + 1, why: `page ${i + 1} repeats an earlier page` };
    if (keys.every((k) => seenKeys.has(k))) return { page: i + 1, why: `page ${i + 1} carries no new item` };
    seenPages.add(page);
    for (const k of keys) seenKeys.add(k);
  }
  return undefined;
}

/**
 * Fails a walk stuck before its end (stuckWalk) as the finding `judges`;
 * returns whether it failed.
 */
export function failStuckWalk<J extends string>(
  ctx: CheckContext<J>,
  w: Walk<unknown>,
  judges: J,
  what: string,
): boolean {
  const stuck = stuckWalk(w);
  if (!stuck) return false;
  ctx.fail(
    {
      judges,
      title: `${what}: the walk never reaches has_next false: ${stuck.why}`,
      received: seen(w.pages[stuck.page - 1]!),
      expected: "pages that bring new items until has_next is false",
    },
    w.pages[stuck.page - 1],
  );
  return true;
}

// ---- lists the kit fills to pass their default page -----------------------------------

/**
 * One dataset holding `n` runs (one URL each, a distinct post: one mention
 * each at most), each polled to its end so their settlements land before the
 * checks that read a balance. Built once per kit run; undefined when a run
 * was refused (the reason in `refused`).
 */
export function runsFixture(
  ctx: CheckContext,
  n: number,
): Promise<{ dataset?: string; runs: string[]; refused?: string }> {
  return ctx.shared(`runs-fixture-${n}`, async () => {
    const price = await priceOf(ctx, "mention");
    const ds = await createDataset(ctx, "runs-page");
    const runs = `${DATASETS}/${encodeURIComponent(ds.id)}/runs`;
    // one URL per run: the count (20, the seed's smallest) is reserved, one mention at most settled
    ctx.charge(price.mul(20 * n).toFixed(), `${n} one-URL dataset runs`);
    const started: string[] = [];
    let refused: string | undefined;
    for (let i = 0; i < n && !refused; i++) {
      const ex = await ctx.req({
        method: "POST",
        path: runs,
        body: { search_query: { type: "url", source_urls: postUrls(ctx, "reddit", 1, `rp${i}`) }, count: 20 },
      });
      const id = runIdOf(ex);
      if (ex.status === 202 && id) started.push(id);
      else refused = `run ${i + 1} of ${n} answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd();
    }
    for (const id of started) await pollUntil(ctx, `${runs}/${encodeURIComponent(id)}`, terminalType);
    return { dataset: refused ? undefined : ds.id, runs: started, refused };
  });
}

/**
 * Make a list hold more than `n` items by creating resources with `create`
 * (free ones: datasets, audience datasets, custom parameters), at most
 * `max` of them. Returns how many items the list then holds (up to 100: one
 * page read), or the reason nothing could be built.
 */
export async function fillList(
  ctx: CheckContext,
  path: string,
  n: number,
  create: (i: number) => Promise<Exchange | undefined>,
  max = n + 1,
): Promise<{ held: number; refused?: Exchange }> {
  const count = async () => {
    const ex = await ctx.req({ method: "GET", path: `${path}?limit=${Math.min(100, n + 1)}` });
    // a list the seed shows as a bare array is read whole
    return Array.isArray(ex.json) && ex.status === 200 ? ex.json.length : Math.max(0, pageSize(ex));
  };
  let held = await count();
  if (held > n || ctx.settings.profile === "readonly") return { held };
  for (let i = 0; i < Math.min(max, n + 1 - held); i++) {
    const ex = await create(i);
    if (ex && !(ex.status >= 200 && ex.status < 300)) return { held: await count(), refused: ex };
  }
  held = await count();
  return { held };
}

/**
 * The lists the seed shows as bare arrays ("array of CustomParameter",
 * "array of TrackingAgent"): their envelope and pagination are the contract's
 * decisions, so a pagination finding there judges the decision, not the seed.
 */
export const DECIDED_LISTS: Readonly<Record<string, "D-CP-LIST" | "D-TA-LIST">> = {
  "/v1/custom_parameters": "D-CP-LIST",
  "/v1/tracking_agents": "D-TA-LIST",
};

/** Which of a check's three assertions judges a list: the seed's convention, or the decision of a list the seed shows as an array. */
export function listJudge<S extends string>(path: string, names: { seed: S; "D-CP-LIST": S; "D-TA-LIST": S }): S {
  const d = DECIDED_LISTS[path];
  return d ? names[d] : names.seed;
}

/**
 * Make a resource list (the dataset list, or a generic collection: audience
 * datasets, custom parameters, tracking agents) hold more than `n` items,
 * creating what is missing from the contract's example bodies (free
 * resources; a plan's cap or refusal stops it). Returns how many the list
 * then holds (up to n + 1) and the refusal that stopped it, if one did.
 */
export function fillCollection(
  ctx: CheckContext,
  path: string,
  n: number,
): Promise<{ held: number; refused?: Exchange }> {
  return ctx.shared(`fill-${path}-${n}`, () =>
    fillList(ctx, path, n, async (i) => {
      if (path === DATASETS) return (await createDataset(ctx, `fill-${i}`)).ex;
      const c = collections(ctx).find((x) => x.list === path);
      return c ? (await createIn(ctx, c, `fill-${i}`)).ex : undefined;
    }),
  );
}

/**
 * "omitted ≡ the seed's default": the page a list (or search) answers without
 * `limit` is the page it answers with `limit` set to the seed's default, the
 * same items and the same has_next. Judged whenever the list holds two items
 * or more (a default below that many would show); fully exercised only when
 * it holds more than the default (the explicit page says has_next), else the
 * larger defaults that would not show are reported not exercised. Returns
 * whether the two pages were compared.
 */
export async function judgeDefaultPage<J extends string>(
  ctx: CheckContext<J>,
  o: {
    judges: J;
    what: string;
    dflt: number;
    omitted: () => Promise<Exchange>;
    explicit: () => Promise<Exchange>;
  },
): Promise<boolean> {
  const eq = await equivalent(o.omitted, o.explicit);
  if (eq.verdict === "moving") {
    ctx.notExercised(`${o.what}: the list kept changing between reads`);
    return false;
  }
  const b = viewOf(eq.b);
  if (eq.b.status !== 200 || !b.items) {
    ctx.notExercised(`${o.what}: the page with limit=${o.dflt} answered ${eq.b.status} without a page`);
    return false;
  }
  if (b.has_next !== true && b.items.length < 2) {
    ctx.notExercised(`${o.what}: ${b.items.length} item(s), no page size to tell apart`);
    return false;
  }
  ctx.expect(
    eq.verdict === "same",
    {
      judges: o.judges,
      title: `${o.what} without limit answered another page than with limit=${o.dflt} (its default)`,
      received: { without_limit: { ...viewOf(eq.a), items: viewOf(eq.a).items?.length } },
      expected: { as_limit: { ...b, items: b.items.length } },
      message: `without limit: ${JSON.stringify(viewOf(eq.a))}; limit=${o.dflt}: ${JSON.stringify(b)}`,
    },
    eq.a,
  );
  if (b.has_next !== true)
    ctx.notExercised(
      `${o.what}: ${b.items.length} items, not more than its default of ${o.dflt}: a default of ${b.items.length} or more would not show`,
    );
  return true;
}
