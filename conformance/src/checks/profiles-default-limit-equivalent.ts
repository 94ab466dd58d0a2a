import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { byDefault } from "../grounding/facts.ts";
import type { CheckContext } from "../types.ts";
import { errorCode, postUrls, priceOf, runIdOf, sourceDataset } from "./support/groups.ts";
import { createAudienceDataset, pollAudienceRun, runsPath } from "./support/audiences.ts";
import { judgeDefaultPage } from "./support/pagination.ts";
import { chargeOrReason, listOf, reasonIfSkipped } from "./support/util.ts";

const DEFAULT = 20;
const PROFILES = "/v1/audience_profiles";

/** How many profiles the account's search lists on one page of 100. */
async function held(ctx: CheckContext): Promise<number> {
  const ex = await ctx.req({ method: "POST", path: PROFILES, body: { limit: 100 } });
  return ex.status === 200 ? (listOf(ex)?.length ?? 0) : 0;
}

/** Posts of the source the kit fills profiles from: each post's author and two commenters can be profiled. */
const SOURCE_POSTS = 8;

/**
 * One audience run of `total` profiles over a source of eight reddit posts
 * with two comments each (up to 24 authors and commenters, more than the
 * default page). Returns why nothing was added, when the deployment refused.
 */
async function fill(ctx: CheckContext, total: number): Promise<string | undefined> {
  const price = await priceOf(ctx, "audience_profile");
  const refused = chargeOrReason(ctx, price.mul(total).toFixed(), `an audience run of ${total} profiles`);
  if (refused) return refused;
  const src = await sourceDataset(ctx, "profiles-source", postUrls(ctx, "reddit", SOURCE_POSTS, "prof"));
  const ad = await createAudienceDataset(ctx, "profiles-page");
  const ex = await ctx.req({
    method: "POST",
    path: runsPath(ad),
    body: { source_dataset_id: src.id, total_profile_count: total },
  });
  const run = runIdOf(ex);
  if (ex.status !== 202 || !run) return `the audience run answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd();
  const end = (await pollAudienceRun(ctx, ad, run)).at(-1)?.d?.status?.type;
  return end === "completed" ? undefined : `the audience run ended ${end}`;
}

/**
 * "omitted ≡ the seed's default" for the profile search: a search without
 * `limit` answers the page a search with limit=20 answers, the same profiles
 * and the same has_next. It runs after the audience checks (whose runs
 * collect profiles); an account holding 20 or fewer gets one audience run of
 * what is missing over a source of its own (profiles are charged: the
 * smallest run that passes the default).
 */
export default defineCheck({
  id: "profiles-default-limit-equivalent",
  phase: "groups",
  after: ["audience-run-*", "audience-profile-billing"],
  rule: "POST /v1/audience_profiles without limit answers the page a search with limit=20 answers: the same profiles, the same has_next",
  section: "Endpoints › Audience profiles (limit default 20); Limits › Concurrency and caps (page size defaults)",
  severity: "major",
  asserts: {
    default: seed("audience-profiles.default-limit", byDefault(DEFAULT)),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["POST /v1/audience_profiles"],
  async run(ctx) {
    const have = await held(ctx);
    if (have <= DEFAULT && ctx.settings.profile !== "readonly" && ctx.contract.has("POST /v1/audience_datasets")) {
      const refused = await reasonIfSkipped(fill(ctx, DEFAULT + 3 - have));
      if (refused) ctx.notExercised(`filling the profile search: ${refused}`);
    }
    await judgeDefaultPage(ctx, {
      judges: "default",
      what: `POST ${PROFILES}`,
      dflt: DEFAULT,
      omitted: () => ctx.req({ method: "POST", path: PROFILES, body: {} }),
      explicit: () => ctx.req({ method: "POST", path: PROFILES, body: { limit: DEFAULT } }),
    });
  },
});
