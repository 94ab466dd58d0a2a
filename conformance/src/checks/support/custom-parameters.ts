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
import { dataOf, type Untrusted } from "../../typed.ts";
import { seen } from "./util.ts";
import {
  balanceOf,
  pollUntil,
  postUrls,
  priceOf,
  sourceDataset,
  type Observation,
  type SourceDataset,
} from "./groups.ts";
import type { BilledCreate } from "./groups.ts";

export const CP = "/v1/custom_parameters";
export const cpRuns = (cp: string) => `${CP}/${encodeURIComponent(cp)}/runs`;
/** A custom parameter run read as a deployment sent it. */
export type ParameterRunRead = Untrusted<CustomParametersCustomParameterRun>;

// Ended: a terminal status, or every mention counted (done + error = total) and no longer processing.
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
  const id = dataOf<CustomParametersCustomParameter>(ex)?.id;
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
  datasetMentions: number | undefined;
  runId?: string;
  observations: Observation<CustomParametersCustomParameterRun>[];
  final?: ParameterRunRead;
}

export function parameterRun(ctx: CheckContext): Promise<ParameterRun> {
  return ctx.shared("cp-run", async () => {
    const price = await priceOf(ctx, "post_processing");
    const src = await cpSource(ctx);
    const ds = dataOf<DatasetsDataset>(
      await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(src.id)}` }),
    );
    const cp = await createParameter(ctx, "cp-run");
    ctx.charge(price.mul(ds?.mentions_count ?? 4).toFixed(), "custom parameter run");
    const { balance: before } = await balanceOf(ctx);
    const create = await ctx.req({
      method: "POST",
      path: cpRuns(cp.id),
      body: { scope: { kind: "dataset", id: src.id } },
    });
    const runId = dataOf<CustomParametersCustomParameterRunAccepted>(create)?.run_id;
    const { balance: afterCreate } = await balanceOf(ctx);
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
