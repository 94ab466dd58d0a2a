import type { AudiencesAudienceProfile } from "../../../generated/client/types.gen.ts";
import type { Exchange } from "../http.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import { DATASETS, is2xx, listItemsOf, listOf, seen } from "./support/util.ts";
import { errorCode, runIdOf } from "./support/groups.ts";
import { pollAudienceRun, runsPath } from "./support/audiences.ts";
import { billedAudienceRun } from "./support/audience-billing.ts";

/**
 * Profiles outlive their source: after the source dataset is soft-deleted the
 * profile search over the audience dataset still returns the profiles it
 * returned before, and a new run can no longer target the source. How that
 * run is refused (404 dataset_not_found) is the contract's decision.
 */
export default defineCheck({
  id: "audience-profiles-after-source-delete",
  phase: "groups",
  // it deletes the source dataset the other audience checks share, so it runs after them
  after: ["audience-*"],
  rule: "After the source dataset of a completed audience run is deleted, POST /v1/audience_profiles still returns the profiles it returned for that audience dataset before, and a new run targeting the deleted source is refused (404 dataset_not_found: D-AUD-RUN-SOURCE-404)",
  section: "Endpoints › Audience datasets (run-creation rule 7)",
  severity: "major",
  asserts: {
    readable: seed(
      "audience-datasets.runs.source-deleted",
      words("Profiles stay readable after the source dataset is soft-deleted"),
    ),
    noNewRuns: seed("audience-datasets.runs.source-deleted", words("new runs can no longer target it")),
    refusal: decided("D-AUD-RUN-SOURCE-404", status(404), code("dataset_not_found")),
  },
  requires: ["POST /v1/audience_profiles", "DELETE /v1/datasets/{dataset_id}"],
  async run(ctx) {
    const r = await billedAudienceRun(ctx);
    if (r.final?.status?.type !== "completed")
      return ctx.notExercised(`the audience run ended ${r.final?.status?.type}: it collected no profiles to keep`);
    const body = { audience_dataset_ids: [r.ad], limit: 100, sort: "created_at", order: "asc" };
    const ids = (x: Exchange) =>
      listItemsOf<AudiencesAudienceProfile>(x)
        .map((p) => p?.id)
        .filter((id): id is string => typeof id === "string");
    const before = await ctx.req({ method: "POST", path: "/v1/audience_profiles", body });
    if (before.status !== 200 || ids(before).length === 0)
      return ctx.notExercised(
        `the profile search over the audience dataset answered ${before.status} with ${ids(before).length} profiles before the delete`,
      );
    const del = await ctx.req({ method: "DELETE", path: `${DATASETS}/${encodeURIComponent(r.sourceId)}` });
    if (!is2xx(del)) return ctx.skip(`not exercised: deleting the source dataset answered ${del.status}`);
    ctx.untrack(`${DATASETS}/${encodeURIComponent(r.sourceId)}`);
    const after = await ctx.req({ method: "POST", path: "/v1/audience_profiles", body });
    const kept = new Set(ids(after));
    const lost = ids(before).filter((id) => !kept.has(id));
    ctx.expect(
      after.status === 200 && listOf(after) !== undefined && lost.length === 0,
      {
        judges: "readable",
        title: `after the source dataset was deleted the profile search answered ${after.status} without ${lost.length} of its ${ids(before).length} profiles`,
        received: { status: after.status, ids: ids(after), lost },
        expected: ids(before),
      },
      after,
    );
    const rerun = await ctx.req({
      method: "POST",
      path: runsPath(r.ad),
      body: { source_dataset_id: r.sourceId, total_profile_count: 1 },
    });
    const refused = ctx.expect(
      rerun.status >= 400 && rerun.status < 500,
      {
        judges: "noNewRuns",
        title: `a run on the deleted source answered ${rerun.status}`,
        received: seen(rerun),
        expected: { status: "4xx" },
      },
      rerun,
    );
    if (refused)
      ctx.expect(
        rerun.status === 404 && errorCode(rerun) === "dataset_not_found",
        {
          judges: "refusal",
          title: `a run on the deleted source was refused ${rerun.status} ${errorCode(rerun) ?? ""}`.trimEnd(),
          received: seen(rerun),
          expected: { status: 404, error_code: "dataset_not_found" },
        },
        rerun,
      );
    // a run that should not have started: let it end, so nothing of the kit is left running
    const id = is2xx(rerun) ? runIdOf(rerun) : undefined;
    if (id) await pollAudienceRun(ctx, r.ad, id);
  },
});
