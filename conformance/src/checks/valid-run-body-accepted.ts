import fc from "fast-check";
import { decision, defineCheck } from "../define-check.ts";
import { SkipError } from "../skip.ts";
import { RUN_COUNT, mentionPrice } from "./support/billing.ts";
import type { Exchange } from "../http.ts";
import { dataOf } from "../typed.ts";
import type { DatasetsDatasetRun } from "../../../generated/client/types.gen.ts";
import { fixtureDataset, seen } from "./support/util.ts";
import { schemaEnum } from "./support/groups.ts";

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Positive data for the chargeable create: fast-check generates valid run
 * bodies (both search variants, every optional field) at the minimum count;
 * each must be accepted (202 pending) and echoed in the run's params.
 */
export default defineCheck({
  id: "valid-run-body-accepted",
  phase: "billing",
  rule: "Generated valid dataset run bodies (prompt and url searches, every optional field) get 202 pending, and the run's params echo every field sent",
  section: "Endpoints › Datasets (run body); Resources › Dataset run (params echo)",
  severity: "major",
  rules: {
    seed: "POST /v1/datasets/{dataset_id}/runs | body below | 202, run create response (status `pending`)",
    decisions: [
      decision("D-RUN-PARAMS-ECHO", { title: /null|absent|default/ }),
      decision("D-RUN-COUNT", { title: /requested_count/ }),
    ],
  },
  decisions: ["D-RUN-PARAMS-ECHO", "D-RUN-ACTIONS-DEFAULT", "D-RUN-COUNT"],
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/datasets/{dataset_id}/runs/{run_id}"],
  async run(ctx) {
    const op = ctx.contract.op("POST /v1/datasets/{dataset_id}/runs")!;
    const zBody = op.bodyRef ? ctx.contract.zodOf(op.bodyRef) : undefined;
    const sources = schemaEnum(ctx.contract.doc, "Common.Source") ?? ["reddit"];
    const actions = schemaEnum(ctx.contract.doc, "Datasets.ContentAnalysisAction") ?? [];
    const now = Date.now();
    const prompt = fc.record(
      {
        type: fc.constant("prompt"),
        sources: fc.uniqueArray(fc.constantFrom(...sources), { minLength: 1, maxLength: sources.length }),
        search_query: fc.stringMatching(/^[a-z][a-z ]{0,40}[a-z]$/),
        fragments: fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { maxLength: 3 }),
      },
      { requiredKeys: ["type", "sources", "search_query"] },
    );
    const url = fc.record({
      type: fc.constant("url"),
      source_urls: fc.array(
        fc.record({
          source: fc.constant("reddit"),
          url: fc
            .integer({ min: 1, max: 99999 })
            .map((n) => `https://www.reddit.com/r/Coffee/comments/${n.toString(36)}/oat_milk_foam/`),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    });
    const common = {
      count: fc.constant(RUN_COUNT),
      num_comments_per_post: fc.integer({ min: 0, max: 100 }),
      country_code: fc.constantFrom("US", "GB", "DE", "BR", "JP"),
      language: fc.constantFrom("en", "de", "pt-BR", "ja"),
      enable_visual_recognition: fc.boolean(),
      enable_transcribing: fc.boolean(),
      content_analysis_actions: fc.subarray(actions),
    };
    const bodyArb = fc
      .oneof(
        fc.record(
          {
            search_query: prompt,
            date_range: fc
              .integer({ min: 2, max: 7 })
              .map((d) => ({ from: day(now - d * 86_400_000), to: day(now - 86_400_000) })),
            ...common,
          },
          { requiredKeys: ["search_query", "count"] },
        ),
        fc.record({ search_query: url, ...common }, { requiredKeys: ["search_query", "count"] }),
      )
      .filter((b) => !zBody || zBody.safeParse(b).success);
    const ds = await fixtureDataset(ctx);
    const { price } = ctx.contract.op("GET /v1/prices") ? await mentionPrice(ctx) : { price: undefined };
    const seed = ctx.fcSeed();
    const numRuns = ctx.settings.profile === "full" ? 6 : 3;
    let bad: { title: string; ex: Exchange; expected: unknown } | undefined;
    let skipped: string | undefined;
    const out = await fc.check(
      fc.asyncProperty(bodyArb, async (body) => {
        try {
          ctx.charge(price ? price.mul(RUN_COUNT).toFixed() : "0", `a ${RUN_COUNT}-mention run`);
        } catch (e) {
          if (e instanceof SkipError) {
            skipped = e.message;
            return true;
          }
          throw e;
        }
        const ex = await ctx.req({
          method: "POST",
          path: `/v1/datasets/${encodeURIComponent(ds.id)}/runs`,
          body,
          meta: { seed },
        });
        const run = dataOf<DatasetsDatasetRun>(ex);
        if (ex.status !== 202 || run?.status?.type !== "pending" || typeof run?.id !== "string") {
          bad = {
            title: `a valid ${body.search_query.type} run body answered ${ex.status}`,
            ex,
            expected: { status: 202, data: { status: { type: "pending" } } },
          };
          return false;
        }
        const read = await ctx.req({
          method: "GET",
          path: `/v1/datasets/${encodeURIComponent(ds.id)}/runs/${encodeURIComponent(run.id)}`,
        });
        const params: Record<string, unknown> = dataOf<DatasetsDatasetRun>(read)?.params ?? {};
        // the actions are a set: compared sorted, whatever the deployment sent in their place
        const sortedJson = (v: unknown) => JSON.stringify([...((v ?? []) as unknown[])].sort());
        const differ = Object.entries(body).filter(([k, v]) =>
          k === "content_analysis_actions"
            ? sortedJson(params[k]) !== sortedJson(v)
            : JSON.stringify(params[k]) !== JSON.stringify(v),
        );
        if (differ.length) {
          bad = {
            title: `the run's params do not echo ${differ.map(([k]) => k).join(", ")}`,
            ex: read,
            expected: Object.fromEntries(differ),
          };
          return false;
        }
        ctx.pass(ex);
        return true;
      }),
      { seed, numRuns, endOnFailure: true, path: ctx.settings.fcPath },
    );
    if (skipped) ctx.warn(`some runs not started: ${skipped}`);
    if (out.failed && bad)
      ctx.fail(
        {
          title: `${bad.title}`,
          received: seen(bad.ex),
          expected: bad.expected,
          seed,
          path: out.counterexamplePath ?? undefined,
        },
        bad.ex,
      );
    else if (out.failed)
      throw out.errorInstance instanceof Error ? out.errorInstance : new Error(String(out.errorInstance));
  },
});
