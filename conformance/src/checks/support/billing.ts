// Billing scenarios shared by the billing checks: one successful run, one run
// that cannot collect anything, and one refused (402) run, each observed
// through /v1/me, /v1/prices and /v1/me/usage_history with exact decimals.
import { type Decimal } from "decimal.js";
import type {
  AccountMe,
  AccountPrices,
  AccountUsageHistoryRow,
  DatasetsDatasetRun,
  DatasetsDatasetRunCreated,
} from "../../../../generated/client/types.gen.ts";
import type { CheckContext } from "../../types.ts";
import { sleep, type Exchange, type KeyRole } from "../../http.ts";
import { dataOf, isObject, itemsOf, type Untrusted } from "../../typed.ts";
import { createDataset, fixtureDataset, setupNotAccepted } from "./util.ts";
import { dec } from "./decimal.ts";
import {
  balanceWindow,
  countOf,
  moneyBy,
  refusedSetup,
  setupRefusal,
  type BalanceWindow,
  type RunMoney,
} from "./groups.ts";

/** One usage history row as a deployment sent it. */
export type UsageRow = Untrusted<AccountUsageHistoryRow>;
/** One dataset run read as a deployment sent it. */
export type RunRead = Untrusted<DatasetsDatasetRun>;

export const RUN_COUNT = 20; // the contract's minimum: the cheapest chargeable run
export const TERMINAL = new Set(["completed", "failed"]);

export { dec };

export async function mentionPrice(
  ctx: CheckContext,
  key: KeyRole = "main",
): Promise<{ price: Decimal; ex: Exchange }> {
  return ctx.shared(`price-${key}`, async () => {
    const ex = await ctx.req({ method: "GET", path: "/v1/prices", key });
    const price = dec(dataOf<AccountPrices>(ex)?.prices?.mention);
    if (!price) ctx.skip(`GET /v1/prices gave no prices.mention (${ex.status})`);
    return { price, ex };
  });
}

export async function balance(ctx: CheckContext, key: KeyRole = "main"): Promise<{ balance: Decimal; ex: Exchange }> {
  const ex = await ctx.req({ method: "GET", path: "/v1/me", key });
  const b = dec(dataOf<AccountMe>(ex)?.usage?.balance);
  if (!b) ctx.skip(`GET /v1/me gave no usage.balance (${ex.status})`);
  return { balance: b, ex };
}

export async function usageRows(ctx: CheckContext, key: KeyRole = "main"): Promise<{ rows: UsageRow[]; ex: Exchange }> {
  const ex = await ctx.req({ method: "GET", path: "/v1/me/usage_history?limit=100", key });
  return { rows: itemsOf<AccountUsageHistoryRow>(ex), ex };
}

/** Whether a run read has ended (`status.type` completed or failed). */
export function isTerminal(run: RunRead | undefined): boolean {
  const type: unknown = run?.status?.type;
  return typeof type === "string" && TERMINAL.has(type);
}

/**
 * What a dataset run's read says about its money: `units` × price held while
 * pending or working, mentions_count × price once completed, nothing once
 * failed (seed › States › Dataset run).
 */
export function datasetRunMoney(price: Decimal, units: number): (d: unknown) => RunMoney | undefined {
  return moneyBy({
    states: { pending: "pending", working: ["working"], completed: "completed", failed: "failed" },
    reserved: price.mul(units),
    settled: (d) => {
      const n = countOf(isObject(d) ? d.mentions_count : undefined);
      return n === undefined ? undefined : price.mul(n);
    },
  });
}

export interface RunObservation {
  ex: Exchange;
  run: RunRead | undefined;
}

/** Poll a run until it is terminal (or the timeout passes); every observation is returned. */
export async function pollRun(
  ctx: CheckContext,
  datasetId: string,
  runId: string,
  key: KeyRole = "main",
): Promise<RunObservation[]> {
  const seen: RunObservation[] = [];
  const deadline = Date.now() + ctx.settings.runTimeoutMs;
  let wait = 200;
  while (Date.now() < deadline) {
    const ex = await ctx.req({
      method: "GET",
      path: `/v1/datasets/${encodeURIComponent(datasetId)}/runs/${encodeURIComponent(runId)}`,
      key,
    });
    const run = dataOf<DatasetsDatasetRun>(ex);
    seen.push({ ex, run });
    if (ex.status !== 200 || isTerminal(run)) return seen;
    await sleep(wait);
    wait = Math.min(wait * 1.5, 5000);
  }
  return seen;
}

export interface ChargedRun {
  price: Decimal;
  before: Decimal;
  /** the balance right after the create, with the run read just before and after it */
  afterCreate: BalanceWindow;
  after: Decimal;
  create: Exchange;
  meAfter: Exchange;
  observations: RunObservation[];
  final: RunRead | undefined;
  rowsBefore: UsageRow[];
  rowsAfter: UsageRow[];
  usageAfter: Exchange;
  datasetId: string;
}

async function chargedRun(ctx: CheckContext, label: string, body: Record<string, unknown>): Promise<ChargedRun> {
  const { price } = await mentionPrice(ctx);
  const ds = await fixtureDataset(ctx);
  ctx.charge(price.mul(RUN_COUNT).toFixed(), `dataset run (${label}, ${RUN_COUNT} mentions)`);
  const { rows: rowsBefore } = await usageRows(ctx);
  const { balance: before } = await balance(ctx);
  const create = await ctx.req({ method: "POST", path: `/v1/datasets/${encodeURIComponent(ds.id)}/runs`, body });
  const runId = dataOf<DatasetsDatasetRunCreated>(create)?.id;
  if (create.status !== 202 || typeof runId !== "string") {
    // a 402 the balance explains is the account's, not a finding; one the balance could fund stays a failure
    const refusal = setupRefusal(create);
    if (refusal && (refusal.reason !== "balance" || before.lt(price.mul(RUN_COUNT))))
      refusedSetup(ctx, refusal, `a ${RUN_COUNT}-mention run (${label})`);
    setupNotAccepted(ctx, `starting a ${RUN_COUNT}-mention run (${label})`, create);
  }
  const runPath = `/v1/datasets/${encodeURIComponent(ds.id)}/runs/${encodeURIComponent(runId)}`;
  const afterCreate = await balanceWindow(ctx, [{ path: runPath, money: datasetRunMoney(price, RUN_COUNT) }]);
  const observations = await pollRun(ctx, ds.id, runId);
  const final = observations.at(-1)?.run;
  if (!isTerminal(final))
    ctx.skip(`the run did not finish within ${ctx.settings.runTimeoutMs / 1000}s (raise --run-timeout)`);
  const { balance: after, ex: meAfter } = await balance(ctx);
  const { rows: rowsAfter, ex: usageAfter } = await usageRows(ctx);
  return {
    price,
    before,
    afterCreate,
    after,
    create,
    meAfter,
    observations,
    final,
    rowsBefore,
    rowsAfter,
    usageAfter,
    datasetId: ds.id,
  };
}

/** A keyword run of the minimum size that collects mentions. */
export function successfulRun(ctx: CheckContext): Promise<ChargedRun> {
  return ctx.shared("billing-successful-run", () =>
    chargedRun(ctx, "keyword", {
      search_query: { type: "prompt", sources: ["reddit"], search_query: "oat milk latte art" },
      count: RUN_COUNT,
    }),
  );
}

/** A URL run whose every URL is gone: it fails (or completes empty); either way nothing is charged. */
export function emptyRun(ctx: CheckContext): Promise<ChargedRun> {
  return ctx.shared("billing-empty-run", () =>
    chargedRun(ctx, "unretrievable URLs", {
      search_query: {
        type: "url",
        source_urls: [
          {
            source: "reddit",
            url: `https://www.reddit.com/r/slk_conformance/comments/deleted_${ctx.runId}/missing_post/`,
          },
        ],
      },
      count: RUN_COUNT,
    }),
  );
}

export interface RefusedRun {
  create: Exchange;
  price: Decimal;
  before: Decimal;
  after: Decimal;
  count: number;
  runsBefore: Exchange;
  runsAfter: Exchange;
  rowsBefore: UsageRow[];
  rowsAfter: UsageRow[];
}

/** The poor account asks for the largest run: 402, nothing created, nothing charged. */
export function refusedRun(ctx: CheckContext): Promise<RefusedRun> {
  return ctx.shared("billing-refused-run", async () => {
    ctx.mutates("a dataset on the poor account");
    const { price } = await mentionPrice(ctx, "poor");
    const { balance: before } = await balance(ctx, "poor");
    const count = 1000;
    if (price.mul(count).lte(before))
      ctx.skip(`the --poor-key account can fund ${count} mentions ($${before.toFixed()} available)`);
    const ds = await createDataset(ctx, "poor", "poor");
    const runsPath = `/v1/datasets/${encodeURIComponent(ds.id)}/runs`;
    const { rows: rowsBefore } = await usageRows(ctx, "poor");
    const runsBefore = await ctx.req({ method: "GET", path: runsPath, key: "poor" });
    const create = await ctx.req({
      method: "POST",
      path: runsPath,
      key: "poor",
      body: { search_query: { type: "prompt", sources: ["tiktok"], search_query: "oat milk barista foam" }, count },
    });
    const runsAfter = await ctx.req({ method: "GET", path: runsPath, key: "poor" });
    const { balance: after } = await balance(ctx, "poor");
    const { rows: rowsAfter } = await usageRows(ctx, "poor");
    return { create, price, before, after, count, runsBefore, runsAfter, rowsBefore, rowsAfter };
  });
}

/** The rows of `after` that `before` did not have (by id). */
export function newRows(before: readonly UsageRow[], after: readonly UsageRow[]): UsageRow[] {
  const ids = new Set(before.map((r) => r.id));
  return after.filter((r) => !ids.has(r.id));
}
