import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { status, words } from "../grounding/facts.ts";
import { priceOf, postUrls, refusedSetup, runIdOf, setupRefusal, sourceDataset } from "./support/groups.ts";
import { createAudienceDataset, pollAudienceRun, runsPath, startAudienceRun } from "./support/audiences.ts";
import { is2xx, seen, setupNotAccepted } from "./support/util.ts";

/** Profiles per run: the rule needs two accepted runs, not their size. */
const PROFILES = 1;

/**
 * An audience dataset is a name-only container: once one run on it has
 * ended, a run on it with another eligible source dataset is accepted.
 */
export default defineCheck({
  id: "audience-dataset-runs-any-source",
  phase: "groups",
  rule: "After an audience run on an audience dataset has ended, POST …/runs on the same audience dataset with another source dataset (six reddit posts of its own) is accepted (202); a refusal for that source's data (400 audience_insufficient_source_mentions, audience_youtube_only_source, source_dataset_has_no_completed_run) or the balance (402) is not exercised",
  section: "Resources › Audience dataset (runs in one container may target different source datasets)",
  severity: "major",
  asserts: {
    anySource: seed(
      "audience-dataset.runs-any-source",
      words("runs in one container may target different source datasets"),
    ),
    accepted: seed("audience-datasets.runs.create.202", status(202)),
  },
  requires: [
    "POST /v1/audience_datasets",
    "POST /v1/audience_datasets/{audience_dataset_id}/runs",
    "GET /v1/audience_datasets/{audience_dataset_id}/runs/{run_id}",
  ],
  async run(ctx) {
    const price = await priceOf(ctx, "audience_profile");
    const ad = await createAudienceDataset(ctx, "aud-any-source");
    ctx.charge(price.mul(2 * PROFILES).toFixed(), `two audience runs of ${PROFILES} profile`);
    // the first run is the setup: on a source the deployment accepts (or not exercised, naming its refusal)
    const { ex: first, source: src } = await startAudienceRun(ctx, ad, PROFILES);
    const firstId = runIdOf(first);
    if (!is2xx(first) || !firstId) return setupNotAccepted(ctx, "the first audience run", first);
    await pollAudienceRun(ctx, ad, firstId);

    const other = await sourceDataset(ctx, "aud-source-2", postUrls(ctx, "reddit", 6, "aud2"));
    const second = await ctx.req({
      method: "POST",
      path: runsPath(ad),
      body: { source_dataset_id: other.id, total_profile_count: PROFILES },
    });
    const refusal = setupRefusal(second);
    if (refusal && (refusal.reason === "data" || refusal.reason === "balance"))
      refusedSetup(ctx, refusal, "an audience run on the second source dataset");
    const secondId = runIdOf(second);
    if (
      ctx.expect(
        is2xx(second) && !!secondId,
        {
          judges: "anySource",
          title: `a run on the same audience dataset with another source dataset answered ${second.status}`,
          received: { first_source: src.id, second_source: other.id, answer: seen(second) },
          expected: { status: 202 },
        },
        second,
      )
    )
      ctx.expect(
        second.status === 202,
        {
          judges: "accepted",
          title: `a run on another source dataset was accepted with ${second.status}`,
          received: second.status,
          expected: 202,
        },
        second,
      );
    // let it end: nothing of the kit is left running on the account
    if (second.status === 202 && secondId) await pollAudienceRun(ctx, ad, secondId);
  },
});
