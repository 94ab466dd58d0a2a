import { lenientWarning } from "../lenient.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { bound, code, status, words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import { dataOf } from "../typed.ts";
import { createDataset, is2xx, listOf, MISSING_DATASET_ID, seen } from "./support/util.ts";
import { countOf, errorCode, postUrls, runIdOf, sourceDataset, type SourceDataset } from "./support/groups.ts";
import { createAudienceDataset, pollAudienceRun, runPath, runsPath } from "./support/audiences.ts";
import type { CheckContext } from "../types.ts";

/**
 * The posts a source dataset holds, as the deployment reports them: the
 * mentions_count of its run (the dataset read when the run says nothing).
 * Undefined when neither says.
 */
async function postsOf(ctx: CheckContext, src: SourceDataset): Promise<number | undefined> {
  const fromRun = countOf(src.run?.mentions_count);
  if (fromRun !== undefined) return fromRun;
  const ds = await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(src.id)}` });
  return countOf(dataOf<{ mentions_count: number }>(ds)?.mentions_count);
}

/**
 * Run creation refuses a bad source before any run exists. Each source here
 * is built so that the seed names its code: a YouTube-only source (the seed
 * gives it audience_youtube_only_source whatever its size: "other sources"
 * below the minimum get the other code) and a reddit source below the 5-post
 * minimum with a completed run. A source with no completed run and no posts
 * breaks two rules at once, so only its 400 and the code set are the seed's;
 * which of the two codes comes first is the contract's order (a warning). An
 * unknown source is the contract's 404 dataset_not_found.
 */
export default defineCheck({
  id: "audience-run-codes-in-order",
  phase: "groups",
  rule: "POST audience run: a YouTube-only source 400 audience_youtube_only_source; a reddit source under 5 posts 400 audience_insufficient_source_mentions; neither leaves a run; a source without a completed run 400 with a source code (which one: D-AUD-RUN-400's order, a warning); an unknown source 404 dataset_not_found (D-AUD-RUN-SOURCE-404); an unknown run id of a visible audience dataset 404",
  section: "Endpoints › Audience datasets (run-creation rules 1-3)",
  severity: "major",
  asserts: {
    youtubeOnly: seed("audience-datasets.runs.youtube-only", status(400), code("audience_youtube_only_source")),
    belowMinimum: seed(
      ["audience-datasets.runs.insufficient-mentions", "audience-datasets.runs.min-5-posts"],
      status(400),
      code("audience_insufficient_source_mentions"),
      bound(5),
    ),
    beforeRun: seed("audience-datasets.runs.refused-before-run", words("Both are returned before a run starts")),
    noCompletedRun: seed(
      "errors.400-codes",
      status(400),
      code("source_dataset_has_no_completed_run"),
      code("audience_insufficient_source_mentions"),
    ),
    unknownSource: decided("D-AUD-RUN-SOURCE-404", status(404), code("dataset_not_found")),
    unknownRun: seed("service.scope.foreign-404", status(404), words("one that does not exist, yields 404")),
    // tolerated as the contract's lenient rows say: which of several broken rules' codes comes first, what counts
    // as an eligible post (a warning or nothing), and the code of an unknown run (a warning)
    codeOrder: decided("D-AUD-RUN-400"),
    checkOrder: decided("D-AUD-RUN-ORDER"),
    eligible: decided("D-AUD-ELIGIBLE"),
    unknownRunCode: decided("D-AUD-RUN-404"),
  },
  requires: [
    "POST /v1/audience_datasets",
    "POST /v1/audience_datasets/{audience_dataset_id}/runs",
    "GET /v1/audience_datasets/{audience_dataset_id}/runs",
  ],
  async run(ctx) {
    const ad = await createAudienceDataset(ctx, "aud-codes");
    const youtube = await sourceDataset(ctx, "aud-youtube", postUrls(ctx, "youtube", 2, "yt"));
    const few = await sourceDataset(ctx, "aud-few", postUrls(ctx, "reddit", 2, "few"));
    const start = (source: string) =>
      ctx.req({ method: "POST", path: runsPath(ad), body: { source_dataset_id: source, total_profile_count: 1 } });
    const accepted: Exchange[] = [];
    const answer = async (source: string) => {
      const ex = await start(source);
      if (is2xx(ex)) accepted.push(ex);
      return ex;
    };

    // the two rules the seed says are refused before a run starts, each on a source only that rule applies to
    const ytPosts = await postsOf(ctx, youtube);
    if (!ytPosts)
      ctx.notExercised(
        `the YouTube source's run collected ${ytPosts ?? "an unknown number of"} posts: it is not a YouTube-only source`,
      );
    else {
      const ex = await answer(youtube.id);
      ctx.expect(
        ex.status === 400 && errorCode(ex) === "audience_youtube_only_source",
        {
          judges: "youtubeOnly",
          title: `a YouTube-only source (${ytPosts} posts) answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd(),
          received: seen(ex),
          expected: { status: 400, error_code: "audience_youtube_only_source" },
        },
        ex,
      );
    }
    const fewPosts = await postsOf(ctx, few);
    if (fewPosts === undefined || fewPosts >= 5)
      ctx.notExercised(
        `the small reddit source's run collected ${fewPosts ?? "an unknown number of"} posts: not below the minimum of 5`,
      );
    else {
      const ex = await answer(few.id);
      ctx.expect(
        ex.status === 400 && errorCode(ex) === "audience_insufficient_source_mentions",
        {
          judges: "belowMinimum",
          title: `a reddit source of ${fewPosts} posts answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd(),
          received: seen(ex),
          expected: { status: 400, error_code: "audience_insufficient_source_mentions" },
        },
        ex,
      );
    }
    const runs = await ctx.req({ method: "GET", path: runsPath(ad) });
    if (runs.status !== 200 || listOf(runs) === undefined)
      ctx.notExercised(`the audience dataset's runs answered ${runs.status}: whether a refusal left a run is unknown`);
    else
      ctx.expect(
        listOf(runs)!.length === 0,
        {
          judges: "beforeRun",
          title: `refused run requests left ${listOf(runs)!.length} run(s) behind`,
          received: seen(runs),
          expected: { status: 200, data: [] },
        },
        runs,
      );

    // a source with no completed run (and no posts): two rules apply, either code is the seed's
    const empty = await createDataset(ctx, "aud-empty");
    const none = await answer(empty.id);
    const noneCode = errorCode(none) ?? "";
    if (
      ctx.expect(
        none.status === 400 &&
          ["source_dataset_has_no_completed_run", "audience_insufficient_source_mentions"].includes(noneCode),
        {
          judges: "noCompletedRun",
          title: `a source without a completed run answered ${none.status} ${noneCode}`.trimEnd(),
          received: seen(none),
          expected: { status: 400, error_code: "source_dataset_has_no_completed_run" },
        },
        none,
      ) &&
      noneCode !== "source_dataset_has_no_completed_run"
    )
      ctx.warn(
        lenientWarning(
          "D-AUD-RUN-400",
          `a source without a completed run answered ${noneCode} (the decided order gives source_dataset_has_no_completed_run)`,
        ),
        none,
      );

    const unknown = await answer(MISSING_DATASET_ID);
    ctx.expect(
      unknown.status === 404 && errorCode(unknown) === "dataset_not_found",
      {
        judges: "unknownSource",
        title: `an unknown source dataset answered ${unknown.status} ${errorCode(unknown) ?? ""}`.trimEnd(),
        received: seen(unknown),
        expected: { status: 404, error_code: "dataset_not_found" },
      },
      unknown,
    );
    // a run a refusal should not have started: let it end, so nothing of the kit is left running
    for (const ex of accepted) {
      const id = runIdOf(ex);
      if (id) await pollAudienceRun(ctx, ad, id);
    }

    const missing = await ctx.req({ method: "GET", path: runPath(ad, "adr_slkmissing0000000") });
    if (missing.status === 404 && errorCode(missing) !== "not_found")
      ctx.warn(
        lenientWarning("D-AUD-RUN-404", `an unknown run of a visible audience dataset answered ${errorCode(missing)}`),
        missing,
      );
    ctx.expect(
      missing.status === 404,
      {
        judges: "unknownRun",
        title: `an unknown run id answered ${missing.status}`,
        received: seen(missing),
        expected: { status: 404 },
      },
      missing,
    );
  },
});
