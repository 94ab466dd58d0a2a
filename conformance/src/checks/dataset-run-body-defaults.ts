import type { DatasetsDatasetRun, MentionsMention } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { dataOf } from "../typed.ts";
import type { CheckContext } from "../types.ts";
import { createDataset, listItemsOf } from "./support/util.ts";
import { pollUntil, priceOf, runIdOf, terminalType } from "./support/groups.ts";
import { DEFAULTED_FIELDS, omittedDefaultsRun, RUN_DEFAULTS, RUN_DEFAULT_ASSERTS } from "./support/run-defaults.ts";

const DAY_S = 86_400;
/** The prompt run that dates its posts: the seed's smallest count, sent explicitly (its default is judged on the URL run). */
const PROMPT_COUNT = 20;

/**
 * A dataset run sent with only its search query echoes the body's defaults
 * in `params` (a URL run of one post: the default count of 200 is reserved,
 * one mention at most settled); a prompt run without date_range collects only
 * posts of the past 365 days.
 */
export default defineCheck({
  id: "dataset-run-body-defaults",
  phase: "resources",
  rule: "A dataset run created with only search_query echoes in params count 200, num_comments_per_post 10, country_code US, enable_visual_recognition false and enable_transcribing false; a prompt search without date_range collects only posts of the past 365 days",
  section: "Endpoints › Datasets (dataset run body, rule 1); Resources › Dataset run (params)",
  severity: "major",
  asserts: {
    ...RUN_DEFAULT_ASSERTS,
    window: seed("datasets.runs.prompt-365-days", words("defaults to the past 365 days")),
  },
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/datasets/{dataset_id}/runs/{run_id}"],
  async run(ctx) {
    const price = await priceOf(ctx, "mention");
    // the defaults, echoed by a URL run of one post sent with nothing but its search query (shared with
    // dataset-run-defaults-equivalent, which compares it with a run that spells them out)
    const { read } = await omittedDefaultsRun(ctx);
    const params = dataOf<DatasetsDatasetRun>(read)?.params as Record<string, unknown> | undefined;
    for (const field of DEFAULTED_FIELDS) {
      const v = params?.[field];
      const dflt = RUN_DEFAULTS[field].value;
      // D-RUN-PARAMS-ECHO: an echo without the field (or null) is tolerated, and shows nothing of the default
      if (v === undefined || v === null) {
        ctx.notExercised(`params.${field} is not echoed (${JSON.stringify(v)}): its default cannot be read`);
        continue;
      }
      ctx.expect(
        v === dflt,
        {
          judges: field,
          title: `a run sent without ${field} echoes ${field} ${JSON.stringify(v)}, not the default ${JSON.stringify(dflt)}`,
          received: { params },
          expected: { params: { [field]: dflt } },
        },
        read,
      );
    }
    // a dataset of its own: a URL search applies no date filter, so the URL run's post may be of any date
    const dated = await createDataset(ctx, "run-window");
    await promptWindow(ctx, dated.id, price.mul(PROMPT_COUNT).toFixed());
  },
});

/** The default window: every post a prompt run without date_range collected is dated within the past 365 days (a day's slack either side). */
async function promptWindow(ctx: CheckContext<"window">, datasetId: string, usd: string) {
  const runs = `/v1/datasets/${encodeURIComponent(datasetId)}/runs`;
  const release = ctx.charge(usd, `a prompt run of ${PROMPT_COUNT} mentions`);
  const create = await ctx.req({
    method: "POST",
    path: runs,
    body: {
      search_query: { type: "prompt", sources: ["reddit"], search_query: "oat milk latte art" },
      count: PROMPT_COUNT,
      num_comments_per_post: 0,
    },
  });
  const runId = runIdOf(create);
  if (create.status !== 202 || !runId) {
    release();
    return ctx.notExercised(`the prompt run without date_range answered ${create.status}: no posts to date`);
  }
  const obs = await pollUntil<DatasetsDatasetRun>(ctx, `${runs}/${encodeURIComponent(runId)}`, terminalType);
  const last = obs.at(-1)!;
  if (last.d?.status?.type !== "completed")
    return ctx.notExercised(`the prompt run ended ${last.d?.status?.type ?? last.ex.status}: no posts to date`);
  const found = await ctx.req({
    method: "POST",
    path: "/v1/mentions",
    body: { dataset_ids: [datasetId], sort: "date", order: "asc", limit: 100 },
  });
  const dates = listItemsOf<MentionsMention>(found)
    .map((m) => m?.created_at)
    .filter((t): t is number => typeof t === "number");
  if (found.status !== 200 || dates.length === 0)
    return ctx.notExercised(`the run's mentions could not be read (${found.status}, ${dates.length} dated)`);
  const now = Math.floor(Date.now() / 1000);
  const oldest = Math.min(...dates);
  const newest = Math.max(...dates);
  ctx.expect(
    oldest >= now - 366 * DAY_S && newest <= now + DAY_S,
    {
      judges: "window",
      title: `a prompt run without date_range collected posts dated ${new Date(oldest * 1000).toISOString().slice(0, 10)}…${new Date(newest * 1000).toISOString().slice(0, 10)}, outside the past 365 days`,
      received: { oldest, newest, now },
      expected: `created_at within [${now - 365 * DAY_S}, ${now}] (a day's slack)`,
    },
    found,
  );
}
