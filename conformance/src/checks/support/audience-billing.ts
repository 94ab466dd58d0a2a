// One audience run observed for billing: balance before, right after the
// create (reservation) and after the end (settlement), plus usage rows.
import type { AudiencesAudienceRun } from "../../../../generated/client/types.gen.ts";
import type { CheckContext } from "../../types.ts";
import type { Exchange } from "../../http.ts";
import { Decimal } from "decimal.js";
import { isObject, type Untrusted } from "../../typed.ts";
import { setupNotAccepted } from "./util.ts";
import { usageRows, type UsageRow } from "./billing.ts";
import { balanceOf, balanceWindow, countOf, moneyBy, priceOf, runIdOf, type RunMoney } from "./groups.ts";
import type { BilledCreate } from "./groups.ts";
import { createAudienceDataset, pollAudienceRun, runPath, startAudienceRun } from "./audiences.ts";

/** Profiles the billed run asks for: enough to see a reservation and a settlement, few enough to cost little. */
export const AUDIENCE_TARGET = 4;

/** An audience run's money: `reserved` (AUDIENCE_TARGET × price unless given) held while pending or working, profile_count × price once completed, nothing once failed. */
export function audienceRunMoney(
  price: Decimal,
  reserved: Decimal = price.mul(AUDIENCE_TARGET),
): (d: unknown) => RunMoney | undefined {
  return moneyBy({
    states: { pending: "pending", working: ["working"], completed: "completed", failed: "failed" },
    reserved,
    settled: (d) => {
      const n = countOf(isObject(d) ? d.profile_count : undefined);
      return n === undefined ? undefined : price.mul(n);
    },
  });
}

export interface BilledAudienceRun extends BilledCreate {
  ad: string;
  sourceId: string;
  final: Untrusted<AudiencesAudienceRun> | undefined;
  finalEx: Exchange;
  rowsBefore: UsageRow[];
  rowsAfter: UsageRow[];
}

export function billedAudienceRun(ctx: CheckContext): Promise<BilledAudienceRun> {
  return ctx.shared("audience-billed-run", async () => {
    const price = await priceOf(ctx, "audience_profile");
    const ad = await createAudienceDataset(ctx, "aud-billing");
    ctx.charge(price.mul(AUDIENCE_TARGET).toFixed(), `audience run of ${AUDIENCE_TARGET} profiles`);
    // usage rows and balance are read right before the start the deployment accepts (a larger source it
    // needed is charged before them)
    let rowsBefore: UsageRow[] = [];
    let before = new Decimal(NaN);
    const { ex: create, source: src } = await startAudienceRun(ctx, ad, AUDIENCE_TARGET, {
      before: async () => {
        rowsBefore = (await usageRows(ctx)).rows;
        before = (await balanceOf(ctx)).balance;
      },
    });
    const id = runIdOf(create);
    if (create.status < 200 || create.status >= 300 || !id)
      setupNotAccepted(ctx, `an audience run of ${AUDIENCE_TARGET} profiles`, create);
    // the reservation as the run reports its size (target_profile_count), the size sent when it reports none
    const money = (d: unknown) => {
      const target = countOf(isObject(d) ? d.target_profile_count : undefined) ?? AUDIENCE_TARGET;
      return audienceRunMoney(price, price.mul(target))(d);
    };
    const afterCreate = await balanceWindow(ctx, [{ path: runPath(ad, id), money }]);
    const obs = await pollAudienceRun(ctx, ad, id);
    const last = obs.at(-1)!;
    const { balance: after } = await balanceOf(ctx);
    const { rows: rowsAfter } = await usageRows(ctx);
    return {
      ad,
      sourceId: src.id,
      price,
      before,
      afterCreate,
      after,
      create,
      final: last.d,
      finalEx: last.ex,
      rowsBefore,
      rowsAfter,
    };
  });
}
