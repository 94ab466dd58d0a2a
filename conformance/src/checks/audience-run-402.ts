import type { AudiencesInsufficientCreditsAudienceRunError } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { bodyOf, isObject } from "../typed.ts";
import { audienceSource, createAudienceDataset, runsPath } from "./support/audiences.ts";
import { balanceOf, errorCode, priceOf } from "./support/groups.ts";
import { idOf, listOf, seen } from "./support/util.ts";

const TOTAL = 2000; // the contract's maximum total_profile_count: the largest reservation an audience run can ask

/** An audience run the balance cannot fund: 402 insufficient_credits_audience_dataset_run with the 402 body; no run is created. */
export default defineCheck({
  id: "audience-run-402",
  phase: "groups",
  rule: "An audience run of 2000 profiles the balance cannot fund (2000 × prices.audience_profile above usage.balance) gets 402 insufficient_credits_audience_dataset_run with detail {required, available} as decimal strings (required = 2000 × the price), transient false; the audience dataset lists no run afterwards (skipped when the balance can fund it)",
  section: "Endpoints › Audience datasets (run-creation rule 4); Errors (402 body); Limits › Charges",
  severity: "critical",
  rules: {
    seed: "Insufficient balance: 402 `insufficient_credits_audience_dataset_run`.",
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
        `the account can fund ${TOTAL} profiles ($${required.toFixed()} of $${before.toFixed()}): no audience run is refused for its balance`,
      );
    const src = await audienceSource(ctx);
    const ad = await createAudienceDataset(ctx, "aud-402");
    const create = await ctx.req({
      method: "POST",
      path: runsPath(ad),
      body: { source_dataset_id: src.id, total_profile_count: TOTAL },
    });
    const runId = idOf(create);
    if (create.status === 202 && typeof runId === "string")
      // funded after all (a refund landed between the reads): not this rule's state
      ctx.skip(`the run was accepted (the balance rose to fund $${required.toFixed()} after it was read)`);
    const b = bodyOf<AudiencesInsufficientCreditsAudienceRunError>(create);
    const d = b?.detail;
    const decimal = (v: unknown) => typeof v === "string" && /^\d+(\.\d+)?$/.test(v);
    if (
      ctx.expect(
        create.status === 402 && errorCode(create) === "insufficient_credits_audience_dataset_run",
        {
          title:
            `an audience run the balance cannot fund answered ${create.status} ${errorCode(create) ?? ""}`.trimEnd(),
          received: seen(create),
          expected: { status: 402, error_code: "insufficient_credits_audience_dataset_run" },
        },
        create,
      )
    )
      ctx.expect(
        b?.transient === false &&
          isObject(d) &&
          decimal(d.required) &&
          decimal(d.available) &&
          required.equals(String(d.required)),
        {
          title:
            "the 402 body does not state required (2000 × price) and available as decimal strings, transient false",
          received: seen(create),
          expected: { transient: false, detail: { required: required.toFixed(6), available: "<balance>" } },
        },
        create,
      );
    // "Requests are never partially charged": no run exists to hold a reservation
    const runs = await ctx.req({ method: "GET", path: runsPath(ad) });
    const n = listOf(runs)?.length;
    ctx.expect(
      runs.status === 200 && n === 0,
      { title: "a refused audience run was created", received: seen(runs), expected: { status: 200, data: [] } },
      runs,
    );
  },
});
