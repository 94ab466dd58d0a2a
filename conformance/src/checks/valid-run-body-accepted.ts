import fc from "fast-check";
import { defineCheck } from "../define-check.ts";
import { marks, seed } from "../grounding/assertions.ts";
import { status, value, words } from "../grounding/facts.ts";
import { provenanceOf, constraintsAt } from "../provenance.ts";
import { schemaDecisions } from "../contract.ts";
import { bodyOf, isObject } from "../typed.ts";
import type { CommonValidationError } from "../../../generated/client/types.gen.ts";
import { SkipError } from "../skip.ts";
import { RUN_COUNT, mentionPrice } from "./support/billing.ts";
import type { Exchange } from "../http.ts";
import type { JsonSchema } from "../openapi.ts";
import { dataOf } from "../typed.ts";
import type { DatasetsDatasetRun, DatasetsDatasetRunCreated } from "../../../generated/client/types.gen.ts";
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
  asserts: {
    // "request accepted → pending; returns immediately with 202"
    // a body within the seed's rules (a BCP-47 language, an alpha-2 country, another run in flight on the dataset) is accepted
    accepted: seed(
      [
        "dataset-run.create-pending-202",
        "datasets.runs.body.language",
        "datasets.runs.body.country-code",
        "datasets.runs.several-in-flight",
      ],
      status(202),
      value("pending"),
      words("request accepted"),
      words("BCP-47 tag"),
      words("ISO 3166-1 alpha-2"),
      words("several runs in flight at once"),
    ),
    // the run's params are an "echo of request" for every field the seed lists there
    echo: seed("dataset-run.params-echo", words("echo of request")),
    // a valid body refused at a field whose bound or form the contract decided (D-LANGUAGE-TAG, D-URL-FORMAT…)
    openPoint: marks(schemaDecisions("requests")),
  },
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
    let bad:
      | {
          judges: "accepted" | "echo" | "openPoint";
          decision?: string;
          title: string;
          ex: Exchange;
          expected: unknown;
        }
      | undefined;
    let skipped: string | undefined;
    let refused: string | undefined;
    /** the counts the deployment reported for the runs it accepted */
    const counts = new Set<number>([RUN_COUNT]);
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
        // refused for a reason of the deployment's own (balance, plan, a domain 422): not a verdict on the body
        if (OWN_REFUSALS.has(ex.status) || (ex.status === 422 && !isValidationBody(ex))) {
          refused =
            `${ex.status} ${String((ex.json as { error_code?: unknown } | undefined)?.error_code ?? "")}`.trim();
          return true;
        }
        if (ex.status !== 202 || run?.status?.type !== "pending" || typeof run?.id !== "string") {
          const open = ex.status === 422 ? openPointOf(ctx.contract.doc, op.bodySchema, ex, body) : undefined;
          bad = {
            judges: open ? "openPoint" : "accepted",
            decision: open,
            title: `a valid ${body.search_query.type} run body answered ${ex.status}`,
            ex,
            expected: { status: 202, data: { status: { type: "pending" } } },
          };
          return false;
        }
        const reported = dataOf<DatasetsDatasetRunCreated>(ex)?.count;
        if (typeof reported === "number") counts.add(reported);
        const read = await ctx.req({
          method: "GET",
          path: `/v1/datasets/${encodeURIComponent(ds.id)}/runs/${encodeURIComponent(run.id)}`,
        });
        const params: Record<string, unknown> = dataOf<DatasetsDatasetRun>(read)?.params ?? {};
        // the actions are a set: compared sorted, whatever the deployment sent in their place
        const sortedJson = (v: unknown) => JSON.stringify([...((v ?? []) as unknown[])].sort());
        const same = (k: string, v: unknown) =>
          k === "content_analysis_actions"
            ? sortedJson(params[k]) === sortedJson(v)
            : JSON.stringify(params[k]) === JSON.stringify(v) ||
              // the count the deployment itself reported for the run (capped by its plan) is an echo too
              (k === "count" && typeof params[k] === "number" && counts.has(params[k]));
        // every field sent is echoed as sent (left out or null is no echo either); what a field not sent echoes is D-RUN-PARAMS-ECHO's
        const differ = Object.entries(body).filter(([k, v]) => !same(k, v));
        if (differ.length) {
          bad = {
            judges: "echo",
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
    if (skipped) ctx.notExercised(`some runs not started: ${skipped}`);
    if (refused) ctx.notExercised(`a valid run body refused for a reason of the deployment's own (${refused})`);
    if (out.failed && bad)
      ctx.fail(
        {
          judges: bad.judges,
          decision: bad.decision,
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

/** Statuses a deployment answers for reasons of its own (balance, an unknown dataset, a conflict). */
const OWN_REFUSALS = new Set([402, 404, 409]);

const isValidationBody = (ex: Exchange) => Array.isArray(bodyOf<CommonValidationError>(ex)?.detail);

/**
 * The decision behind a validation 422 of a valid body, when every field its
 * issues point at is a point the contract decided (a language tag's form, a
 * URL's format…): the deployment took the other choice. Undefined when some
 * field the seed's own words constrain was refused (the seed's body rule).
 */
function openPointOf(
  doc: Parameters<typeof provenanceOf>[0],
  schema: JsonSchema | undefined,
  ex: Exchange,
  body: unknown,
): string | undefined {
  const issues = bodyOf<CommonValidationError>(ex)?.detail;
  if (!schema || !Array.isArray(issues) || !issues.length) return undefined;
  const decisions: string[] = [];
  for (const issue of issues) {
    const loc = isObject(issue) && Array.isArray(issue.loc) ? issue.loc.map(String) : [];
    if (loc[0] !== "body" || loc.length < 2) return undefined;
    const path = loc.slice(1).map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg));
    const place = provenanceOf(doc).placeOf(schema, path, body);
    const rules = place ? constraintsAt(place).filter((c) => c.kind !== "required") : [];
    const decided = rules.map((c) => c.provenance).filter((p) => p?.kind === "decision");
    if (!decided.length || decided.length < rules.length) return undefined;
    decisions.push(...decided.map((p) => (p as { decision: string }).decision));
  }
  return decisions[0];
}
