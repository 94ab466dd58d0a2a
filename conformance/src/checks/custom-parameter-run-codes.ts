import { lenientWarning } from "../lenient.ts";
import { decision, defineCheck } from "../define-check.ts";
import { createDataset, listOf, MISSING_DATASET_ID, seen } from "./support/util.ts";
import { balanceOf, errorCode } from "./support/groups.ts";
import { cpRuns, createParameter } from "./support/custom-parameters.ts";

/** Refused custom parameter runs: unknown parameter, unknown scope dataset, empty dataset; none creates a run or charges. */
export default defineCheck({
  id: "custom-parameter-run-codes",
  phase: "groups",
  rule: "A run of an unknown parameter is 404 custom_parameter_not_found; a run scoped to an unknown dataset is 404 dataset_not_found; a run on a dataset without mentions is 400 nothing_to_analyze; none creates a run or changes the balance",
  section: "Endpoints › Custom parameters (runs errors)",
  severity: "major",
  rules: {
    seed: "`insufficient_credits_content_analysis`, `custom_parameter_not_found`, `custom_parameter_run_in_flight`, `nothing_to_analyze`",
    decisions: [
      decision("D-400", {
        title: /nothing_to_analyze|without mentions|empty dataset/,
        status: (s) => s >= 400 && s < 500 && s !== 400,
      }),
      decision("D-CPR-SCOPE-404", { title: /scope|unknown dataset/ }),
      decision("D-CPR-CHECK-ORDER", { title: /order/ }),
    ],
  },
  decisions: ["D-CPR-SCOPE-404", "D-CPR-CHECK-ORDER"],
  requires: [
    "POST /v1/custom_parameters/{parameter_id}/runs",
    "GET /v1/custom_parameters/{parameter_id}/runs",
    "GET /v1/me",
  ],
  async run(ctx) {
    const cp = await createParameter(ctx, "cp-codes");
    const empty = await createDataset(ctx, "cp-empty");
    const { balance: before } = await balanceOf(ctx);
    const cases: Array<{ label: string; path: string; scope: string; status: number; code: string }> = [
      {
        label: "an unknown parameter",
        path: cpRuns("cp_slkmissing00000000"),
        scope: empty.id,
        status: 404,
        code: "custom_parameter_not_found",
      },
      {
        label: "an unknown scope dataset",
        path: cpRuns(cp.id),
        scope: MISSING_DATASET_ID,
        status: 404,
        code: "dataset_not_found",
      },
      {
        label: "a dataset without mentions",
        path: cpRuns(cp.id),
        scope: empty.id,
        status: 400,
        code: "nothing_to_analyze",
      },
    ];
    for (const c of cases) {
      const ex = await ctx.req({ method: "POST", path: c.path, body: { scope: { kind: "dataset", id: c.scope } } });
      if (c.code === "dataset_not_found" && ex.status === 404 && errorCode(ex) === "custom_parameter_not_found") {
        ctx.warn(lenientWarning("D-CPR-SCOPE-404"), ex);
        ctx.pass(ex);
        continue;
      }
      ctx.expect(
        ex.status === c.status && errorCode(ex) === c.code,
        {
          title: `a run on ${c.label} answered ${ex.status} ${errorCode(ex) ?? ""}`,
          received: seen(ex),
          expected: { status: c.status, error_code: c.code },
        },
        ex,
      );
    }
    const runs = await ctx.req({ method: "GET", path: cpRuns(cp.id) });
    ctx.expect(
      runs.status === 200 && listOf(runs)?.length === 0,
      {
        title: "refused runs left runs behind",
        received: seen(runs),
        expected: { data: [] },
      },
      runs,
    );
    const { balance: after, ex: me } = await balanceOf(ctx);
    ctx.expect(
      after.equals(before),
      {
        title: "refused runs changed the balance",
        received: after.toFixed(),
        expected: before.toFixed(),
      },
      me,
    );
  },
});
