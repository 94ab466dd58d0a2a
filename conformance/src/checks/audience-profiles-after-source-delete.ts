import type { AudiencesAudienceProfile } from "../../../generated/client/types.gen.ts";
import type { Exchange } from "../http.ts";
import { decision, defineCheck } from "../define-check.ts";
import { DATASETS, listItemsOf, seen } from "./support/util.ts";
import { errorCode } from "./support/groups.ts";
import { runsPath } from "./support/audiences.ts";
import { billedAudienceRun } from "./support/audience-billing.ts";

/** Profiles outlive their source: after the source dataset is soft-deleted they are still served, and no new run can target it. */
export default defineCheck({
  id: "audience-profiles-after-source-delete",
  phase: "groups",
  // it deletes the source dataset the other audience checks share, so it runs after them
  after: ["audience-*"],
  rule: "After the source dataset of a completed audience run is deleted, POST /v1/audience_profiles still returns the same profiles of that audience dataset, and a new run targeting the deleted source gets 404 dataset_not_found",
  section: "Endpoints › Audience datasets (run-creation rule 7)",
  severity: "major",
  rules: {
    seed: "Profiles stay readable after the source dataset is soft-deleted; new runs can no longer target it.",
    decisions: [
      decision("D-AUD-RUN-SOURCE-404", {
        title: /run on the deleted source answered/,
        status: (s) => s >= 400 && s < 500,
      }),
    ],
  },
  decisions: ["D-AUD-RUN-SOURCE-404"],
  requires: ["POST /v1/audience_profiles", "DELETE /v1/datasets/{dataset_id}"],
  async run(ctx) {
    const r = await billedAudienceRun(ctx);
    if (r.final?.status?.type !== "completed" || !((r.final.profile_count ?? 0) > 0))
      return ctx.notExercised(
        `the audience run ended ${r.final?.status?.type} with ${r.final?.profile_count} profiles`,
      );
    const body = { audience_dataset_ids: [r.ad], limit: 100, sort: "created_at", order: "asc" };
    const before = await ctx.req({ method: "POST", path: "/v1/audience_profiles", body });
    const ids = (x: Exchange) => listItemsOf<AudiencesAudienceProfile>(x).map((p) => p?.id);
    if (
      !ctx.expect(
        before.status === 200 && ids(before).length === r.final.profile_count,
        {
          title: `the audience dataset serves ${ids(before).length} profiles, its run reports ${r.final.profile_count}`,
          received: seen(before),
          expected: `${r.final.profile_count} profiles`,
        },
        before,
      )
    )
      return;
    const del = await ctx.req({ method: "DELETE", path: `${DATASETS}/${encodeURIComponent(r.sourceId)}` });
    if (del.status !== 204) ctx.skip(`deleting the source dataset answered ${del.status}`);
    ctx.untrack(`${DATASETS}/${encodeURIComponent(r.sourceId)}`);
    const after = await ctx.req({ method: "POST", path: "/v1/audience_profiles", body });
    ctx.expect(
      after.status === 200 && JSON.stringify(ids(after)) === JSON.stringify(ids(before)),
      {
        title: "profiles changed after the source dataset was deleted",
        received: ids(after),
        expected: ids(before),
      },
      after,
    );
    const rerun = await ctx.req({
      method: "POST",
      path: runsPath(r.ad),
      body: { source_dataset_id: r.sourceId, total_profile_count: 5 },
    });
    ctx.expect(
      rerun.status === 404 && errorCode(rerun) === "dataset_not_found",
      {
        title: `a run on the deleted source answered ${rerun.status} ${errorCode(rerun) ?? ""}`,
        received: seen(rerun),
        expected: { status: 404, error_code: "dataset_not_found" },
      },
      rerun,
    );
  },
});
