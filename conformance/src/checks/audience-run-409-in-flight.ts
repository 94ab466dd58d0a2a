import type { AudiencesAudienceRun, AudiencesAudienceRunInFlightError } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import { bodyOf, dataOf } from "../typed.ts";
import { is2xx, seen } from "./support/util.ts";
import { errorCode, priceOf, refusedReason, runIdOf, sendTwins, setupRefusal, splitTwins } from "./support/groups.ts";
import { createAudienceDataset, pollAudienceRun, runPath, runsPath, startAudienceRun } from "./support/audiences.ts";

/** Profiles per run: the rule needs a run in flight, not its size. */
const PROFILES = 1;
const inFlight = (t: unknown) => t === "pending" || t === "working";

/**
 * One run in flight per audience dataset. Two identical run requests are sent
 * together (sendTwins): when one is accepted, its twin arrived while that run
 * was as young as it can be, and a refusal of the twin can only be about it:
 * it must be 409 audience_dataset_run_already_in_flight with transient false.
 * When both are accepted, it is a finding only if both runs still read
 * pending or working afterwards (then each was in flight when the other
 * arrived); otherwise the rule is not exercised. Once every run has ended, a
 * new run is accepted (the 409 body's "then retry").
 */
export default defineCheck({
  id: "audience-run-409-in-flight",
  phase: "groups",
  rule: "Of two identical audience runs started together on one audience dataset, one is accepted and the other refused with 409 audience_dataset_run_already_in_flight (transient false) while the first is pending or working; once the runs have ended a new run is accepted",
  section:
    "States › Dataset run (audience runs: 409 while pending or working); Limits › Concurrency; Errors (409 body)",
  severity: "major",
  asserts: {
    refused: seed(
      "audience-run.409-while-in-flight",
      status(409),
      code("audience_dataset_run_already_in_flight"),
      words("while one is `pending` or `working`"),
    ),
    transient: seed("audience-datasets.runs.409-transient-false", status(409), words("transient false")),
    retry: seed("errors.409-retry", words("Poll the blocking run until it terminates, then retry")),
  },
  requires: [
    "POST /v1/audience_datasets/{audience_dataset_id}/runs",
    "GET /v1/audience_datasets/{audience_dataset_id}/runs/{run_id}",
  ],
  async run(ctx) {
    const price = await priceOf(ctx, "audience_profile");
    const ad = await createAudienceDataset(ctx, "aud-409");
    // the twins (one refused if conformant) and the retried run
    const release = ctx.charge(price.mul(PROFILES).toFixed(), "the twin audience run (refused if conformant)");
    ctx.charge(price.mul(2 * PROFILES).toFixed(), `two audience runs of ${PROFILES} profile`);
    let pair: [Exchange, Exchange] | undefined;
    // on a source the deployment accepts (or not exercised, naming its refusal)
    const { source: src } = await startAudienceRun(ctx, ad, PROFILES, {
      send: async (body) => {
        pair = await sendTwins(() => ctx.req({ method: "POST", path: runsPath(ad), body }));
        return pair.find(is2xx) ?? pair[0];
      },
    });
    const [a, b] = pair!;
    const ids = [a, b].map((ex) => (is2xx(ex) ? runIdOf(ex) : undefined)).filter((id): id is string => !!id);
    if (ids.length < 2) release();
    const split = splitTwins([a, b]);
    if (split) {
      const { refused: ex } = split;
      const ok = ctx.expect(
        ex.status === 409 && errorCode(ex) === "audience_dataset_run_already_in_flight",
        {
          judges: "refused",
          title:
            `of two identical runs started together, one was accepted and the other answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd(),
          received: seen(ex),
          expected: { status: 409, error_code: "audience_dataset_run_already_in_flight" },
        },
        ex,
      );
      if (ok)
        ctx.expect(
          bodyOf<AudiencesAudienceRunInFlightError>(ex)?.transient === false,
          {
            judges: "transient",
            title: "the 409 body does not say transient false",
            received: seen(ex),
            expected: { status: 409, body: { transient: false } },
          },
          ex,
        );
    } else if (ids.length === 2) {
      // both accepted: a finding only when both still read in flight (each was when the other arrived)
      const states = [];
      for (const id of ids)
        states.push(
          dataOf<AudiencesAudienceRun>(await ctx.req({ method: "GET", path: runPath(ad, id) }))?.status?.type,
        );
      if (states.every(inFlight))
        ctx.fail(
          {
            judges: "refused",
            title: `two runs on one audience dataset were both accepted and both read ${states.join(" and ")}`,
            received: { answers: [a.status, b.status], states },
            expected: { status: 409, error_code: "audience_dataset_run_already_in_flight" },
          },
          b,
        );
      else
        ctx.notExercised(
          `both twin runs were accepted and read ${states.map((s) => JSON.stringify(s)).join(" and ")}: one may have ended before the other arrived`,
        );
    } else ctx.notExercised(`the twin runs answered ${a.status} and ${b.status}: no run was accepted beside a refusal`);

    // the retry: once every run on the audience dataset has ended, a new one is accepted
    for (const id of ids) await pollAudienceRun(ctx, ad, id);
    if (!ids.length) return;
    const third = await ctx.req({
      method: "POST",
      path: runsPath(ad),
      body: { source_dataset_id: src.id, total_profile_count: PROFILES },
    });
    const thirdId = runIdOf(third);
    // refused for the account's balance or plan: not this rule's answer
    const refusal = setupRefusal(third);
    if (refusal?.reason === "balance" || refusal?.reason === "plan")
      return ctx.notExercised(refusedReason(refusal, "the retried audience run"));
    // accepted with any 2xx: the status itself is audience-dataset-runs-any-source's to judge
    ctx.expect(
      is2xx(third) && !!thirdId,
      {
        judges: "retry",
        title: `a run after the blocking run ended answered ${third.status} ${errorCode(third) ?? ""}`.trimEnd(),
        received: seen(third),
        expected: { status: 202 },
      },
      third,
    );
    // let it end: nothing of the kit is left running on the account
    if (thirdId) await pollAudienceRun(ctx, ad, thirdId);
  },
});
