import type { DatasetsDatasetRun } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import type { Exchange } from "../http.ts";
import { dataOf, isObject } from "../typed.ts";
import type { CheckContext } from "../types.ts";
import { createDataset, seen } from "./support/util.ts";
import { priceOf } from "./support/groups.ts";
import {
  DEFAULTED_FIELDS,
  omittedDefaultsRun,
  RUN_DEFAULTS,
  RUN_DEFAULT_ASSERTS,
  startOneUrlRun,
  type DefaultedField,
} from "./support/run-defaults.ts";

const paramsOf = (ex: Exchange) => {
  const p = dataOf<DatasetsDatasetRun>(ex)?.params;
  return isObject(p) ? p : undefined;
};

/**
 * An omitted run body field is its default, the seed's words: a run sent
 * with only its search query and one sent with every default spelled out
 * (count 200, num_comments_per_post 10, country_code US, both flags false)
 * answer alike. Their create responses give the same count and
 * requested_count, and their params echo the same value for each field
 * both echo (an echo without the field is D-RUN-PARAMS-ECHO's lenient
 * case). Two one-URL runs: two mentions at most, the default count of 200
 * reserved one run at a time; the run without the fields is the one
 * dataset-run-body-defaults reads its echo from (run once per kit run).
 */
export default defineCheck({
  id: "dataset-run-defaults-equivalent",
  phase: "resources",
  rule: "A dataset run sent without count, num_comments_per_post, country_code, enable_visual_recognition and enable_transcribing answers as one sent with their defaults (200, 10, US, false, false): the same count and requested_count in the create response, the same echo in params",
  section: "Endpoints › Datasets (dataset run body: defaults); Resources › Dataset run (params, create response)",
  severity: "major",
  asserts: {
    ...RUN_DEFAULT_ASSERTS,
  },
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/datasets/{dataset_id}/runs/{run_id}"],
  async run(ctx) {
    const omitted = await omittedDefaultsRun(ctx);
    const price = await priceOf(ctx, "mention");
    const ds = await createDataset(ctx, "run-defaults-eq");
    ctx.charge(price.mul(200).toFixed(), "a one-URL run sent with the defaults spelled out (count 200)");
    const explicit = Object.fromEntries(DEFAULTED_FIELDS.map((f) => [f, RUN_DEFAULTS[f].value]));
    const spelled = await startOneUrlRun(ctx, ds.id, "explicit", explicit);
    // the create response: whatever it reports of the count is the same under both forms
    for (const key of ["count", "requested_count"] as const) {
      const a: unknown = dataOf<Record<string, unknown>>(omitted.create)?.[key];
      const b: unknown = dataOf<Record<string, unknown>>(spelled.create)?.[key];
      if (typeof a !== "number" || typeof b !== "number") {
        ctx.notExercised(`the create responses carry no numeric ${key} (${JSON.stringify(a)}, ${JSON.stringify(b)})`);
        continue;
      }
      ctx.expect(
        a === b,
        {
          judges: "count",
          title: `a run sent without count answered ${key} ${a}, one sent with count 200 answered ${b}`,
          received: { omitted: seen(omitted.create), explicit: seen(spelled.create) },
          expected: `the same ${key} (count defaults to 200)`,
        },
        omitted.create,
      );
    }
    // the params echo: each field both runs echo is the same
    const pa = paramsOf(omitted.read);
    const pb = paramsOf(spelled.read);
    for (const field of DEFAULTED_FIELDS) judgeEcho(ctx, field, pa?.[field], pb?.[field], omitted.read);
  },
});

function judgeEcho(ctx: CheckContext<DefaultedField>, field: DefaultedField, a: unknown, b: unknown, ex: Exchange) {
  // D-RUN-PARAMS-ECHO: an echo without the field (or null) is tolerated, and shows nothing of the default
  if (a === undefined || a === null || b === undefined || b === null)
    return ctx.notExercised(`params.${field} is not echoed by both runs (${JSON.stringify(a)}, ${JSON.stringify(b)})`);
  ctx.expect(
    JSON.stringify(a) === JSON.stringify(b),
    {
      judges: field,
      title: `a run sent without ${field} echoes ${JSON.stringify(a)}, one sent with ${field} ${JSON.stringify(RUN_DEFAULTS[field].value)} echoes ${JSON.stringify(b)}`,
      received: { omitted: a, explicit: b },
      expected: `the same ${field} (its default is ${JSON.stringify(RUN_DEFAULTS[field].value)})`,
    },
    ex,
  );
}
