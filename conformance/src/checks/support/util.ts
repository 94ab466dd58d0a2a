// Helpers shared by the checks: datasets the kit creates, list walks, paths
// filled from the contract, and the generic collections of the group descriptors.
import type { CommonValidationError, DatasetsDatasetCreated } from "../../../../generated/client/types.gen.ts";
import type { Exchange, KeyRole } from "../../http.ts";
import type { CheckContext } from "../../types.ts";
import { groupsOf } from "../../groups/index.ts";
import { bodyOf, dataOf, isObject, type Untrusted } from "../../typed.ts";
import { SkipError } from "../../skip.ts";

export const DATASETS = "/v1/datasets";
export const MISSING_DATASET_ID = "ds_slkmissing000000000000";

export function is2xx(ex: Exchange): boolean {
  return ex.status >= 200 && ex.status < 300;
}

/** A short "received vs documented" summary of a response. */
/**
 * A setup request the deployment did not accept: the rule the setup was for
 * is not exercised, never failed. The answer itself is judged where it is a
 * rule (valid-request-accepted sends the contract's example of every
 * operation, documented-status-only and no-server-errors judge every answer).
 */
export function setupNotAccepted(ctx: CheckContext, what: string, ex: Exchange): never {
  // an answer that is not JSON at all is no refusal but an unreadable answer: the check stops on it, and
  // the run reports it as that check's finding (run/answer-finding.ts reads the last exchange)
  const ct = ex.headers["content-type"] ?? "";
  if (ex.jsonError !== undefined || (ex.text.length > 0 && !/json/i.test(ct)))
    throw new Error(`${what}: the answer is not JSON`);
  const body = bodyOf<{ error_code?: unknown }>(ex);
  const code = typeof body?.error_code === "string" ? ` ${body.error_code}` : "";
  return ctx.skip(`not exercised: ${what} answered ${ex.status}${code} (a setup the deployment did not accept)`);
}

/**
 * Commit `usd` for a setup the check can do without (filling a list past its
 * default, a pool of labelled posts): undefined when the budget guard took
 * it, else the guard's reason (the readonly profile, the budget), so the check
 * goes on with what the deployment already holds instead of skipping whole.
 */
export function chargeOrReason(ctx: CheckContext, usd: string, what: string): string | undefined {
  try {
    ctx.charge(usd, what);
    return undefined;
  } catch (e) {
    if (e instanceof SkipError) return e.message;
    throw e;
  }
}

/** A setup step's own skip (its budget, a refusal) as its reason, so the check goes on with what the deployment holds. */
export async function reasonIfSkipped(step: Promise<string | undefined>): Promise<string | undefined> {
  try {
    return await step;
  } catch (e) {
    if (e instanceof SkipError) return e.message;
    throw e;
  }
}

export function seen(ex: Exchange): unknown {
  return { status: ex.status, body: ex.json ?? (ex.text.length > 300 ? ex.text.slice(0, 300) + "…" : ex.text) };
}

export async function createDataset(
  ctx: CheckContext,
  label: string,
  key: KeyRole = "main",
): Promise<{ id: string; name: string; ex: Exchange }> {
  ctx.mutates(`create dataset ${label}`);
  const name = ctx.name(label);
  const ex = await ctx.req({ method: "POST", path: DATASETS, key, body: { name } });
  const id = dataOf<DatasetsDatasetCreated>(ex)?.id;
  if (ex.status >= 300 || typeof id !== "string") setupNotAccepted(ctx, `creating dataset ${label}`, ex);
  ctx.track("dataset", `${DATASETS}/${encodeURIComponent(id)}`, key);
  return { id, name, ex };
}

/** A dataset created once per kit run and reused by read-only scenarios. */
export function fixtureDataset(ctx: CheckContext): Promise<{ id: string; name: string; ex: Exchange }> {
  return ctx.shared("fixture-dataset", () => createDataset(ctx, "fixture"));
}

/** One page of a list envelope: only what the walk follows. */
interface ListPage {
  data: unknown[];
  has_next: boolean;
  cursor: string | null;
}

/** `data` of a list envelope as sent: the array itself (non-object items included, so counts stay the deployment's). */
export function listOf(ex: Exchange): unknown[] | undefined {
  const data = bodyOf<ListPage>(ex)?.data;
  return Array.isArray(data) ? data : undefined;
}

/** `data` of a list envelope, each object item read as `T` and any other item kept as `undefined` (positions stay the deployment's). */
export function listItemsOf<T>(ex: Exchange): Array<Untrusted<T> | undefined> {
  return (listOf(ex) ?? []).map((item) => (isObject(item) ? (item as Untrusted<T>) : undefined));
}

/** The `loc` of every issue of a 422 validation body, each part as a string (none when the body is not one). */
export function validationLocs(ex: Exchange): string[][] {
  const issues = bodyOf<CommonValidationError>(ex)?.detail;
  return Array.isArray(issues) ? issues.map((d) => (Array.isArray(d?.loc) ? d.loc.map(String) : [])) : [];
}

/** The `id` a create (or read) answered in `data`, when it is a string. */
export function idOf(ex: Exchange): string | undefined {
  const id = dataOf<{ id: string }>(ex)?.id;
  return typeof id === "string" ? id : undefined;
}

export interface Walk<T = unknown> {
  /** every item of every page as sent, read as `T` (narrow before use) */
  items: Untrusted<T>[];
  pages: Exchange[];
  /** the last page said has_next false (or the list answered a bare array, when `bareArray` allows it) */
  complete: boolean;
  /** the walk stopped at `maxPages` with has_next still true (not at `stopWhen`, not at an error) */
  capped?: boolean;
  error?: Exchange;
}

/** Follow `cursor` until `has_next` is false (or maxPages). */
export async function walk<T = unknown>(
  ctx: CheckContext,
  base: string,
  o: {
    limit?: number;
    order?: string;
    key?: KeyRole;
    maxPages?: number;
    stopWhen?: (items: Untrusted<T>[]) => boolean;
    /** a 200 whose body is an array is the whole list (the seed's "array of …" lists), not an error */
    bareArray?: boolean;
  } = {},
): Promise<Walk<T>> {
  const items: Untrusted<T>[] = [];
  const pages: Exchange[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < (o.maxPages ?? 30); i++) {
    const q = new URLSearchParams();
    if (o.limit !== undefined) q.set("limit", String(o.limit));
    if (o.order) q.set("order", o.order);
    if (cursor) q.set("cursor", cursor);
    const qs = q.toString();
    const ex = await ctx.req({ method: "GET", path: base + (qs ? `?${qs}` : ""), key: o.key });
    pages.push(ex);
    if (o.bareArray && ex.status === 200 && Array.isArray(ex.json)) {
      items.push(...(ex.json as Untrusted<T>[]));
      return { items, pages, complete: true };
    }
    const body = bodyOf<ListPage>(ex);
    if (ex.status !== 200 || !body || !Array.isArray(body.data)) return { items, pages, complete: false, error: ex };
    items.push(...(body.data as Untrusted<T>[]));
    if (!body.has_next) return { items, pages, complete: true };
    if (typeof body.cursor !== "string" || body.cursor.length === 0)
      return { items, pages, complete: false, error: ex };
    cursor = body.cursor;
    if (o.stopWhen?.(items)) return { items, pages, complete: false };
  }
  return { items, pages, complete: false, capped: true };
}

/** Replace every occurrence of the given ids so two error bodies can be compared. */
export function normalise(body: unknown, ids: string[]): unknown {
  let s = JSON.stringify(body ?? null);
  for (const id of ids) s = s.split(id).join("<id>");
  return JSON.parse(s);
}

export function fillPath(template: string, values: Record<string, string>): string | undefined {
  let ok = true;
  const p = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) ok = false;
    return encodeURIComponent(v ?? "");
  });
  return ok ? p : undefined;
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export interface Collection {
  list: string; // "/v1/custom_parameters"
  item: string; // "/v1/custom_parameters/{parameter_id}"
  param: string; // "parameter_id"
}

/** Resource collections with create (201), read, delete (204) and list: the generic lifecycle, from the group descriptors. */
export function collections(ctx: CheckContext, exclude: string[] = []): Collection[] {
  const out: Collection[] = [];
  for (const g of groupsOf(ctx.contract)) {
    const { create, read, delete: del, list } = g.ops;
    if (!create?.responses.has("201") || !read || !del || !list || !g.itemParam || exclude.includes(g.base)) continue;
    out.push({ list: g.base, item: read.path, param: g.itemParam });
  }
  return out;
}

/** A create body from the contract's first clean example, renamed with the run id and pointed at the kit's own datasets. */
export async function createBodyFor(ctx: CheckContext, path: string, label: string): Promise<Record<string, unknown>> {
  const op = ctx.contract.op(`POST ${path}`)!;
  const body: Record<string, unknown> = { ...((op.bodyExamples[0] as Record<string, unknown>) ?? {}) };
  const properties = op.bodySchema?.properties;
  if ("name" in body || (isObject(properties) && properties.name)) body.name = ctx.name(label);
  if ("dataset_ids" in body) body.dataset_ids = [(await fixtureDataset(ctx)).id];
  if ("dataset_id" in body) body.dataset_id = (await fixtureDataset(ctx)).id;
  if ("integration_ids" in body) body.integration_ids = [];
  return body;
}

/** Create one resource of a generic collection (tracked for cleanup): its id when the create answered a 2xx carrying one (the status is the caller's to judge). */
export async function createIn(
  ctx: CheckContext,
  c: Collection,
  label: string,
): Promise<{ id?: string; ex: Exchange }> {
  ctx.mutates(`create in ${c.list}`);
  const ex = await ctx.req({ method: "POST", path: c.list, body: await createBodyFor(ctx, c.list, label) });
  const id = idOf(ex);
  // anything created is deleted at the end, also when it was created with another 2xx than the contract's 201
  if (ex.status >= 200 && ex.status < 300 && id !== undefined) ctx.track(c.list, `${c.list}/${encodeURIComponent(id)}`);
  return { id: is2xx(ex) ? id : undefined, ex };
}
