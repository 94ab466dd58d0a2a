import type {
  CustomParametersCustomParameterRun,
  CustomParametersCustomParameterRunAccepted,
  CustomParametersCustomParameterRunInFlightError,
} from "../../../generated/client/types.gen.ts";
import { decision, defineCheck } from "../define-check.ts";
import { bodyOf, dataOf } from "../typed.ts";
import { listOf, seen } from "./support/util.ts";
import { errorCode, pollUntil, priceOf } from "./support/groups.ts";
import { cpRuns, createParameter, startParameterRun } from "./support/custom-parameters.ts";

/** One run per parameter at a time: a second run while the first is processing is 409 custom_parameter_run_in_flight. */
export default defineCheck({
  id: "custom-parameter-run-409-in-flight",
  phase: "groups",
  rule: "While a custom parameter run is processing, another run of the same parameter gets 409 custom_parameter_run_in_flight (transient false) and starts nothing",
  section: "Limits › Concurrency (custom parameter runs); Endpoints › Custom parameters (runs errors)",
  severity: "major",
  rules: {
    seed: "`custom_parameter_run_in_flight` when one is running for the parameter",
    decisions: [decision("D-409", { title: /answered|second run/, status: (s) => s >= 400 && s < 500 && s !== 409 })],
  },
  decisions: ["D-409"],
  requires: [
    "POST /v1/custom_parameters/{parameter_id}/runs",
    "GET /v1/custom_parameters/{parameter_id}/runs/{run_id}",
    "GET /v1/custom_parameters/{parameter_id}/runs",
  ],
  async run(ctx) {
    const price = await priceOf(ctx, "post_processing");
    const cp = await createParameter(ctx, "cp-409");
    ctx.charge(price.mul(20).toFixed(), "two custom parameter runs");
    // the first run is the setup: on a dataset the deployment accepts (or not exercised, naming its refusal)
    const { ex: first, source: src } = await startParameterRun(ctx, cp.id);
    const body = { scope: { kind: "dataset", id: src.id } };
    const firstId = dataOf<CustomParametersCustomParameterRunAccepted>(first)?.run_id;
    const started = first.status === 202 && typeof firstId === "string";
    ctx.expect(
      started,
      {
        title: `the first run answered ${first.status}`,
        received: seen(first),
        expected: { status: 202 },
      },
      first,
    );
    if (!started) return;
    const second = await ctx.req({ method: "POST", path: cpRuns(cp.id), body });
    const obs = await pollUntil<CustomParametersCustomParameterRun>(
      ctx,
      `${cpRuns(cp.id)}/${encodeURIComponent(firstId)}`,
      (d) => d?.status?.type !== "processing",
    );
    const wasInFlight = obs.length > 1 || obs[0]?.d?.status?.type === "processing";
    if (second.status === 202 && !wasInFlight)
      return ctx.notExercised("the first run had already ended when the second request arrived");
    ctx.expect(
      second.status === 409 &&
        errorCode(second) === "custom_parameter_run_in_flight" &&
        bodyOf<CustomParametersCustomParameterRunInFlightError>(second)?.transient === false,
      {
        title: `a second run while one was processing answered ${second.status} ${errorCode(second) ?? ""}`,
        received: seen(second),
        expected: { status: 409, error_code: "custom_parameter_run_in_flight", transient: false },
      },
      second,
    );
    const runs = await ctx.req({ method: "GET", path: cpRuns(cp.id) });
    ctx.expect(
      runs.status === 200 && listOf(runs)?.length === 1,
      {
        title: `the parameter has ${listOf(runs)?.length ?? "?"} runs after one refused start`,
        received: seen(runs),
        expected: "exactly 1 run",
      },
      runs,
    );
  },
});
