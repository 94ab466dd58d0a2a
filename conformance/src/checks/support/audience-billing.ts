// One audience run observed for billing: balance before, right after the
// create (reservation) and after the end (settlement), plus usage rows.
import type { AudiencesAudienceRun } from "../../../../generated/client/types.gen.ts";
import type { CheckContext } from "../../types.ts";
import type { Exchange } from "../../http.ts";
import type { Untrusted } from "../../typed.ts";
import { seen } from "./util.ts";
import { usageRows, type UsageRow } from "./billing.ts";
import { balanceOf, priceOf, runIdOf } from "./groups.ts";
import type { BilledCreate } from "./groups.ts";
import { audienceSource, createAudienceDataset, pollAudienceRun, runsPath } from "./audiences.ts";

export const AUDIENCE_TARGET = 8;

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
    const src = await audienceSource(ctx);
    const ad = await createAudienceDataset(ctx, "aud-billing");
    ctx.charge(price.mul(AUDIENCE_TARGET).toFixed(), `audience run of ${AUDIENCE_TARGET} profiles`);
    const { rows: rowsBefore } = await usageRows(ctx);
    const { balance: before } = await balanceOf(ctx);
    const create = await ctx.req({
      method: "POST",
      path: runsPath(ad),
      body: { source_dataset_id: src.id, total_profile_count: AUDIENCE_TARGET },
    });
    const id = runIdOf(create);
    if (create.status !== 202 || !id) {
      ctx.fail(
        {
          title: `an audience run of ${AUDIENCE_TARGET} profiles answered ${create.status}`,
          received: seen(create),
          expected: { status: 202 },
        },
        create,
      );
      ctx.skip("the audience run could not be started");
    }
    const { balance: afterCreate } = await balanceOf(ctx);
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
