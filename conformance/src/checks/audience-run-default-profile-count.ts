import { Decimal } from "decimal.js";
import type { AudiencesAudienceRun } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { byDefault, words } from "../grounding/facts.ts";
import { sleep } from "../http.ts";
import { dataOf } from "../typed.ts";
import { is2xx, seen, setupNotAccepted } from "./support/util.ts";
import {
  balanceOf,
  balanceWindow,
  describeAllowed,
  priceOf,
  terminalType,
  runIdOf,
  windowAllReserved,
  windowHolds,
} from "./support/groups.ts";
import {
  AUD,
  createAudienceDataset,
  peopleBound,
  pollAudienceRun,
  runPath,
  startAudienceRun,
} from "./support/audiences.ts";
import { audienceRunMoney } from "./support/audience-billing.ts";
import type { CheckContext } from "../types.ts";

const DEFAULT_PROFILES = 300;
/** How long the kit waits for the cancelled run's reservation to come back (reads of GET /v1/me). */
const RELEASE_READS = 6;

/**
 * An audience run sent without total_profile_count is sized by the default
 * 300: its reservation, read while the run is pending or working, is 300 ×
 * the audience_profile price the deployment publishes. The run is then
 * cancelled by deleting its audience dataset (D-AUD-DELETE-INFLIGHT: the run
 * fails and its whole reservation is released), so the default's 300
 * profiles are never collected. The kit commits what the run can settle
 * (no more profiles than the source has authors and commenters), and
 * releases that down to what the balance shows was really charged.
 */
export default defineCheck({
  id: "audience-run-default-profile-count",
  phase: "groups",
  rule: "An audience run created without total_profile_count reserves 300 × the audience_profile price while it is pending or working (not exercised when it has left those states around the balance read), and reads target_profile_count 300 (D-AUD-RUN-COUNTS)",
  section:
    "Endpoints › Audience datasets (run body: total_profile_count default 300); Limits › Charges (reservation sized by total_profile_count)",
  severity: "major",
  asserts: {
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
    // on a source the deployment accepts (refused for its data on every one, or for its balance or plan: not
    // exercised, naming the code); the balance is read right before the accepted start. The run holds 300 ×
    // price for a moment but can settle no more profiles than the source has authors and commenters: that is
    // what the kit commits (the whole reservation when the source's size is not reported)
    let before = new Decimal(NaN);
    let release = () => {};
    const { ex: create } = await startAudienceRun(ctx, ad, undefined, async (src) => {
      release();
      const most = Math.min(DEFAULT_PROFILES, peopleBound(src) ?? DEFAULT_PROFILES);
      release = ctx.charge(
        price.mul(most).toFixed(),
        `an audience run of the default 300 profiles (at most ${most} people in its source)`,
      );
      before = (await balanceOf(ctx)).balance;
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
    const read = await ctx.req({ method: "GET", path: runPath(ad, id) });
    const target = dataOf<AudiencesAudienceRun>(read)?.target_profile_count;
    ctx.expect(
      target === DEFAULT_PROFILES,
      {
        judges: "echo",
        title: `target_profile_count ${JSON.stringify(target)} for a run sent without total_profile_count, not ${DEFAULT_PROFILES}`,
        received: seen(read),
        expected: { data: { target_profile_count: DEFAULT_PROFILES } },
      },
      read,
    );
    const ended = terminalType(dataOf(read));
    await settleDefaultRun(ctx, { ad, run: id, ended, before, reservation, release });
  },
});

/**
 * Stop the default run from collecting its 300 profiles and keep the kit's
 * commitment to what it really cost: a run still in flight is cancelled by
 * deleting its audience dataset (D-AUD-DELETE-INFLIGHT: the run fails and
 * its reservation is released); the kit then waits, a few reads at most, for
 * the balance to leave the reservation, and releases its commitment down to
 * what stayed charged. A deployment that refuses the delete
 * has the run polled to its end first.
 */
async function settleDefaultRun(
  ctx: CheckContext,
  o: { ad: string; run: string; ended: boolean; before: Decimal; reservation: Decimal; release: () => void },
): Promise<void> {
  const path = `${AUD}/${encodeURIComponent(o.ad)}`;
  let charged = new Decimal(NaN);
  const read = async () => (charged = o.before.minus((await balanceOf(ctx)).balance));
  if (o.ended) await read();
  else {
    const del = await ctx.req({ method: "DELETE", path });
    if (!is2xx(del)) {
      await pollAudienceRun(ctx, o.ad, o.run);
      await read();
    } else {
      ctx.untrack(path);
      // while the run holds its reservation the debit is the whole reservation; below it, it has settled or released
      for (let i = 0; i < RELEASE_READS; i++) {
        if ((await read()).lt(o.reservation)) break;
        await sleep(Math.min(300 * 2 ** i, 3000));
      }
    }
  }
  // what the deployment kept stays committed; the rest of the reservation came back to the account
  if (!charged.isFinite() || charged.gte(o.reservation)) return;
  o.release();
  if (charged.lte(0)) return;
  try {
    ctx.charge(charged.toFixed(), "what the default audience run cost");
  } catch {
    // over the budget after the fact: the run is over, so it is said rather than refused
    ctx.warn(`the default audience run cost $${charged.toFixed()}, more than the budget left`);
  }
}
