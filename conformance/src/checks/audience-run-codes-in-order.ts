import { lenientWarning } from "../lenient.ts";
import { decision, defineCheck } from "../define-check.ts";
import { createDataset, listOf, MISSING_DATASET_ID, seen } from "./support/util.ts";
import { errorCode, postUrls, sourceDataset } from "./support/groups.ts";
import { createAudienceDataset, runPath, runsPath } from "./support/audiences.ts";

/**
 * Run creation refuses bad sources before any run exists, in the decided
 * order: unknown source 404, no completed run, YouTube-only, too few eligible
 * posts (each source here also fails every later rule, so the order shows).
 * Where several rules apply the order is the contract's (a warning); the
 * 2-post reddit source breaks only the minimum, so its code is held strictly.
 */
export default defineCheck({
  id: "audience-run-codes-in-order",
  phase: "groups",
  rule: "POST audience run: unknown source 404 dataset_not_found; a source without a completed run 400 source_dataset_has_no_completed_run; a YouTube-only source (also under 5 posts) 400 audience_youtube_only_source; under 5 eligible posts 400 audience_insufficient_source_mentions; each refused before a run exists; an unknown run id of a visible audience dataset is 404",
  section: "Endpoints › Audience datasets (run-creation rules 1-3)",
  severity: "major",
  rules: {
    seed: "A YouTube-only source: 400 `audience_youtube_only_source`. Other sources below the minimum: 400 `audience_insufficient_source_mentions`. … Source dataset without a completed run: 400 `source_dataset_has_no_completed_run`.",
    decisions: [
      decision("D-AUD-RUN-SOURCE-404", { title: /unknown source|deleted source/ }),
      decision("D-AUD-RUN-404", { title: /unknown audience dataset|unknown run/ }),
      decision("D-AUD-RUN-ORDER", { title: /order/ }),
    ],
  },
  decisions: ["D-AUD-RUN-ORDER", "D-AUD-ELIGIBLE", "D-AUD-RUN-400", "D-AUD-RUN-SOURCE-404", "D-AUD-RUN-404"],
  requires: [
    "POST /v1/audience_datasets",
    "POST /v1/audience_datasets/{audience_dataset_id}/runs",
    "GET /v1/audience_datasets/{audience_dataset_id}/runs",
  ],
  async run(ctx) {
    const ad = await createAudienceDataset(ctx, "aud-codes");
    const empty = await createDataset(ctx, "aud-empty");
    const youtube = await sourceDataset(ctx, "aud-youtube", postUrls(ctx, "youtube", 2, "yt"));
    const few = await sourceDataset(ctx, "aud-few", postUrls(ctx, "reddit", 2, "few"));
    // `only`: the one rule that applies to the source, so its code is the seed's whatever the order of the checks
    const cases: Array<{ label: string; source: string; status: number; code: string; only?: boolean }> = [
      { label: "an unknown source dataset", source: MISSING_DATASET_ID, status: 404, code: "dataset_not_found" },
      {
        label: "a source without a completed run (and no posts)",
        source: empty.id,
        status: 400,
        code: "source_dataset_has_no_completed_run",
      },
      {
        label: "a YouTube-only source with 2 posts",
        source: youtube.id,
        status: 400,
        code: "audience_youtube_only_source",
      },
      {
        label: "a source with 2 eligible posts",
        source: few.id,
        status: 400,
        code: "audience_insufficient_source_mentions",
        only: true,
      },
    ];
    for (const c of cases) {
      const ex = await ctx.req({
        method: "POST",
        path: runsPath(ad),
        body: { source_dataset_id: c.source, total_profile_count: 5 },
      });
      const ok = ex.status === c.status && errorCode(ex) === c.code;
      if (
        !ok &&
        !c.only &&
        ex.status === 400 &&
        c.status === 400 &&
        [
          "source_dataset_has_no_completed_run",
          "audience_youtube_only_source",
          "audience_insufficient_source_mentions",
        ].includes(errorCode(ex) ?? "")
      ) {
        ctx.warn(
          lenientWarning("D-AUD-RUN-400", `${c.label} answered ${errorCode(ex)} (the decided order gives ${c.code})`),
          ex,
        );
        ctx.pass(ex);
      } else
        ctx.expect(
          ok,
          {
            title: `${c.label} answered ${ex.status} ${errorCode(ex) ?? ""}`,
            received: seen(ex),
            expected: { status: c.status, error_code: c.code },
          },
          ex,
        );
    }
    const runs = await ctx.req({ method: "GET", path: runsPath(ad) });
    ctx.expect(
      runs.status === 200 && listOf(runs)?.length === 0,
      {
        title: "refused run requests left runs behind",
        received: seen(runs),
        expected: { status: 200, data: [] },
      },
      runs,
    );
    const unknown = await ctx.req({ method: "GET", path: runPath(ad, "adr_slkmissing0000000") });
    if (unknown.status === 404 && errorCode(unknown) !== "not_found")
      ctx.warn(
        lenientWarning("D-AUD-RUN-404", `an unknown run of a visible audience dataset answered ${errorCode(unknown)}`),
        unknown,
      );
    ctx.expect(
      unknown.status === 404,
      {
        title: `an unknown run id answered ${unknown.status}`,
        received: seen(unknown),
        expected: { status: 404, error_code: "not_found" },
      },
      unknown,
    );
  },
});
