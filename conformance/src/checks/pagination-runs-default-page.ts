import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { byDefault } from "../grounding/facts.ts";
import { bodyOf } from "../typed.ts";
import { seen } from "./support/util.ts";
import { equivalent, pageSize, runsFixture, viewOf, type Page } from "./support/pagination.ts";

/** The seed's default page of a dataset's run list. */
const DEFAULT = 10;

/**
 * A dataset's run list without `limit` is the page with limit=10, the seed's
 * default: the same runs and the same has_next, on a dataset holding eleven
 * runs (one URL each: one mention at most per run). That the default page is
 * full before the end is D-PAGE-FILL, judged apart.
 */
export default defineCheck({
  id: "pagination-runs-default-page",
  phase: "lists",
  rule: "GET /v1/datasets/{dataset_id}/runs without limit answers the page limit=10 answers (the same runs, the same has_next), on a dataset with eleven runs; a default page with has_next true holds 10 (D-PAGE-FILL)",
  section: "Endpoints › Datasets (GET …/runs: limit default 10)",
  severity: "minor",
  asserts: {
    default: seed("datasets.runs.list.default-limit", byDefault(DEFAULT, "limit")),
    fill: decided("D-PAGE-FILL"),
  },
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/datasets/{dataset_id}/runs"],
  async run(ctx) {
    const fixture = await runsFixture(ctx, DEFAULT + 1);
    if (!fixture.dataset) return ctx.skip(`not exercised: the runs could not be built (${fixture.refused})`);
    const runs = `/v1/datasets/${encodeURIComponent(fixture.dataset)}/runs`;
    const eq = await equivalent(
      () => ctx.req({ method: "GET", path: runs }),
      () => ctx.req({ method: "GET", path: `${runs}?limit=${DEFAULT}` }),
    );
    if (eq.verdict === "moving") return ctx.skip("not exercised: the dataset's runs kept changing between reads");
    ctx.expect(
      eq.verdict === "same",
      {
        judges: "default",
        title: `GET …/runs without limit answered another page than limit=${DEFAULT}`,
        received: { without_limit: viewOf(eq.a), answer: eq.a.status === 200 ? undefined : seen(eq.a) },
        expected: { as_limit_10: viewOf(eq.b) },
      },
      eq.a,
    );
    const n = pageSize(eq.a);
    if (eq.verdict === "same" && bodyOf<Page>(eq.a)?.has_next === true)
      ctx.expect(
        n === DEFAULT,
        {
          judges: "fill",
          title: `GET …/runs without limit, over ${DEFAULT + 1} runs, holds ${n} with has_next true: a short page before the end`,
          received: { items: n, has_next: true },
          expected: { items: DEFAULT, has_next: true },
        },
        eq.a,
      );
  },
});
