import { Decimal } from "decimal.js";
import type { AudiencesAudienceRun } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { byDefault, words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import { dataOf } from "../typed.ts";
import type { CheckContext } from "../types.ts";
import { is2xx, seen, setupNotAccepted } from "./support/util.ts";
import {
  balanceOf,
  balanceWindow,
  describeAllowed,
  postUrls,
  priceOf,
  runIdOf,
  sourceDataset,
  windowAllReserved,
  windowHolds,
  type SourceDataset,
} from "./support/groups.ts";
import {
  createAudienceDataset,
  peopleBound,
  pollAudienceRun,
  runPath,
  runsPath,
  startAudienceRun,
} from "./support/audiences.ts";
import { audienceRunMoney } from "./support/audience-billing.ts";

const DEFAULT_PROFILES = 300;
/** A source of five reddit posts without comments: the minimum an audience run takes, five people at most. */
const SMALL_POSTS = 5;

/** The kit's smallest audience source: five posts, no commenters (shared by the runs of this check). */
const smallSource = (ctx: CheckContext): Promise<SourceDataset> =>
  ctx.shared("aud-source-small", () =>
    sourceDataset(ctx, "aud-src-small", postUrls(ctx, "reddit", SMALL_POSTS, "aud5"), "main", 0),
  );

/**
 * total_profile_count defaults to 300: a run sent without it is the run sent
 * with 300. Two runs on one source, one without the field and one with
 * 300, report the same target_profile_count (whatever the deployment calls
 * the size it works to, the two must not differ: a fault in the default
 * shows even where runs end at once); while the run without the field is
 * pending or working, its reservation is 300 × the audience_profile price.
 * That target_profile_count is 300 is the contract's reading of the field
 * (D-AUD-RUN-COUNTS). The runs work on five posts without commenters, so
 * each profiles five people at most: the kit commits that, not 300.
 */
export default defineCheck({
  id: "audience-run-default-profile-count",
  phase: "groups",
  rule: "An audience run created without total_profile_count reports the same target_profile_count as one created with 300, and reserves 300 × the audience_profile price while it is pending or working (not exercised when it has left those states around the balance read); its target_profile_count is 300 (D-AUD-RUN-COUNTS)",
  section:
    "Endpoints › Audience datasets (run body: total_profile_count default 300); Limits › Charges (reservation sized by total_profile_count)",
  severity: "major",
  asserts: {
    equivalent: seed("audience-datasets.runs.profile-count-default", byDefault(300, "total_profile_count")),
    reserved: seed(
      "audience-datasets.runs.profile-count-default",
      byDefault(300, "total_profile_count"),
      words("reservation sized by total_profile_count"),
    ),
    echo: decided("D-AUD-RUN-COUNTS"),
  },
  requires: ["POST /v1/audience_datasets/{audience_dataset_id}/runs", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const price = await priceOf(ctx, "audience_profile");
    const ad = await createAudienceDataset(ctx, "aud-default-count");
    const reservation = price.mul(DEFAULT_PROFILES);
    // the run holds 300 × price for a moment, but settles no more profiles than its source has people: that is
    // what the kit commits (the whole reservation when the source's size is not reported); the balance is read
    // right before the accepted start
    let before = new Decimal(NaN);
    const commit = (src: SourceDataset, what: string) => {
      const most = Math.min(DEFAULT_PROFILES, peopleBound(src) ?? DEFAULT_PROFILES);
      return ctx.charge(price.mul(most).toFixed(), `${what} (at most ${most} people in its source)`);
    };
    let release = () => {};
    const { ex: create, source } = await startAudienceRun(ctx, ad, undefined, {
      first: { build: () => smallSource(ctx), key: "aud-source-small-preferred" },
      before: async (src) => {
        release();
        release = commit(src, "an audience run without total_profile_count");
        before = (await balanceOf(ctx)).balance;
      },
    });
    const id = runIdOf(create);
    if (!is2xx(create) || !id) {
      release();
      return setupNotAccepted(ctx, "an audience run without total_profile_count", create);
    }
    // the reservation: judged only when the run was pending or working on both sides of the balance read
    const w = await balanceWindow(ctx, [{ path: runPath(ad, id), money: audienceRunMoney(price, reservation) }]);
    const debit = before.minus(w.balance);
    if (windowAllReserved(w))
      ctx.expect(
        windowHolds(w, before),
        {
          judges: "reserved",
          title: `an audience run without total_profile_count reserved $${debit.toFixed()}, not 300 × $${price.toFixed()}`,
          received: { before: before.toFixed(), after: w.balance.toFixed(), debit: debit.toFixed() },
          expected: { reserved: `${reservation.toFixed()} (${describeAllowed(w)})` },
        },
        w.me,
      );
    else
      ctx.notExercised("the run had left pending/working around the balance read: the reservation was not observable");
    const omitted = await ctx.req({ method: "GET", path: runPath(ad, id) });
    await pollAudienceRun(ctx, ad, id);

    // the same run with the default spelled out, on the same source once the first has ended
    commit(source, "an audience run of 300 profiles");
    const explicit = await ctx.req({
      method: "POST",
      path: runsPath(ad),
      body: { source_dataset_id: source.id, total_profile_count: DEFAULT_PROFILES },
    });
    const explicitId = runIdOf(explicit);
    if (!is2xx(explicit) || !explicitId)
      return ctx.notExercised(
        `the run with total_profile_count 300 answered ${explicit.status}: the default was not compared with it`,
      );
    const spelled = await ctx.req({ method: "GET", path: runPath(ad, explicitId) });
    await pollAudienceRun(ctx, ad, explicitId);
    judgeTargets(ctx, omitted, spelled);
  },
});

/** The two runs' target_profile_count: the same (the seed's default), and 300 (the contract's reading of the field). */
function judgeTargets(ctx: CheckContext, omitted: Exchange, spelled: Exchange): void {
  const a = dataOf<AudiencesAudienceRun>(omitted)?.target_profile_count;
  const b = dataOf<AudiencesAudienceRun>(spelled)?.target_profile_count;
  if (omitted.status !== 200 || spelled.status !== 200)
    return ctx.notExercised(`the two runs read ${omitted.status} and ${spelled.status}: their targets are not known`);
  if (a === undefined && b === undefined)
    ctx.notExercised("neither run reports a target_profile_count: the default is judged by the reservation alone");
  else
    ctx.expect(
      JSON.stringify(a) === JSON.stringify(b),
      {
        judges: "equivalent",
        title: `a run without total_profile_count reports target_profile_count ${JSON.stringify(a)}, one with 300 reports ${JSON.stringify(b)}`,
        received: { omitted: seen(omitted), with_300: seen(spelled) },
        expected: "the same target_profile_count",
      },
      omitted,
    );
  ctx.expect(
    a === DEFAULT_PROFILES,
    {
      judges: "echo",
      title: `target_profile_count ${JSON.stringify(a)} for a run sent without total_profile_count, not ${DEFAULT_PROFILES}`,
      received: seen(omitted),
      expected: { data: { target_profile_count: DEFAULT_PROFILES } },
    },
    omitted,
  );
}
