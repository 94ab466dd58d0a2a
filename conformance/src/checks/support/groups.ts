// Helpers the group-rule checks share (not checks themselves: files starting
// with _): prices per category, polling any run to its end, and small source
// datasets built from URL runs (one URL = at most one post, so they are cheap).
import { Decimal } from "decimal.js";
import type { CheckContext } from "../../types.ts";
import { sleep, type Exchange, type KeyRole } from "../../http.ts";
import { createDataset, data, isObj, seen } from "./util.ts";
import { dec } from "./billing.ts";

export type Category = "mention" | "audience_profile" | "post_processing" | "preview_generation";

/** Dollars per result of one price category (GET /v1/prices: units × the account rate). */
export async function priceOf(ctx: CheckContext, category: Category, key: KeyRole = "main"): Promise<Decimal> {
  const ex = await ctx.shared(`prices-${key}`, () => ctx.req({ method: "GET", path: "/v1/prices", key }));
  const p = dec((data(ex) as any)?.prices?.[category]);
  if (!p) ctx.skip(`GET /v1/prices gave no prices.${category} (${ex.status})`);
  return p;
}

export async function balanceOf(ctx: CheckContext, key: KeyRole = "main"): Promise<{ balance: Decimal; ex: Exchange }> {
  const ex = await ctx.req({ method: "GET", path: "/v1/me", key });
  const b = dec((data(ex) as any)?.usage?.balance);
  if (!b) ctx.skip(`GET /v1/me gave no usage.balance (${ex.status})`);
  return { balance: b, ex };
}

/** Poll `path` until `done(data)` or the run timeout; returns every observation. */
export async function pollUntil(
  ctx: CheckContext,
  path: string,
  done: (d: any) => boolean,
  key: KeyRole = "main",
): Promise<Array<{ ex: Exchange; d: any }>> {
  const out: Array<{ ex: Exchange; d: any }> = [];
  const deadline = Date.now() + ctx.settings.runTimeoutMs;
  let wait = 100;
  for (;;) {
    const ex = await ctx.req({ method: "GET", path, key });
    const d = data(ex);
    out.push({ ex, d });
    if (ex.status !== 200 || done(d)) return out;
    if (Date.now() > deadline)
      ctx.skip(`${path} did not settle within ${ctx.settings.runTimeoutMs / 1000}s (raise --run-timeout)`);
    await sleep(wait);
    wait = Math.min(wait * 1.5, 3000);
  }
}

export const terminalType = (d: any) => ["completed", "failed"].includes(d?.status?.type);

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
  run: any;
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
  const runId = data(create)?.id;
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
  const obs = await pollUntil(
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
  const d = data(ex);
  return isObj(d) ? (typeof d.id === "string" ? d.id : typeof d.run_id === "string" ? d.run_id : undefined) : undefined;
}

export function errorCode(ex: Exchange): string | undefined {
  return isObj(ex.json) ? (ex.json as any).error_code : undefined;
}

/** Every key of the account's usage history rows newer than `before` (by id). */
export function newUsageRows(before: any[], after: any[]): any[] {
  const ids = new Set(before.map((r) => r?.id));
  return after.filter((r) => !ids.has(r?.id));
}
