// Custom parameter scenarios shared by their checks: parameters created by the
// kit (tracked for cleanup), a small source dataset, one run followed to its end.
import type { Decimal } from "decimal.js";
import type { CheckContext } from "../../types.ts";
import type { Exchange } from "../../http.ts";
import { data, seen } from "./util.ts";
import { balanceOf, pollUntil, postUrls, priceOf, sourceDataset, type SourceDataset } from "./groups.ts";
import type { BilledCreate } from "./groups.ts";

export const CP = "/v1/custom_parameters";
export const cpRuns = (cp: string) => `${CP}/${encodeURIComponent(cp)}/runs`;
const done = (r: any) =>
  ["completed", "failed"].includes(r?.status?.type) ||
  (Number.isInteger(r?.mentions_total) &&
    r.mentions_done + r.mentions_error === r.mentions_total &&
    r.mentions_total > 0 &&
    r?.status?.type !== "processing");

export function cpSource(ctx: CheckContext): Promise<SourceDataset> {
  return ctx.shared("cp-source", () => sourceDataset(ctx, "cp-source", postUrls(ctx, "reddit", 4, "cp")));
}

export async function createParameter(
  ctx: CheckContext,
  label: string,
  instructions = "Which brand of plant milk does the post mention? Answer with the brand name only.",
): Promise<{ id: string; name: string; ex: Exchange }> {
  ctx.mutates(`custom parameter ${label}`);
  const name = ctx.name(label);
  const ex = await ctx.req({ method: "POST", path: CP, body: { name, instructions, value_type: "string" } });
  const id = data(ex)?.id;
  // created with another 2xx: a finding of the create status (D-CREATE-201), and the check goes on with the parameter
  if (ex.status >= 200 && ex.status < 300 && ex.status !== 201 && typeof id === "string")
    ctx.fail(
      { title: `creating a custom parameter answered ${ex.status}, not 201`, received: ex.status, expected: 201 },
      ex,
    );
  else if (ex.status !== 201 || typeof id !== "string") {
    ctx.fail(
      { title: `could not create a custom parameter (${ex.status})`, received: seen(ex), expected: { status: 201 } },
      ex,
    );
    ctx.skip("custom parameter creation failed");
  }
  ctx.track("custom parameter", `${CP}/${encodeURIComponent(id)}`);
  return { id, name, ex };
}

export interface ParameterRun extends BilledCreate {
  cp: string;
  datasetId: string;
  datasetMentions: number;
  runId?: string;
  observations: Array<{ ex: Exchange; d: any }>;
  final?: any;
}

export function parameterRun(ctx: CheckContext): Promise<ParameterRun> {
  return ctx.shared("cp-run", async () => {
    const price = await priceOf(ctx, "post_processing");
    const src = await cpSource(ctx);
    const ds = data(await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(src.id)}` }));
    const cp = await createParameter(ctx, "cp-run");
    ctx.charge(price.mul(ds?.mentions_count ?? 4).toFixed(), "custom parameter run");
    const { balance: before } = await balanceOf(ctx);
    const create = await ctx.req({
      method: "POST",
      path: cpRuns(cp.id),
      body: { scope: { kind: "dataset", id: src.id } },
    });
    const runId = data(create)?.run_id;
    const { balance: afterCreate } = await balanceOf(ctx);
    const observations =
      typeof runId === "string" ? await pollUntil(ctx, `${cpRuns(cp.id)}/${encodeURIComponent(runId)}`, done) : [];
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
