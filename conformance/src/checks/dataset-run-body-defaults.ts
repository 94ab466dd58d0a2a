import type { DatasetsDatasetRun, MentionsMention } from "../../../generated/client/types.gen.ts";
import { decision, defineCheck } from "../define-check.ts";
import { dataOf } from "../typed.ts";
import { createDataset, listItemsOf, seen } from "./support/util.ts";
import { errorCode, pollUntil, priceOf, runIdOf, terminalType } from "./support/groups.ts";

/** The body's defaults, as the seed states them (Endpoints › Datasets, dataset run body). */
const DEFAULTS = [
  ["count", 200],
  ["num_comments_per_post", 10],
  ["country_code", "US"],
  ["enable_visual_recognition", false],
  ["enable_transcribing", false],
] as const;
const DAY_S = 86_400;

/** A dataset run sent with only its search query: the defaults apply, and a prompt search covers the past 365 days. */
export default defineCheck({
  id: "dataset-run-body-defaults",
  phase: "resources",
  rule: "A dataset run created with only search_query echoes in params count 200, num_comments_per_post 10, country_code US, enable_visual_recognition false and enable_transcribing false; its prompt search, without date_range, collects only posts of the past 365 days",
  section: "Endpoints › Datasets (dataset run body, rule 1); Resources › Dataset run (params)",
  severity: "major",
  rules: {
    seed: "count 20-1000, default 200; num_comments_per_post 0-100, default 10; country_code alpha-2, default `US`; enable_visual_recognition, enable_transcribing default false; params: echo of request … A `prompt` search with no `date_range` defaults to the past 365 days;",
    decisions: [decision("D-RUN-PARAMS-ECHO", { title: /^params\./ })],
  },
  decisions: ["D-RUN-PARAMS-ECHO"],
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/datasets/{dataset_id}/runs/{run_id}"],
  async run(ctx) {
    const price = await priceOf(ctx, "mention");
    const ds = await createDataset(ctx, "run-defaults");
    const runs = `/v1/datasets/${encodeURIComponent(ds.id)}/runs`;
    const release = ctx.charge(price.mul(200).toFixed(), "a dataset run of the default count (200 mentions)");
    const create = await ctx.req({
      method: "POST",
      path: runs,
      body: { search_query: { type: "prompt", sources: ["reddit"], search_query: "oat milk latte art" } },
    });
    const runId = runIdOf(create);
    if (create.status === 402) {
      release();
      ctx.skip(`a run of the default 200 mentions is beyond the balance (402 ${errorCode(create) ?? ""})`);
    }
    if (create.status !== 202 || !runId) {
      release();
      ctx.fail(
        {
          title: `a run sent with only search_query answered ${create.status}`,
          received: seen(create),
          expected: { status: 202 },
        },
        create,
      );
      return ctx.skip("the run could not be started");
    }
    const runPath = `${runs}/${encodeURIComponent(runId)}`;
    const read = await ctx.req({ method: "GET", path: runPath });
    const params = dataOf<DatasetsDatasetRun>(read)?.params as Record<string, unknown> | undefined;
    for (const [field, dflt] of DEFAULTS) {
      const v = params?.[field];
      // D-RUN-PARAMS-ECHO: an echo without the field (or null) is tolerated, and shows nothing of the default
      if (v === undefined || v === null) {
        ctx.notExercised(`params.${field} is not echoed (${JSON.stringify(v)}): its default cannot be read`);
        continue;
      }
      ctx.expect(
        v === dflt,
        {
          title: `a run sent without ${field} echoes ${field} ${JSON.stringify(v)}, not the default ${JSON.stringify(dflt)}`,
          received: { params },
          expected: { params: { [field]: dflt } },
        },
        read,
      );
    }
    // the default window: every collected post dated within the past 365 days (a day's slack either side)
    const obs = await pollUntil<DatasetsDatasetRun>(ctx, runPath, terminalType);
    const last = obs.at(-1)!;
    if (last.d?.status?.type !== "completed") {
      ctx.notExercised(`the run ended ${last.d?.status?.type ?? last.ex.status}: no posts to date`);
      return;
    }
    const found = await ctx.req({
      method: "POST",
      path: "/v1/mentions",
      body: { dataset_ids: [ds.id], sort: "date", order: "asc", limit: 100 },
    });
    const dates = listItemsOf<MentionsMention>(found)
      .map((m) => m?.created_at)
      .filter((t): t is number => typeof t === "number");
    if (found.status !== 200 || dates.length === 0) {
      ctx.notExercised(`the run's mentions could not be read (${found.status}, ${dates.length} dated)`);
      return;
    }
    const now = Math.floor(Date.now() / 1000);
    const oldest = Math.min(...dates);
    const newest = Math.max(...dates);
    ctx.expect(
      oldest >= now - 366 * DAY_S && newest <= now + DAY_S,
      {
        title: `a prompt run without date_range collected posts dated ${new Date(oldest * 1000).toISOString().slice(0, 10)}…${new Date(newest * 1000).toISOString().slice(0, 10)}, outside the past 365 days`,
        received: { oldest, newest, now },
        expected: `created_at within [${now - 365 * DAY_S}, ${now}] (a day's slack)`,
      },
      found,
    );
  },
});
