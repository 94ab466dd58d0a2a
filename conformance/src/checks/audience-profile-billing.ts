import { decision, defineCheck } from "../define-check.ts";
import { expectAfterStart, newUsageRows } from "./support/groups.ts";
import { AUDIENCE_TARGET, billedAudienceRun } from "./support/audience-billing.ts";
import { dec } from "./support/billing.ts";

/**
 * 3 units per profile: total_profile_count × price reserved at create, settled to profile_count × price at the end.
 * The balance right after the create is judged against the run's state read around it (support/groups.ts
 * expectAfterStart): a run already ended by then is judged by its settlement or release, and the reservation
 * is reported not exercised.
 */
export default defineCheck({
  id: "audience-profile-billing",
  phase: "groups",
  rule: "Starting an audience run reserves total_profile_count × the audience_profile price at once; at completion the charge is profile_count × price exactly (the rest refunded) and usage history gains one audience_profile row of that amount",
  section:
    "Limits › Charges (audience_profile: 3 units, reservation sized by total_profile_count); States › Dataset run (reservation, refund)",
  severity: "critical",
  rules: {
    seed: "audience_profile | 3 | each profile collected (reservation sized by total_profile_count, default 300)",
    decisions: [decision("D-USAGE-SIGN", { title: /negative|sign/ })],
  },
  decisions: ["D-AUD-CHARGE", "D-REF-RUN-LIFECYCLE", "D-USAGE-SIGN"],
  requires: [
    "POST /v1/audience_datasets/{audience_dataset_id}/runs",
    "GET /v1/me",
    "GET /v1/prices",
    "GET /v1/me/usage_history",
  ],
  async run(ctx) {
    const r = await billedAudienceRun(ctx);
    const reserved = r.price.mul(AUDIENCE_TARGET);
    // judged against the run's state read around the balance: a fast run may have ended already
    expectAfterStart(ctx, r.afterCreate, r.before, {
      run: "the audience run",
      title: (seen, debit, states) =>
        seen === "reserved"
          ? "the reservation at create is not total_profile_count × price"
          : `the balance right after the create is ${debit} less, not what the run's observed state (${states}) leaves`,
      reserved: `${reserved.toFixed()} (${AUDIENCE_TARGET} × ${r.price.toFixed()})`,
      ex: r.create,
    });
    if (r.final?.status?.type !== "completed")
      return ctx.notExercised(`the audience run ended ${r.final?.status?.type}: no settlement to check`);
    const profiles = r.final.profile_count;
    const inRange =
      typeof profiles === "number" && Number.isInteger(profiles) && profiles >= 0 && profiles <= AUDIENCE_TARGET;
    ctx.expect(
      inRange,
      {
        title: `profile_count ${profiles} is outside 0..total_profile_count`,
        received: profiles,
        expected: `0..${AUDIENCE_TARGET}`,
      },
      r.finalEx,
    );
    if (!inRange) return;
    const charged = r.price.mul(profiles);
    ctx.expect(
      r.before.minus(r.after).equals(charged),
      {
        title: `a run of ${profiles} profiles charged $${r.before.minus(r.after).toFixed()}`,
        received: r.before.minus(r.after).toFixed(),
        expected: charged.toFixed(),
      },
      r.finalEx,
    );
    const rows = newUsageRows(r.rowsBefore, r.rowsAfter).filter((x) => x?.category === "audience_profile");
    if (profiles > 0)
      ctx.expect(rows.length === 1 && dec(rows[0].quantity)?.equals(charged) === true, {
        title: "usage history has no single audience_profile row of the settled charge",
        received: rows,
        expected: [{ category: "audience_profile", quantity: Number(charged.toFixed(6)) }],
      });
  },
});
