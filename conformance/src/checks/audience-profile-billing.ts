import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { countOf, expectAfterStart, newUsageRows } from "./support/groups.ts";
import { AUDIENCE_TARGET, billedAudienceRun } from "./support/audience-billing.ts";
import { dec } from "./support/billing.ts";

/**
 * 3 units per profile: total_profile_count × price reserved at create, settled to profile_count × price at the end.
 * The balance right after the create is judged against the run's state read around it (support/groups.ts
 * expectAfterStart): a run already ended by then is judged by its settlement or release, and the reservation
 * is reported not exercised. The size is the run's own target_profile_count where it reports one.
 */
export default defineCheck({
  id: "audience-profile-billing",
  phase: "groups",
  rule: "Starting an audience run reserves total_profile_count × the audience_profile price at once; at completion the charge is profile_count × price exactly (the rest refunded); profile_count stays within 0..target_profile_count and usage history gains one audience_profile row of that amount (decisions)",
  section:
    "Limits › Charges (audience_profile: 3 units, reservation sized by total_profile_count); States › Dataset run (reservation, refund)",
  severity: "critical",
  asserts: {
    reserved: seed(
      ["charges.reservation-before-work", "charges.audience-profile"],
      words("the upper bound is reserved before work starts"),
      words("reservation sized by total_profile_count"),
    ),
    settled: seed(
      ["charges.audience-profile", "charges.refund-to-actuals"],
      words("each profile collected"),
      words("on completion unused value is refunded down to actuals"),
    ),
    count: decided("D-AUD-RUN-COUNTS"),
    usage: decided("D-USAGE-SIGN"),
  },
  requires: [
    "POST /v1/audience_datasets/{audience_dataset_id}/runs",
    "GET /v1/me",
    "GET /v1/prices",
    "GET /v1/me/usage_history",
  ],
  async run(ctx) {
    const r = await billedAudienceRun(ctx);
    const target = countOf(r.final?.target_profile_count) ?? AUDIENCE_TARGET;
    const reserved = r.price.mul(target);
    // judged against the run's state read around the balance: a fast run may have ended already
    expectAfterStart(ctx, r.afterCreate, r.before, {
      run: "the audience run",
      judges: (seen) => (seen === "reserved" ? "reserved" : "settled"),
      title: (seen, debit, states) =>
        seen === "reserved"
          ? "the reservation at create is not total_profile_count × price"
          : `the balance right after the create is ${debit} less, not what the run's observed state (${states}) leaves`,
      reserved: `${reserved.toFixed()} (${target} × ${r.price.toFixed()})`,
      ex: r.create,
    });
    if (r.final?.status?.type !== "completed")
      return ctx.notExercised(`the audience run ended ${r.final?.status?.type}: no settlement to check`);
    const profiles = countOf(r.final.profile_count);
    const inRange = profiles !== undefined && profiles <= target;
    ctx.expect(
      inRange,
      {
        judges: "count",
        title: `profile_count ${JSON.stringify(r.final.profile_count)} is outside 0..target_profile_count`,
        received: r.final.profile_count,
        expected: `0..${target}`,
      },
      r.finalEx,
    );
    if (profiles === undefined) return ctx.notExercised("the completed run reports no integer profile_count");
    const charged = r.price.mul(profiles);
    const debit = r.before.minus(r.after);
    ctx.expect(
      debit.equals(charged),
      {
        judges: "settled",
        title: `a run of ${profiles} profiles charged $${debit.toFixed()}`,
        received: debit.toFixed(),
        expected: `${charged.toFixed()} (${profiles} × ${r.price.toFixed()})`,
      },
      r.finalEx,
    );
    const rows = newUsageRows(r.rowsBefore, r.rowsAfter).filter((x) => x?.category === "audience_profile");
    if (profiles > 0)
      ctx.expect(rows.length === 1 && dec(rows[0].quantity)?.equals(charged) === true, {
        judges: "usage",
        title: "usage history has no single audience_profile row of the settled charge",
        received: rows,
        expected: [{ category: "audience_profile", quantity: Number(charged.toFixed(6)) }],
      });
  },
});
