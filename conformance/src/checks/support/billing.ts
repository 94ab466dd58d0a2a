// Billing scenarios shared by the billing checks: one dataset run that
// collects a post (and has a URL that collects nothing, so part of its
// reservation is unused), one run that cannot collect anything, and one
// refused (402) run on the poor account, each observed through /v1/me,
// /v1/prices and /v1/me/usage_history with exact decimals. Every amount a
// check expects is derived from what the deployment answered (the run's
// `count` and `mentions_count`, the prices and balances it shows), never from
// what the kit asked for.
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
import { seed } from "../../grounding/assertions.ts";
import { field, words } from "../../grounding/facts.ts";
import { createDataset, setupNotAccepted } from "./util.ts";
import { dec } from "./decimal.ts";
import {
  balanceWindow,
  commitRun,
  countOf,
  moneyBy,
  postUrl,
  postUrls,
  refusedSetup,
  setupRefusal,
  type BalanceWindow,
  type RunMoney,
} from "./groups.ts";

/** One usage history row as a deployment sent it. */
export type UsageRow = Untrusted<AccountUsageHistoryRow>;
/** One dataset run read as a deployment sent it. */
export type RunRead = Untrusted<DatasetsDatasetRun>;

export const RUN_COUNT = 20; // the seed's minimum count: a deployment that reserves `count` holds the least
export const TERMINAL = new Set(["completed", "failed"]);
/** How long the kit's limiter counts a request against a key (one window of the seed's per-second limit, with its margin). */
export const RATE_WINDOW_MS = 1100;

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
  /** the balance right after the create, with the run read just before and after it (its reservation as the run's own `count` sizes it) */
  afterCreate: BalanceWindow;
  after: Decimal;
  create: Exchange;
  /** the create answer's `count` (what the deployment reserves and targets), when it is an integer */
  count: number | undefined;
  meAfter: Exchange;
  observations: RunObservation[];
  final: RunRead | undefined;
  rowsBefore: UsageRow[];
  rowsAfter: UsageRow[];
  usageAfter: Exchange;
  datasetId: string;
}

/** A URL the seed's platforms would read as one post, on a path that says the post is gone. */
function goneUrl(ctx: CheckContext, label: string): { source: string; url: string } {
  return { source: "reddit", url: postUrl("reddit", `${ctx.runId}/${label}/gone`, "deleted_missing_post") };
}

async function chargedRun(
  ctx: CheckContext,
  label: string,
  urls: Array<{ source: string; url: string }>,
): Promise<ChargedRun> {
  const { price } = await mentionPrice(ctx);
  // its own dataset: the run is the dataset's only one, and no other check's run shares its list
  const ds = await createDataset(ctx, `billing-${label}`);
  const committed = commitRun(ctx, price, RUN_COUNT, `dataset run (${label}: ${urls.length} URLs, count ${RUN_COUNT})`);
  const { rows: rowsBefore } = await usageRows(ctx);
  // a fresh rate-limit window: the balance, the create and the three reads right after it (run, balance,
  // run) go out at once, while a run of a few steps is still in flight
  await sleep(RATE_WINDOW_MS);
  const { balance: before } = await balance(ctx);
  const create = await ctx.req({
    method: "POST",
    path: `/v1/datasets/${encodeURIComponent(ds.id)}/runs`,
    body: { search_query: { type: "url", source_urls: urls }, count: RUN_COUNT, num_comments_per_post: 0 },
  });
  committed(create);
  const created = dataOf<DatasetsDatasetRunCreated>(create);
  const runId = created?.id;
  // accepted with another 2xx: the checks go on with the run (billing-reservation-at-create judges the 202)
  if (create.status < 200 || create.status >= 300 || typeof runId !== "string") {
    // a 402 the balance explains is the account's, not a finding
    const refusal = setupRefusal(create);
    if (refusal) refusedSetup(ctx, refusal, `a ${urls.length}-URL run (${label})`);
    setupNotAccepted(ctx, `starting a ${urls.length}-URL run (${label})`, create);
  }
  const count = countOf(created?.count);
  const runPath = `/v1/datasets/${encodeURIComponent(ds.id)}/runs/${encodeURIComponent(runId)}`;
  // held while in flight: the run's own count (the seed's minimum when it reports none)
  const afterCreate = await balanceWindow(ctx, [{ path: runPath, money: datasetRunMoney(price, count ?? RUN_COUNT) }]);
  const observations = await pollRun(ctx, ds.id, runId);
  const final = observations.at(-1)?.run;
  if (!isTerminal(final))
    ctx.skip(`not exercised: the run did not finish within ${ctx.settings.runTimeoutMs / 1000}s (raise --run-timeout)`);
  const { balance: after, ex: meAfter } = await balance(ctx);
  const { rows: rowsAfter, ex: usageAfter } = await usageRows(ctx);
  return {
    price,
    before,
    afterCreate,
    after,
    create,
    count,
    meAfter,
    observations,
    final,
    rowsBefore,
    rowsAfter,
    usageAfter,
    datasetId: ds.id,
  };
}

/**
 * A URL run of two URLs: one post, and one whose path says the post is gone
 * (a deployment that finds it gone collects one post, so its reservation has
 * an unused part to refund). It costs what one or two mentions cost.
 */
export function successfulRun(ctx: CheckContext): Promise<ChargedRun> {
  return ctx.shared("billing-successful-run", () =>
    chargedRun(ctx, "billed", [...postUrls(ctx, "reddit", 1, "billed"), goneUrl(ctx, "billed")]),
  );
}

/** A URL run whose one URL says the post is gone: it fails (or completes empty); either way a deployment that finds it gone charges nothing. */
export function emptyRun(ctx: CheckContext): Promise<ChargedRun> {
  return ctx.shared("billing-empty-run", () => chargedRun(ctx, "gone", [goneUrl(ctx, "gone")]));
}

export interface RefusedRun {
  create: Exchange;
  price: Decimal;
  before: Decimal;
  after: Decimal;
  /** the count the kit asked for in `create` */
  asked: number;
  /** earlier asks the deployment refused otherwise than with 402 (a larger count), with their answers */
  refusedOtherwise: Array<{ asked: number; ex: Exchange }>;
  runsBefore: Exchange;
  runsAfter: Exchange;
  rowsBefore: UsageRow[];
  rowsAfter: UsageRow[];
  meAfter: Exchange;
}

/** The most mentions a run may ask for (seed: count 20-1000): the largest reservation the poor account can be refused. */
export const MAX_COUNT = 1000;

/**
 * The poor account asks for the largest run, which no small balance funds
 * (nothing is charged when it is refused). A deployment that refuses that
 * count otherwise than with 402 (a cap of its plan, say) is asked for the
 * seed's minimum, when the balance cannot fund that either. Skipped without
 * a request when the balance could fund the largest run at the price the
 * deployment shows.
 */
export function refusedRun(ctx: CheckContext): Promise<RefusedRun> {
  return ctx.shared("billing-refused-run", async () => {
    ctx.mutates("a dataset on the poor account");
    const { price } = await mentionPrice(ctx, "poor");
    const { balance: before } = await balance(ctx, "poor");
    if (price.mul(MAX_COUNT).lte(before))
      ctx.skip(`not exercised: the --poor-key account can fund ${MAX_COUNT} mentions ($${before.toFixed()} available)`);
    const ds = await createDataset(ctx, "poor", "poor");
    const runsPath = `/v1/datasets/${encodeURIComponent(ds.id)}/runs`;
    const { rows: rowsBefore } = await usageRows(ctx, "poor");
    const runsBefore = await ctx.req({ method: "GET", path: runsPath, key: "poor" });
    const refusedOtherwise: RefusedRun["refusedOtherwise"] = [];
    let asked = MAX_COUNT;
    let create: Exchange;
    for (;;) {
      create = await ctx.req({
        method: "POST",
        path: runsPath,
        key: "poor",
        body: {
          search_query: { type: "prompt", sources: ["tiktok"], search_query: "oat milk barista foam" },
          count: asked,
        },
      });
      const otherwise = create.status >= 400 && create.status < 500 && create.status !== 402;
      if (!otherwise || asked === RUN_COUNT || price.mul(RUN_COUNT).lte(before)) break;
      refusedOtherwise.push({ asked, ex: create });
      asked = RUN_COUNT;
    }
    const runsAfter = await ctx.req({ method: "GET", path: runsPath, key: "poor" });
    const { balance: after, ex: meAfter } = await balance(ctx, "poor");
    const { rows: rowsAfter } = await usageRows(ctx, "poor");
    return {
      create,
      price,
      before,
      after,
      asked,
      refusedOtherwise,
      runsBefore,
      runsAfter,
      rowsBefore,
      rowsAfter,
      meAfter,
    };
  });
}

/** The rows of `after` that `before` did not have (by id). */
export function newRows(before: readonly UsageRow[], after: readonly UsageRow[]): UsageRow[] {
  const ids = new Set(before.map((r) => r.id));
  return after.filter((r) => !ids.has(r.id));
}

/** A US-dollar decimal string as the seed's 402 body carries `required` and `available` ("35.600000", "0.98"). */
export const isDecimalString = (v: unknown): v is string => typeof v === "string" && /^\d+(\.\d+)?$/.test(v);

/** The seed's 402 `detail` as a deployment sent it: each of the four fields as sent. */
export interface Detail402 {
  detail: Record<string, unknown> | undefined;
  required: Decimal | undefined;
  available: Decimal | undefined;
}

/**
 * What expect402Body judges, spread into the `asserts` of every check that
 * provokes a 402: the body's shape as the seed states it, and the 402's
 * meaning (the balance cannot fund the reservation: `required` > `available`).
 */
export const PAYMENT_REQUIRED_ASSERTS = {
  body: seed(
    "errors.402-body",
    field("detail"),
    field("message"),
    field("required"),
    field("available"),
    field("top_up_url"),
    words("US-dollar decimal strings"),
    words("transient false"),
  ),
  exceeds: seed(
    ["errors.402", "errors.402-body"],
    words("balance cannot fund the reservation"),
    field("required"),
    field("available"),
  ),
};

/**
 * Judge a 402 body by what the seed states of it (Errors › 402 body):
 * `detail` an object carrying message, required, available and top_up_url;
 * `required` and `available` US-dollar decimal strings; `transient` false;
 * and, the 402 meaning that the balance cannot fund the reservation,
 * `required` more than `available`. Its findings name the assertions of
 * PAYMENT_REQUIRED_ASSERTS (`body`, `exceeds`).
 */
export function expect402Body(ctx: CheckContext, ex: Exchange): Detail402 {
  const judges = { body: "body", exceeds: "exceeds" } satisfies Record<keyof typeof PAYMENT_REQUIRED_ASSERTS, string>;
  const body = isObject(ex.json) ? ex.json : undefined;
  const detail = isObject(body?.detail) ? body.detail : undefined;
  const missing = ["message", "required", "available", "top_up_url"].filter((k) => !detail || !(k in detail));
  ctx.expect(
    missing.length === 0,
    {
      judges: judges.body,
      title: detail ? `the 402 detail lacks ${missing.join(", ")}` : "the 402 detail is not an object",
      received: body?.detail,
      expected: { message: "…", required: "<decimal string>", available: "<decimal string>", top_up_url: "…" },
    },
    ex,
  );
  const strings = detail ? [detail.required, detail.available] : [];
  if (detail && missing.every((k) => k !== "required" && k !== "available"))
    ctx.expect(
      strings.every(isDecimalString),
      {
        judges: judges.body,
        title: "the 402 required/available are not US-dollar decimal strings",
        received: { required: detail.required, available: detail.available },
        expected: { required: "<decimal string>", available: "<decimal string>" },
      },
      ex,
    );
  ctx.expect(
    body?.transient === false,
    {
      judges: judges.body,
      title: `the 402 body's transient is ${JSON.stringify(body?.transient)}`,
      received: body?.transient,
      expected: false,
    },
    ex,
  );
  const required = isDecimalString(detail?.required) ? dec(detail.required) : undefined;
  const available = isDecimalString(detail?.available) ? dec(detail.available) : undefined;
  if (required && available)
    ctx.expect(
      required.gt(available),
      {
        judges: judges.exceeds,
        title: `the 402 says $${required.toFixed()} is required and $${available.toFixed()} available: the balance could fund it`,
        received: { required: detail?.required, available: detail?.available },
        expected: "required > available (the balance cannot fund the reservation)",
      },
      ex,
    );
  return { detail, required, available };
}
