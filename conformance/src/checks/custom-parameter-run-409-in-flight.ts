import type {
  CustomParametersCustomParameterRun,
  CustomParametersCustomParameterRunAccepted,
  CustomParametersCustomParameterRunInFlightError,
} from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { code, status } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import { bodyOf, dataOf } from "../typed.ts";
import { is2xx, listOf, seen } from "./support/util.ts";
import { countOf, errorCode, pollUntil, priceOf, sendTwins, splitTwins } from "./support/groups.ts";
import {
  cpRuns,
  createParameter,
  parameterRunEnded,
  parameterRunRunning,
  startOnPosts,
} from "./support/custom-parameters.ts";

const runIdOf = (ex: Exchange) => {
  const id = is2xx(ex) ? dataOf<CustomParametersCustomParameterRunAccepted>(ex)?.run_id : undefined;
  return typeof id === "string" ? id : undefined;
};

/**
 * One run per parameter at a time: of two identical runs of one parameter
 * started together (sendTwins), when one is accepted its twin's refusal can
 * only be about it: custom_parameter_run_in_flight (the seed names the code,
 * not its status: 409, transient false and no run started are D-409's). When
 * both are accepted it is a finding only if both still read running (their
 * counters short of mentions_total) afterwards; otherwise not exercised.
 */
export default defineCheck({
  id: "custom-parameter-run-409-in-flight",
  phase: "groups",
  rule: "Of two identical runs of one custom parameter started together, one is accepted and the other refused with custom_parameter_run_in_flight while the first is running (409 with transient false, no run started: D-409)",
  section: "Limits › Concurrency (custom parameter runs); Endpoints › Custom parameters (runs errors)",
  severity: "major",
  asserts: {
    refused: seed(
      ["limits.custom-parameter-in-flight", "custom-parameters.runs.codes"],
      code("custom_parameter_run_in_flight"),
    ),
    status: decided("D-409", status(409)),
  },
  requires: [
    "POST /v1/custom_parameters/{parameter_id}/runs",
    "GET /v1/custom_parameters/{parameter_id}/runs/{run_id}",
    "GET /v1/custom_parameters/{parameter_id}/runs",
  ],
  async run(ctx) {
    const price = await priceOf(ctx, "post_processing");
    const cp = await createParameter(ctx, "cp-409");
    let pair: [Exchange, Exchange] | undefined;
    let release = () => {};
    let releaseFirst = () => {};
    // on a dataset the deployment accepts (or not exercised, naming its refusal); its size, read right before,
    // sizes the commitment: one run, and its twin refused if conformant
    await startOnPosts(ctx, "two custom parameter runs started together", async (src) => {
      const ds = await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(src.id)}` });
      const mentions = countOf(dataOf<{ mentions_count: number }>(ds)?.mentions_count) ?? 20;
      // a source refused before (nothing_to_analyze) was charged nothing
      releaseFirst();
      release();
      releaseFirst = ctx.charge(price.mul(mentions).toFixed(), "a custom parameter run");
      release = ctx.charge(price.mul(mentions).toFixed(), "its twin (refused if conformant)");
      const body = { scope: { kind: "dataset", id: src.id } };
      pair = await sendTwins(() => ctx.req({ method: "POST", path: cpRuns(cp.id), body }));
      return pair.find(is2xx) ?? pair[0];
    });
    const [a, b] = pair!;
    const ids = [a, b].map(runIdOf).filter((id): id is string => !!id);
    if (ids.length < 2) release();
    if (ids.length === 0) releaseFirst();
    const runPath = (id: string) => `${cpRuns(cp.id)}/${encodeURIComponent(id)}`;
    const split = splitTwins([a, b]);
    if (split) {
      const { refused: ex } = split;
      const ok = ctx.expect(
        errorCode(ex) === "custom_parameter_run_in_flight",
        {
          judges: "refused",
          title:
            `of two identical runs started together, one was accepted and the other answered ${ex.status} ${errorCode(ex) ?? ""}`.trimEnd(),
          received: seen(ex),
          expected: { status: "4xx", error_code: "custom_parameter_run_in_flight" },
        },
        ex,
      );
      if (ok) {
        ctx.expect(
          ex.status === 409 && bodyOf<CustomParametersCustomParameterRunInFlightError>(ex)?.transient === false,
          {
            judges: "status",
            title: `the twin run was refused with ${ex.status}`,
            received: seen(ex),
            expected: { status: 409, transient: false },
          },
          ex,
        );
        const runs = await ctx.req({ method: "GET", path: cpRuns(cp.id) });
        const n = listOf(runs)?.length ?? (Array.isArray(runs.json) ? runs.json.length : undefined);
        if (runs.status === 200 && n !== undefined)
          ctx.expect(
            n === 1,
            {
              judges: "status",
              title: `the parameter has ${n} runs after one refused start`,
              received: seen(runs),
              expected: "exactly 1 run",
            },
            runs,
          );
      }
    } else if (ids.length === 2) {
      // both accepted: a finding only when both still read running (each was when the other arrived)
      const reads = [];
      for (const id of ids)
        reads.push(dataOf<CustomParametersCustomParameterRun>(await ctx.req({ method: "GET", path: runPath(id) })));
      if (reads.every(parameterRunRunning))
        ctx.fail(
          {
            judges: "refused",
            title: "two runs of one parameter were both accepted and both read running",
            received: { answers: [a.status, b.status], runs: reads },
            expected: { error_code: "custom_parameter_run_in_flight" },
          },
          b,
        );
      else ctx.notExercised("both twin runs were accepted, and one had ended when read: it may have ended first");
    } else ctx.notExercised(`the twin runs answered ${a.status} and ${b.status}: no run was accepted beside a refusal`);
    // let every run end: nothing of the kit is left running on the account
    for (const id of ids) await pollUntil<CustomParametersCustomParameterRun>(ctx, runPath(id), parameterRunEnded);
  },
});
