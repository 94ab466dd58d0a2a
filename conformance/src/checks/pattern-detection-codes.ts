import { decision, defineCheck } from "../define-check.ts";
import { createDataset, MISSING_DATASET_ID, seen } from "./support/util.ts";
import { balanceOf, errorCode } from "./support/groups.ts";

/** A detection needs a dataset with a completed run: unknown dataset 404, nothing to analyse 400; refused requests charge nothing. */
export default defineCheck({
  id: "pattern-detection-codes",
  phase: "groups",
  rule: "POST /v1/pattern_detections on an unknown dataset gets 404 dataset_not_found; on a dataset without a completed run 400 nothing_to_analyze; neither changes the balance",
  section: "Endpoints › Pattern detections and patterns (404 dataset_not_found)",
  severity: "major",
  rules: {
    seed: "404 `dataset_not_found`",
    decisions: [
      decision("D-PDR-EMPTY", { title: /without a completed run|empty/ }),
      decision("D-PDR-CHECK-ORDER", { title: /order/ }),
    ],
  },
  decisions: ["D-PDR-EMPTY", "D-PDR-CHECK-ORDER"],
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
        title: `an unknown dataset answered ${missing.status} ${errorCode(missing) ?? ""}`,
        received: seen(missing),
        expected: { status: 404, error_code: "dataset_not_found" },
      },
      missing,
    );
    const nothing = await ctx.req({ method: "POST", path: "/v1/pattern_detections", body: body(empty.id) });
    // strict on the 400 (D-PDR-EMPTY, as D-400); its code is lenient through the registry (response-schema-conformance asks it too)
    if (nothing.status === 400) ctx.lenient("D-PDR-EMPTY", nothing);
    ctx.expect(
      nothing.status === 400,
      {
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
        title: "refused detections changed the balance",
        received: after.toFixed(),
        expected: before.toFixed(),
      },
      me,
    );
  },
});
