import { lenientWarning } from "../lenient.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status, words } from "../grounding/facts.ts";
import { createDataset, listOf, MISSING_DATASET_ID, seen } from "./support/util.ts";
import { balanceOf, errorCode } from "./support/groups.ts";
import { cpRuns, createParameter } from "./support/custom-parameters.ts";

/**
 * Refused custom parameter runs: an unknown parameter (404
 * custom_parameter_not_found, the Errors table gives the code its status), a
 * dataset without mentions (nothing_to_analyze; its 400 is D-400's) and an
 * unknown scope dataset (the contract's 404 dataset_not_found). No refusal
 * charges; none leaves a run behind (the contract's run lifecycle).
 */
export default defineCheck({
  id: "custom-parameter-run-codes",
  phase: "groups",
  rule: "A run of an unknown parameter is 404 custom_parameter_not_found; a run on a dataset without mentions is refused with nothing_to_analyze (400, D-400); a run scoped to an unknown dataset is 404 dataset_not_found (D-CPR-SCOPE-404); none changes the balance, none leaves a run (D-REF-RUN-LIFECYCLE)",
  section: "Endpoints › Custom parameters (runs errors); Errors (404)",
  severity: "major",
  asserts: {
    unknownParameter: seed(
      ["custom-parameters.runs.codes", "endpoints.404-unknown-or-foreign"],
      status(404),
      code("custom_parameter_not_found"),
    ),
    nothingToAnalyze: seed("custom-parameters.runs.codes", code("nothing_to_analyze")),
    nothingToAnalyzeStatus: decided("D-400", status(400)),
    unknownScope: decided("D-CPR-SCOPE-404", status(404), code("dataset_not_found")),
    nothingCharged: seed("errors.never-partially-charged", words("Requests are never partially charged.")),
    nothingCreated: decided("D-REF-RUN-LIFECYCLE"),
    runsList: seed("custom-parameters.runs.list", words("array of run")),
    // which check comes first is lenient (a warning): an unknown scope answered custom_parameter_not_found
    order: decided("D-CPR-CHECK-ORDER"),
  },
  requires: [
    "POST /v1/custom_parameters/{parameter_id}/runs",
    "GET /v1/custom_parameters/{parameter_id}/runs",
    "GET /v1/me",
  ],
  async run(ctx) {
    const cp = await createParameter(ctx, "cp-codes");
    const empty = await createDataset(ctx, "cp-empty");
    const { balance: before } = await balanceOf(ctx);
    const start = (path: string, scope: string) =>
      ctx.req({ method: "POST", path, body: { scope: { kind: "dataset", id: scope } } });

    const unknown = await start(cpRuns("cp_slkmissing00000000"), empty.id);
    ctx.expect(
      unknown.status === 404 && errorCode(unknown) === "custom_parameter_not_found",
      {
        judges: "unknownParameter",
        title: `a run of an unknown parameter answered ${unknown.status} ${errorCode(unknown) ?? ""}`.trimEnd(),
        received: seen(unknown),
        expected: { status: 404, error_code: "custom_parameter_not_found" },
      },
      unknown,
    );

    const nothing = await start(cpRuns(cp.id), empty.id);
    if (
      ctx.expect(
        nothing.status >= 400 && nothing.status < 500 && errorCode(nothing) === "nothing_to_analyze",
        {
          judges: "nothingToAnalyze",
          title: `a run on a dataset without mentions answered ${nothing.status} ${errorCode(nothing) ?? ""}`.trimEnd(),
          received: seen(nothing),
          expected: { status: "4xx", error_code: "nothing_to_analyze" },
        },
        nothing,
      )
    )
      ctx.expect(
        nothing.status === 400,
        {
          judges: "nothingToAnalyzeStatus",
          title: `nothing_to_analyze was answered with ${nothing.status}`,
          received: nothing.status,
          expected: 400,
        },
        nothing,
      );

    const scope = await start(cpRuns(cp.id), MISSING_DATASET_ID);
    if (scope.status === 404 && errorCode(scope) === "custom_parameter_not_found") {
      ctx.warn(lenientWarning("D-CPR-SCOPE-404"), scope);
      ctx.pass(scope);
    } else
      ctx.expect(
        scope.status === 404 && errorCode(scope) === "dataset_not_found",
        {
          judges: "unknownScope",
          title: `a run on an unknown scope dataset answered ${scope.status} ${errorCode(scope) ?? ""}`.trimEnd(),
          received: seen(scope),
          expected: { status: 404, error_code: "dataset_not_found" },
        },
        scope,
      );

    const runs = await ctx.req({ method: "GET", path: cpRuns(cp.id) });
    // the seed's "array of run": a list envelope or a bare array
    const n = listOf(runs)?.length ?? (Array.isArray(runs.json) ? runs.json.length : undefined);
    if (
      ctx.expect(
        runs.status === 200 && n !== undefined,
        {
          judges: "runsList",
          title: `the parameter's runs answered ${runs.status} without an array of runs`,
          received: seen(runs),
          expected: { status: 200, data: [] },
        },
        runs,
      )
    )
      ctx.expect(
        n === 0,
        {
          judges: "nothingCreated",
          title: `refused runs left ${n} run(s) behind`,
          received: seen(runs),
          expected: { data: [] },
        },
        runs,
      );
    const { balance: after, ex: me } = await balanceOf(ctx);
    ctx.expect(
      after.equals(before),
      {
        judges: "nothingCharged",
        title: "refused runs changed the balance",
        received: after.toFixed(),
        expected: before.toFixed(),
      },
      me,
    );
  },
});
