// Audience scenarios shared by the audience checks: one source dataset with
// enough eligible posts (and larger or other ones when the deployment refuses
// it for its own data), audience datasets created by the kit, run polling.
import type { AudiencesAudienceDatasetCreated, AudiencesAudienceRun } from "../../../../generated/client/types.gen.ts";
import type { CheckContext } from "../../types.ts";
import { dataOf } from "../../typed.ts";
import { setupNotAccepted } from "./util.ts";
import type { Exchange } from "../../http.ts";
import {
  countOf,
  errorCode,
  keywordSource,
  pollUntil,
  postUrls,
  refusedReason,
  sourceDataset,
  startOnSource,
  terminalType,
  type Observation,
  type SourceDataset,
} from "./groups.ts";

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
    // the seed: "400 when the plan does not include audience research" (its code is the deployment's)
    if (ex.status === 400)
      ctx.skip(
        refusedReason(
          { status: 400, code: errorCode(ex) ?? "(no error_code)", reason: "plan" },
          `POST ${AUD}: the plan has no audience research`,
        ),
      );
    setupNotAccepted(ctx, `creating audience dataset ${label}`, ex);
  }
  ctx.track("audience dataset", `${AUD}/${encodeURIComponent(id)}`);
  return id;
}

/**
 * Start an audience run of `total` profiles (none: the default) on the first source the
 * deployment accepts: the kit's six reddit posts (audienceSource), then a
 * keyword run of 20 reddit posts, then keyword runs of 50 TikTok and 50
 * Instagram posts (more posts, other platforms). A refusal for the source's
 * data (audience_insufficient_source_mentions, audience_youtube_only_source,
 * source_dataset_has_no_completed_run) moves on; when every source is
 * refused the check is not exercised, naming the code; any other answer is
 * the caller's to judge. `before` runs right before the accepted start's
 * request (a balance read there sees no setup charge of the alternatives).
 */
export async function startAudienceRun(
  ctx: CheckContext,
  ad: string,
  /** total_profile_count; undefined sends none (the deployment's default applies) */
  total: number | undefined,
  o: {
    before?: (source: SourceDataset) => Promise<void>;
    /** send the start another way (twin requests); what it answers is judged as the start */
    send?: (body: Record<string, unknown>) => Promise<Exchange>;
    /** the source tried first (default: the kit's six reddit posts), and the key its choice is remembered under */
    first?: { build: () => Promise<SourceDataset>; key: string };
  } = {},
): Promise<{ ex: Exchange; source: SourceDataset }> {
  const { before, send } = o;
  const key = o.first?.key ?? "audience-source-preferred";
  const preferred = await ctx.shared(key, async () => ({}) as { source?: SourceDataset });
  return startOnSource(ctx, {
    step: total === undefined ? "an audience run of the default size" : `an audience run of ${total} profiles`,
    first: o.first?.build ?? (() => audienceSource(ctx)),
    alternatives: [
      {
        what: "a keyword run of 20 reddit posts",
        build: () =>
          ctx.shared("aud-source-keyword", () =>
            keywordSource(ctx, "aud-src-kw", [{ sources: ["reddit"], count: 20 }]),
          ),
      },
      {
        what: "keyword runs of 50 TikTok and 50 Instagram posts",
        build: () =>
          ctx.shared("aud-source-other", () =>
            keywordSource(ctx, "aud-src-other", [
              { sources: ["tiktok"], count: 50 },
              { sources: ["instagram"], count: 50 },
            ]),
          ),
      },
    ],
    preferred,
    start: async (src) => {
      await before?.(src);
      const body =
        total === undefined ? { source_dataset_id: src.id } : { source_dataset_id: src.id, total_profile_count: total };
      return send ? send(body) : ctx.req({ method: "POST", path: runsPath(ad), body });
    },
  });
}

/**
 * The most people an audience run on `src` can collect, as the deployment
 * reported the source: the seed walks the authors and commenters of its posts,
 * so at most its mentions × (1 + num_comments_per_post of its run). Undefined
 * when its run reports neither.
 */
export function peopleBound(src: SourceDataset): number | undefined {
  const posts = countOf(src.run?.mentions_count);
  const comments = countOf(src.run?.params?.num_comments_per_post);
  return posts === undefined || comments === undefined ? undefined : posts * (1 + comments);
}

/** Poll one audience run to its end; every read of it, `data` as an audience run. */
export async function pollAudienceRun(
  ctx: CheckContext,
  ad: string,
  run: string,
): Promise<Observation<AudiencesAudienceRun>[]> {
  return pollUntil<AudiencesAudienceRun>(ctx, runPath(ad, run), terminalType);
}
