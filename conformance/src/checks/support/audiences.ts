// Audience scenarios shared by the audience checks: one source dataset with
// enough eligible posts, audience datasets created by the kit, run polling.
import type { AudiencesAudienceDatasetCreated, AudiencesAudienceRun } from "../../../../generated/client/types.gen.ts";
import type { CheckContext } from "../../types.ts";
import { dataOf } from "../../typed.ts";
import { seen } from "./util.ts";
import { pollUntil, postUrls, sourceDataset, terminalType, type Observation, type SourceDataset } from "./groups.ts";

export const AUD = "/v1/audience_datasets";
export const runsPath = (ad: string) => `${AUD}/${encodeURIComponent(ad)}/runs`;
export const runPath = (ad: string, run: string) => `${runsPath(ad)}/${encodeURIComponent(run)}`;

/** Six reddit posts (at least 5 eligible, seed › Audience datasets rule 1), shared by the audience checks. */
export function audienceSource(ctx: CheckContext): Promise<SourceDataset> {
  return ctx.shared("audience-source", () => sourceDataset(ctx, "aud-source", postUrls(ctx, "reddit", 6, "aud")));
}

export async function createAudienceDataset(ctx: CheckContext, label: string): Promise<string> {
  ctx.mutates(`audience dataset ${label}`);
  const ex = await ctx.req({ method: "POST", path: AUD, body: { name: ctx.name(label) } });
  const id = dataOf<AudiencesAudienceDatasetCreated>(ex)?.id;
  if (ex.status !== 201 || typeof id !== "string") {
    if (ex.status === 400) ctx.skip(`the account's plan has no audience research (POST ${AUD} answered 400)`);
    ctx.fail(
      { title: `could not create an audience dataset (${ex.status})`, received: seen(ex), expected: { status: 201 } },
      ex,
    );
    ctx.skip("audience dataset creation failed");
  }
  ctx.track("audience dataset", `${AUD}/${encodeURIComponent(id)}`);
  return id;
}

/** Poll one audience run to its end; every read of it, `data` as an audience run. */
export async function pollAudienceRun(
  ctx: CheckContext,
  ad: string,
  run: string,
): Promise<Observation<AudiencesAudienceRun>[]> {
  return pollUntil<AudiencesAudienceRun>(ctx, runPath(ad, run), terminalType);
}
