// Custom parameter scenarios shared by their checks: parameters created by the
// kit (tracked for cleanup), a small source dataset, one run followed to its end.
import type {
  CustomParametersCustomParameter,
  CustomParametersCustomParameterRun,
  CustomParametersCustomParameterRunAccepted,
  DatasetsDataset,
} from "../../../../generated/client/types.gen.ts";
import type { CheckContext } from "../../types.ts";
import type { Exchange } from "../../http.ts";
import { Decimal } from "decimal.js";
import { dataOf, isObject, type Untrusted } from "../../typed.ts";
import { setupNotAccepted } from "./util.ts";
import {
  balanceOf,
  balanceWindow,
  countOf,
  keywordSource,
  moneyBy,
  pollUntil,
  postUrls,
  priceOf,
  refusedSetup,
  setupRefusal,
  sourceDataset,
  startOnSource,
  type Observation,
  type RunMoney,
  type SourceDataset,
} from "./groups.ts";
import type { BilledCreate } from "./groups.ts";

export const CP = "/v1/custom_parameters";
export const cpRuns = (cp: string) => `${CP}/${encodeURIComponent(cp)}/runs`;
/** A custom parameter run read as a deployment sent it. */
export type ParameterRunRead = Untrusted<CustomParametersCustomParameterRun>;

/**
 * Whether a read shows the run still running, by the seed's own measure: its
 * counters short of mentions_total (the run "is complete when done plus
 * error equals total") and no end state. False when the read cannot tell.
 */
export function parameterRunRunning(r: ParameterRunRead | undefined): boolean {
  const type: unknown = r?.status?.type;
  const [total, doneN, error] = [r?.mentions_total, r?.mentions_done, r?.mentions_error].map(countOf);
  if (total === undefined || doneN === undefined || error === undefined) return false;
  return doneN + error < total && type !== "completed" && type !== "failed";
}

/** Ended: a terminal status, or every mention counted (done + error = total) and no longer processing. */
export function parameterRunEnded(r: ParameterRunRead | undefined): boolean {
  return done(r);
}

function done(r: ParameterRunRead | undefined): boolean {
  const type: unknown = r?.status?.type;
  if (type === "completed" || type === "failed") return true;
  const total = r?.mentions_total;
  return (
    typeof total === "number" &&
    Number.isInteger(total) &&
    (r?.mentions_done ?? NaN) + (r?.mentions_error ?? NaN) === total &&
    total > 0 &&
    type !== "processing"
  );
}

/**
 * What a custom parameter run's read says about its money: the dataset's
 * mentions × price held while `processing`, mentions_done × price once
 * completed (D-CPR-ERROR-CHARGE), nothing once failed. A `processing` read
 * whose counters already add up is left unjudged: when `completed` appears
 * relative to the counters is lenient (D-CPR-STATES), so either may hold.
 */
export function parameterRunMoney(price: Decimal, datasetMentions: unknown): (d: unknown) => RunMoney | undefined {
  const settled = moneyBy({
    states: { pending: "processing", working: [], completed: "completed", failed: "failed" },
    reserved: price.mul(countOf(datasetMentions) ?? NaN),
    settled: (d) => {
      const n = countOf(isObject(d) ? d.mentions_done : undefined);
      return n === undefined ? undefined : price.mul(n);
    },
  });
  return (d) => {
    const r = isObject(d) ? (d as ParameterRunRead) : undefined;
    if (r?.status?.type === "processing" && r.mentions_total !== undefined && done({ ...r, status: undefined }))
      return undefined;
    return settled(d);
  };
}

export function cpSource(ctx: CheckContext): Promise<SourceDataset> {
  return ctx.shared("cp-source", () => sourceDataset(ctx, "cp-source", postUrls(ctx, "reddit", 4, "cp")));
}

/**
 * Start a setup run of post processing (a custom parameter run, a pattern
 * detection) on the first dataset the deployment accepts: the kit's four
 * reddit posts (cpSource), then a keyword run of 20 reddit posts. A refusal
 * for the dataset's data (nothing_to_analyze) moves on; refused on both, the
 * check is not exercised, naming the code; a refusal for the balance (402) or
 * the plan ends it at once; any other answer is the caller's to judge.
 * `before` runs right before the accepted start's request, on its dataset.
 */
export async function startOnPosts(
  ctx: CheckContext,
  step: string,
  start: (source: SourceDataset) => Promise<Exchange>,
): Promise<{ ex: Exchange; source: SourceDataset }> {
  const preferred = await ctx.shared("posts-source-preferred", async () => ({}) as { source?: SourceDataset });
  return startOnSource(ctx, {
    step,
    first: () => cpSource(ctx),
    alternatives: [
      {
        what: "a keyword run of 20 reddit posts",
        build: () =>
          ctx.shared("posts-source-keyword", () =>
            keywordSource(ctx, "posts-src-kw", [{ sources: ["reddit"], count: 20 }]),
          ),
      },
    ],
    preferred,
    start,
  });
}

/** Start a run of parameter `cp` on a dataset the deployment accepts (startOnPosts); `before` runs right before its request. */
export function startParameterRun(
  ctx: CheckContext,
  cp: string,
  before?: (source: SourceDataset) => Promise<void>,
): Promise<{ ex: Exchange; source: SourceDataset }> {
  return startOnPosts(ctx, "a custom parameter run", async (src) => {
    await before?.(src);
    return ctx.req({ method: "POST", path: cpRuns(cp), body: { scope: { kind: "dataset", id: src.id } } });
  });
}

export async function createParameter(
  ctx: CheckContext,
  label: string,
  instructions = "Which brand of plant milk does the post mention? Answer with the brand name only.",
): Promise<{ id: string; name: string; ex: Exchange }> {
  ctx.mutates(`custom parameter ${label}`);
  const name = ctx.name(label);
  const ex = await ctx.req({ method: "POST", path: CP, body: { name, instructions, value_type: "string" } });
  const id = dataOf<CustomParametersCustomParameter>(ex)?.id;
  // created with another 2xx: the check goes on with the parameter (the status is documented-status-only's to judge)
  if (ex.status < 200 || ex.status >= 300 || typeof id !== "string") {
    // the account's cap on parameters (custom_parameter_limit_exceeded) is its plan's: not exercised, never failed
    const refusal = setupRefusal(ex);
    if (refusal) refusedSetup(ctx, refusal, `creating custom parameter ${label}`);
    setupNotAccepted(ctx, `creating custom parameter ${label}`, ex);
  }
  ctx.track("custom parameter", `${CP}/${encodeURIComponent(id)}`);
  return { id, name, ex };
}

export interface ParameterRun extends BilledCreate {
  cp: string;
  datasetId: string;
  datasetMentions: number | undefined;
  runId?: string;
  observations: Observation<CustomParametersCustomParameterRun>[];
  final?: ParameterRunRead;
}

export function parameterRun(ctx: CheckContext): Promise<ParameterRun> {
  return ctx.shared("cp-run", async () => {
    const price = await priceOf(ctx, "post_processing");
    const cp = await createParameter(ctx, "cp-run");
    // the dataset's size and the balance are read right before the start the deployment accepts
    let ds: Untrusted<DatasetsDataset> | undefined;
    let before = new Decimal(NaN);
    const { ex: create, source: src } = await startParameterRun(ctx, cp.id, async (s) => {
      ds = dataOf<DatasetsDataset>(await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(s.id)}` }));
      ctx.charge(price.mul(ds?.mentions_count ?? 4).toFixed(), "custom parameter run");
      before = (await balanceOf(ctx)).balance;
    });
    const runId = dataOf<CustomParametersCustomParameterRunAccepted>(create)?.run_id;
    // the balance right after the start, judged against the run's state read around it
    const afterCreate = await balanceWindow(
      ctx,
      typeof runId === "string"
        ? [
            {
              path: `${cpRuns(cp.id)}/${encodeURIComponent(runId)}`,
              money: parameterRunMoney(price, ds?.mentions_count),
            },
          ]
        : [],
    );
    const observations =
      typeof runId === "string"
        ? await pollUntil<CustomParametersCustomParameterRun>(
            ctx,
            `${cpRuns(cp.id)}/${encodeURIComponent(runId)}`,
            done,
          )
        : [];
    const { balance: after } = await balanceOf(ctx);
    return {
      cp: cp.id,
      datasetId: src.id,
      datasetMentions: ds?.mentions_count,
      price,
      before,
      afterCreate,
      after,
      create,
      runId,
      observations,
      final: observations.at(-1)?.d,
    };
  });
}
