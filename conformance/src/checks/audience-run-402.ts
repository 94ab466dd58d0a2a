import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, field, status, words } from "../grounding/facts.ts";
import { audienceSource, createAudienceDataset, pollAudienceRun, runsPath } from "./support/audiences.ts";
import {
  balanceOf,
  errorCode,
  priceOf,
  refusedSetup,
  runIdOf,
  setupRefusal,
  type SourceDataset,
} from "./support/groups.ts";
import { expect402Body, PAYMENT_REQUIRED_ASSERTS } from "./support/billing.ts";
import { is2xx, listOf, seen } from "./support/util.ts";

const TOTAL = 2000; // the seed's maximum total_profile_count: the largest reservation an audience run can ask

/**
 * An audience run the balance cannot fund: 402
 * insufficient_credits_audience_dataset_run with the seed's 402 body; no run
 * is created. Exercised only when 2000 profiles at the deployment's own price
 * cost more than the balance it shows. That `required` is that reservation
 * and `available` the balance is D-402-AMOUNTS, judged on its own.
 */
export default defineCheck({
  id: "audience-run-402",
  phase: "groups",
  rule: "An audience run of 2000 profiles the balance cannot fund (2000 × prices.audience_profile above usage.balance) gets 402 insufficient_credits_audience_dataset_run with detail {message, required, available, top_up_url} (decimal strings, required > available), transient false; the audience dataset lists no run afterwards; required = 2000 × the price (D-402-AMOUNTS) (skipped when the balance can fund it)",
  section: "Endpoints › Audience datasets (run-creation rule 4); Errors (402 body); Limits › Charges",
  severity: "critical",
  asserts: {
    refused: seed(
      ["audience-datasets.runs.402", "errors.402"],
      status(402),
      code("insufficient_credits_audience_dataset_run"),
      words("balance cannot fund the reservation"),
    ),
    ...PAYMENT_REQUIRED_ASSERTS,
    nothingCreated: seed(
      ["audience-run.states", "dataset-run.create-pending-202"],
      words("asynchronous in the same way as a dataset run"),
      words("request accepted"),
    ),
    amounts: decided("D-402-AMOUNTS", field("required"), field("available")),
    // the 402 code and nothing left behind, as the contract's audience charge row holds them
    charge: decided("D-AUD-CHARGE"),
  },
  requires: [
    "POST /v1/audience_datasets",
    "POST /v1/audience_datasets/{audience_dataset_id}/runs",
    "GET /v1/audience_datasets/{audience_dataset_id}/runs",
    "GET /v1/me",
    "GET /v1/prices",
  ],
  async run(ctx) {
    const price = await priceOf(ctx, "audience_profile");
    const required = price.mul(TOTAL);
    const { balance: before } = await balanceOf(ctx);
    if (required.lte(before))
      ctx.skip(
        `not exercised: the account can fund ${TOTAL} profiles ($${required.toFixed()} of $${before.toFixed()}): no audience run is refused for its balance`,
      );
    // the source an earlier audience run was accepted on, when one was: this rule is about the balance, not the source
    const preferred = await ctx.shared("audience-source-preferred", async () => ({}) as { source?: SourceDataset });
    const src = preferred.source ?? (await audienceSource(ctx));
    const ad = await createAudienceDataset(ctx, "aud-402");
    ctx.mutates("an audience run the balance cannot fund");
    const create = await ctx.req({
      method: "POST",
      path: runsPath(ad),
      body: { source_dataset_id: src.id, total_profile_count: TOTAL },
    });
    const runId = runIdOf(create);
    if (is2xx(create) && runId) {
      // funded after all (a refund landed between the reads): not this rule's state; let the run end
      await pollAudienceRun(ctx, ad, runId);
      return ctx.skip(`not exercised: the run was accepted (the balance rose to fund $${required.toFixed()})`);
    }
    // refused for the source (the seed's own codes for its data, which come before the balance): not this rule's state
    const refusal = setupRefusal(create);
    if (refusal && refusal.reason !== "balance") refusedSetup(ctx, refusal, "an audience run the balance cannot fund");
    const refused = ctx.expect(
      create.status === 402 && errorCode(create) === "insufficient_credits_audience_dataset_run",
      {
        judges: "refused",
        title: `an audience run the balance cannot fund answered ${create.status} ${errorCode(create) ?? ""}`.trimEnd(),
        received: seen(create),
        expected: { status: 402, error_code: "insufficient_credits_audience_dataset_run" },
      },
      create,
    );
    if (refused) {
      const d = expect402Body(ctx, create);
      if (d.required)
        ctx.expect(
          d.required.equals(required),
          {
            judges: "amounts",
            title: `the 402 says $${d.required.toFixed()} is required, not ${TOTAL} × $${price.toFixed()}`,
            received: { required: d.detail?.required },
            expected: { required: required.toFixed() },
          },
          create,
        );
    }
    // a refused run request leaves no run behind
    const runs = await ctx.req({ method: "GET", path: runsPath(ad) });
    const n = listOf(runs)?.length;
    if (runs.status === 200 && n !== undefined)
      ctx.expect(
        n === 0,
        {
          judges: "nothingCreated",
          title: `a refused audience run left ${n} run(s) on the audience dataset`,
          received: seen(runs),
          expected: { status: 200, data: [] },
        },
        runs,
      );
    else ctx.notExercised(`the audience dataset's runs answered ${runs.status}: whether a run was left is unknown`);
  },
});
