import type { AudiencesAudienceRunInFlightError } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { bodyOf } from "../typed.ts";
import { seen } from "./support/util.ts";
import { errorCode, priceOf, runIdOf, terminalType } from "./support/groups.ts";
import { createAudienceDataset, pollAudienceRun, runsPath, startAudienceRun } from "./support/audiences.ts";

/** One run in flight per audience dataset: a second start while the first is pending/working is 409; after it ends a new run is accepted. */
export default defineCheck({
  id: "audience-run-409-in-flight",
  phase: "groups",
  rule: "While an audience run is pending or working, another run on the same audience dataset gets 409 audience_dataset_run_already_in_flight (transient false); once it is terminal a new run is accepted",
  section:
    "States › Dataset run (audience runs: 409 while pending or working); Limits › Concurrency; Errors (409 body)",
  severity: "major",
  rules: {
    seed: "Another run pending or working on the same audience dataset: 409 `audience_dataset_run_already_in_flight`.",
  },
  decisions: ["D-409"],
  requires: [
    "POST /v1/audience_datasets/{audience_dataset_id}/runs",
    "GET /v1/audience_datasets/{audience_dataset_id}/runs/{run_id}",
  ],
  async run(ctx) {
    const price = await priceOf(ctx, "audience_profile");
    const ad = await createAudienceDataset(ctx, "aud-409");
    ctx.charge(price.mul(10).toFixed(), "two audience runs of 5 profiles");
    // the first run is the setup: on a source the deployment accepts (or not exercised, naming its refusal)
    const { ex: first, source: src } = await startAudienceRun(ctx, ad, 5);
    const firstId = runIdOf(first);
    if (
      !ctx.expect(
        first.status === 202 && !!firstId,
        {
          title: `the first run answered ${first.status}`,
          received: seen(first),
          expected: { status: 202 },
        },
        first,
      )
    )
      return;
    const second = await ctx.req({
      method: "POST",
      path: runsPath(ad),
      body: { source_dataset_id: src.id, total_profile_count: 5 },
    });
    const obs = await pollAudienceRun(ctx, ad, firstId!);
    const wasInFlight = obs.length > 1 || !terminalType(obs[0]?.d);
    if (second.status === 202 && !wasInFlight) {
      ctx.notExercised("the first run had already ended when the second request arrived");
    } else {
      ctx.expect(
        second.status === 409 &&
          errorCode(second) === "audience_dataset_run_already_in_flight" &&
          bodyOf<AudiencesAudienceRunInFlightError>(second)?.transient === false,
        {
          title: `a second run while one was in flight answered ${second.status} ${errorCode(second) ?? ""}`,
          received: seen(second),
          expected: {
            status: 409,
            body: { status: "client_error", error_code: "audience_dataset_run_already_in_flight", transient: false },
          },
        },
        second,
      );
    }
    const secondId = second.status === 202 ? runIdOf(second) : undefined;
    if (secondId) await pollAudienceRun(ctx, ad, secondId);
    const third = await ctx.req({
      method: "POST",
      path: runsPath(ad),
      body: { source_dataset_id: src.id, total_profile_count: 5 },
    });
    ctx.expect(
      third.status === 202,
      {
        title: `a run after the first ended answered ${third.status}`,
        received: seen(third),
        expected: { status: 202 },
      },
      third,
    );
    const thirdId = runIdOf(third);
    if (thirdId) await pollAudienceRun(ctx, ad, thirdId);
  },
});
