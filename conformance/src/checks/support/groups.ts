// Helpers the group-rule checks share: prices per category, polling any run to
// its end, error codes, and small source datasets built from URL runs (one URL
// = at most one post, so they are cheap).
import type { Decimal } from "decimal.js";
import type { CheckContext } from "../../types.ts";
import { sleep, type Exchange, type KeyRole } from "../../http.ts";
import { bodyOf, dataOf, isObject, type Untrusted } from "../../typed.ts";
import type {
  AccountMe,
  AccountPrices,
  CommonErrorCode,
  DatasetsDatasetRun,
} from "../../../../generated/client/types.gen.ts";
import { createDataset, seen } from "./util.ts";
import { dec } from "./billing.ts";

export type Category = "mention" | "audience_profile" | "post_processing" | "preview_generation";

/**
 * The value at `path` inside a JSON value (the contract document, one of its
 * schemas), or undefined where the path breaks off: the document is JSON, so
 * it is read as unknown and narrowed step by step.
 */
export function jsonAt(v: unknown, ...path: string[]): unknown {
  let at = v;
  for (const key of path) {
    if (!isObject(at)) return undefined;
    at = at[key];
  }
  return at;
}

/** The string values of a named schema's `enum` in the contract document, if it has one. */
export function schemaEnum(doc: unknown, schema: string): string[] | undefined {
  const values = jsonAt(doc, "components", "schemas", schema, "enum");
  return Array.isArray(values) ? values.filter((v): v is string => typeof v === "string") : undefined;
}

/** Dollars per result of one price category (GET /v1/prices: units × the account rate). */
export async function priceOf(ctx: CheckContext, category: Category, key: KeyRole = "main"): Promise<Decimal> {
  const ex = await ctx.shared(`prices-${key}`, () => ctx.req({ method: "GET", path: "/v1/prices", key }));
  const p = dec(dataOf<AccountPrices>(ex)?.prices?.[category]);
  if (!p) ctx.skip(`GET /v1/prices gave no prices.${category} (${ex.status})`);
  return p;
}

export async function balanceOf(ctx: CheckContext, key: KeyRole = "main"): Promise<{ balance: Decimal; ex: Exchange }> {
  const ex = await ctx.req({ method: "GET", path: "/v1/me", key });
  const b = dec(dataOf<AccountMe>(ex)?.usage?.balance);
  if (!b) ctx.skip(`GET /v1/me gave no usage.balance (${ex.status})`);
  return { balance: b, ex };
}

/** One read of a run while it was polled: the answer and its `data` read as the run type `T`. */
export interface Observation<T> {
  ex: Exchange;
  d: Untrusted<T> | undefined;
}

/** Poll `path` until `done(data)` or the run timeout; returns every observation, `data` read as `T`. */
export async function pollUntil<T>(
  ctx: CheckContext,
  path: string,
  done: (d: Untrusted<T> | undefined) => boolean,
  key: KeyRole = "main",
): Promise<Observation<T>[]> {
  const out: Observation<T>[] = [];
  const deadline = Date.now() + ctx.settings.runTimeoutMs;
  let wait = 100;
  for (;;) {
    const ex = await ctx.req({ method: "GET", path, key });
    const d = dataOf<T>(ex);
    out.push({ ex, d });
    if (ex.status !== 200 || done(d)) return out;
    if (Date.now() > deadline)
      ctx.skip(`${path} did not settle within ${ctx.settings.runTimeoutMs / 1000}s (raise --run-timeout)`);
    await sleep(wait);
    wait = Math.min(wait * 1.5, 3000);
  }
}

/** Whether a run read (any group's: `status.type`) has ended. */
export function terminalType(d: unknown): boolean {
  const status = isObject(d) ? d.status : undefined;
  return isObject(status) && (status.type === "completed" || status.type === "failed");
}

/** Balances around one chargeable create: what every group's billing rule compares. */
export interface BilledCreate {
  price: Decimal;
  before: Decimal;
  afterCreate: Decimal;
  after: Decimal;
  create: Exchange;
}

export interface SourceDataset {
  id: string;
  runId: string;
  run: Untrusted<DatasetsDatasetRun> | undefined;
}

/** URLs the reference and real platforms both treat as one post each (seeded by the URL). */
export function postUrls(
  ctx: CheckContext,
  source: "reddit" | "youtube" | "tiktok",
  n: number,
  label: string,
): Array<{ source: string; url: string }> {
  const host =
    source === "reddit"
      ? "https://www.reddit.com/r/slk_conformance/comments"
      : source === "youtube"
        ? "https://www.youtube.com/watch?v="
        : "https://www.tiktok.com/@slk_conformance/video";
  return Array.from({ length: n }, (_, i) => ({
    source,
    url:
      source === "youtube"
        ? `${host}slk${ctx.runId.replace(/-/g, "")}${label}${i}`
        : `${host}/${ctx.runId}_${label}_${i}/oat_milk_latte_art_${i}`,
  }));
}

/** A dataset whose one completed URL run collected these posts (cost: at most one mention per URL). */
export async function sourceDataset(
  ctx: CheckContext,
  label: string,
  urls: Array<{ source: string; url: string }>,
  key: KeyRole = "main",
): Promise<SourceDataset> {
  const price = await priceOf(ctx, "mention", key);
  ctx.charge(price.mul(Math.max(urls.length, 20)).toFixed(), `source dataset ${label} (${urls.length} URLs)`);
  const ds = await createDataset(ctx, label, key);
  const create = await ctx.req({
    method: "POST",
    path: `/v1/datasets/${encodeURIComponent(ds.id)}/runs`,
    key,
    body: { search_query: { type: "url", source_urls: urls }, count: 20, num_comments_per_post: 2 },
  });
  const runId = dataOf<DatasetsDatasetRun>(create)?.id;
  if (create.status !== 202 || typeof runId !== "string") {
    ctx.fail(
      {
        title: `could not start the URL run of source dataset ${label} (${create.status})`,
        received: seen(create),
        expected: { status: 202 },
      },
      create,
    );
    ctx.skip("the source dataset could not be filled");
  }
  const obs = await pollUntil<DatasetsDatasetRun>(
    ctx,
    `/v1/datasets/${encodeURIComponent(ds.id)}/runs/${encodeURIComponent(runId)}`,
    terminalType,
    key,
  );
  const run = obs.at(-1)!.d;
  if (run?.status?.type !== "completed")
    ctx.skip(`the URL run of source dataset ${label} ended ${run?.status?.type ?? obs.at(-1)!.ex.status}`);
  return { id: ds.id, runId, run };
}

/** The run id of a 202 run-create answer (`id` or `run_id`). */
export function runIdOf(ex: Exchange): string | undefined {
  const d = dataOf<{ id: string; run_id: string }>(ex);
  return typeof d?.id === "string" ? d.id : typeof d?.run_id === "string" ? d.run_id : undefined;
}

/**
 * The `error_code` of an error body as text. A deployment may send another
 * type: a number or boolean reads as its text, an object or array as its JSON
 * (so it never equals a code).
 */
export function errorCode(ex: Exchange): string | undefined {
  const code: unknown = bodyOf<{ error_code: CommonErrorCode }>(ex)?.error_code;
  if (code === undefined || code === null) return undefined;
  return typeof code === "object" ? JSON.stringify(code) : String(code);
}

const idOf = (row: unknown): unknown => (isObject(row) ? row.id : undefined);

/** The account's usage history rows in `after` that `before` did not have (by id). */
export function newUsageRows<R>(before: readonly R[], after: readonly R[]): R[] {
  const ids = new Set(before.map(idOf));
  return after.filter((r) => !ids.has(idOf(r)));
}
