import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import { createDataset, MISSING_DATASET_ID, seen } from "./support/util.ts";
import { balanceOf, errorCode } from "./support/groups.ts";

/**
 * A detection on an unknown dataset is 404 dataset_not_found (the seed's
 * code); one on a dataset without a completed run is refused with 400
 * (D-PDR-EMPTY: the seed does not say, and its code is lenient); neither
 * charges anything (a detection counts the posts of the latest completed
 * run, and requests are never partially charged).
 */
export default defineCheck({
  id: "pattern-detection-codes",
  phase: "groups",
  rule: "POST /v1/pattern_detections on an unknown dataset gets 404 dataset_not_found; on a dataset without a completed run 400 nothing_to_analyze (D-PDR-EMPTY); neither changes the balance",
  section: "Endpoints › Pattern detections and patterns (404 dataset_not_found); D-PDR-EMPTY",
  severity: "major",
  asserts: {
    unknown: seed("pattern-detections.create.404", status(404), code("dataset_not_found")),
    empty: decided("D-PDR-EMPTY", status(400), code("nothing_to_analyze")),
    free: seed(
      ["errors.never-partially-charged", "charges.post-processing.pattern"],
      words("Requests are never partially charged."),
      words("pattern detection counts posts of the dataset's most recent completed run"),
    ),
  },
  requires: ["POST /v1/pattern_detections", "GET /v1/me"],
  async run(ctx) {
    const empty = await createDataset(ctx, "pd-empty");
    const { balance: before } = await balanceOf(ctx);
    const body = (dataset_id: string) => ({
      dataset_id,
      name: ctx.name("pd-codes"),
      research_question: "What recurs?",
    });
    const missing = await ctx.req({ method: "POST", path: "/v1/pattern_detections", body: body(MISSING_DATASET_ID) });
    ctx.expect(
      missing.status === 404 && errorCode(missing) === "dataset_not_found",
      {
        judges: "unknown",
        title: `an unknown dataset answered ${missing.status} ${errorCode(missing) ?? ""}`.trimEnd(),
        received: seen(missing),
        expected: { status: 404, error_code: "dataset_not_found" },
      },
      missing,
    );
    const nothing = await ctx.req({ method: "POST", path: "/v1/pattern_detections", body: body(empty.id) });
    // strict on the 400 (D-PDR-EMPTY, as D-400); its code is lenient through the registry
    if (nothing.status === 400) ctx.lenient("D-PDR-EMPTY", nothing);
    ctx.expect(
      nothing.status === 400,
      {
        judges: "empty",
        title: `a dataset without a completed run answered ${nothing.status}`,
        received: seen(nothing),
        expected: { status: 400, error_code: "nothing_to_analyze" },
      },
      nothing,
    );
    const { balance: after, ex: me } = await balanceOf(ctx);
    ctx.expect(
      after.equals(before),
      {
        judges: "free",
        title: `refused detections changed the balance by $${before.minus(after).toFixed()}`,
        received: after.toFixed(),
        expected: before.toFixed(),
      },
      me,
    );
  },
});
