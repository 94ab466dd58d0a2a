import { Decimal } from "decimal.js";
import type { AudiencesAudienceRun } from "../../../generated/client/types.gen.ts";
import { decision, defineCheck } from "../define-check.ts";
import { dataOf } from "../typed.ts";
import { seen } from "./support/util.ts";
import { balanceOf, errorCode, priceOf, runIdOf } from "./support/groups.ts";
import { createAudienceDataset, pollAudienceRun, runPath, startAudienceRun } from "./support/audiences.ts";

const DEFAULT_PROFILES = 300;
const inFlight = (d: unknown) => {
  const t = (d as { status?: { type?: unknown } } | undefined)?.status?.type;
  return t === "pending" || t === "working";
};

/** An audience run sent without total_profile_count targets (and reserves) the default 300 profiles. */
export default defineCheck({
  id: "audience-run-default-profile-count",
  phase: "groups",
  rule: "An audience run created without total_profile_count reserves 300 × the audience_profile price while it is in flight, and reads target_profile_count 300",
  section:
    "Endpoints › Audience datasets (run body: total_profile_count default 300); Limits › Charges (reservation sized by total_profile_count)",
  severity: "major",
  rules: {
    seed: "total_profile_count: integer 1-2000, default 300}` … (reservation sized by total_profile_count, default 300)",
    // that target_profile_count echoes total_profile_count is the contract's reading of the run's fields
    decisions: [decision("D-AUD-RUN-COUNTS", { title: /^target_profile_count / })],
  },
  decisions: ["D-AUD-RUN-COUNTS"],
  requires: ["POST /v1/audience_datasets/{audience_dataset_id}/runs", "GET /v1/me"],
  async run(ctx) {
    const price = await priceOf(ctx, "audience_profile");
    const ad = await createAudienceDataset(ctx, "aud-default-count");
    const release = ctx.charge(price.mul(DEFAULT_PROFILES).toFixed(), "an audience run of the default 300 profiles");
    // on a source the deployment accepts (refused for its data on every one, or for its balance or plan: not
    // exercised, naming the code); the balance is read right before the accepted start
    let before = new Decimal(NaN);
    const { ex: create } = await startAudienceRun(ctx, ad, undefined, async () => {
      before = (await balanceOf(ctx)).balance;
    });
    const id = runIdOf(create);
    if (create.status === 402 || create.status === 400) {
      release();
      return ctx.skip(
        `the audience run was refused for the account's balance, plan or data: ${create.status} ${errorCode(create) ?? ""}`,
      );
    }
    if (create.status !== 202 || !id) {
      release();
      ctx.fail(
        {
          title: `an audience run without total_profile_count answered ${create.status}`,
          received: seen(create),
          expected: { status: 202 },
        },
        create,
      );
      return ctx.skip("the audience run could not be started");
    }
    // the reservation: judged only when the run was in flight on both sides of the balance read
    const r1 = await ctx.req({ method: "GET", path: runPath(ad, id) });
    const { balance: after, ex: me } = await balanceOf(ctx);
    const r2 = await ctx.req({ method: "GET", path: runPath(ad, id) });
    const expected = price.mul(DEFAULT_PROFILES);
    if (inFlight(dataOf(r1)) && inFlight(dataOf(r2)))
      ctx.expect(
        before.minus(after).equals(expected),
        {
          title: `an audience run without total_profile_count reserved $${before.minus(after).toFixed()}, not 300 × $${price.toFixed()}`,
          received: { before: before.toFixed(), after: after.toFixed() },
          expected: { reserved: expected.toFixed() },
        },
        me,
      );
    else
      ctx.notExercised("the run had left pending/working around the balance read: the reservation was not observable");
    const target = dataOf<AudiencesAudienceRun>(r1)?.target_profile_count;
    ctx.expect(
      target === DEFAULT_PROFILES,
      {
        title: `target_profile_count ${JSON.stringify(target)} for a run sent without total_profile_count, not ${DEFAULT_PROFILES}`,
        received: seen(r1),
        expected: { data: { target_profile_count: DEFAULT_PROFILES } },
      },
      r1,
    );
    // let the run end, so its reservation settles before the checks after it read the balance
    await pollAudienceRun(ctx, ad, id);
  },
});
