import { decision, defineCheck } from "../define-check.ts";
import { bodyOf } from "../typed.ts";
import { createDataset, seen } from "./support/util.ts";
import { errorCode, pollUntil, postUrls, priceOf, runIdOf, terminalType } from "./support/groups.ts";
import { pageSize, type Page } from "./support/pagination.ts";

/** A dataset's run list without `limit` holds the documented default page (10) when the dataset has more runs. */
export default defineCheck({
  id: "pagination-runs-default-page",
  phase: "lists",
  rule: "GET /v1/datasets/{dataset_id}/runs without limit, on a dataset with one run more than the default page, holds 10 runs and has_next true",
  section: "Endpoints › Datasets (GET …/runs: limit default 10)",
  severity: "minor",
  rules: {
    seed: "| GET /v1/datasets/{dataset_id}/runs | limit (default 10)",
    // the seed caps a page at `limit`; that a page before the end is full is the contract's
    decisions: [decision("D-PAGE-FILL", { title: /: a short page before the end/ })],
  },
  decisions: ["D-PAGE-FILL"],
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/datasets/{dataset_id}/runs"],
  async run(ctx) {
    const op = ctx.contract.op("GET /v1/datasets/{dataset_id}/runs")!;
    const dflt = Number(op.params.find((p) => p.name === "limit")?.schema.default ?? 10);
    const price = await priceOf(ctx, "mention");
    const ds = await createDataset(ctx, "runs-page");
    const runs = `/v1/datasets/${encodeURIComponent(ds.id)}/runs`;
    // one URL per run: each collects at most one post (the reservation is the count, 20, at most)
    ctx.charge(price.mul(20 * (dflt + 1)).toFixed(), `${dflt + 1} one-URL dataset runs`);
    const started: string[] = [];
    for (let i = 0; i <= dflt; i++) {
      const ex = await ctx.req({
        method: "POST",
        path: runs,
        body: { search_query: { type: "url", source_urls: postUrls(ctx, "reddit", 1, `rp${i}`) }, count: 20 },
      });
      if (ex.status === 402) return ctx.skip(`run ${i + 1} of ${dflt + 1} refused: 402 ${errorCode(ex) ?? ""}`);
      if (ex.status !== 202 || !runIdOf(ex)) {
        ctx.fail(
          { title: `one-URL run ${i + 1} answered ${ex.status}`, received: seen(ex), expected: { status: 202 } },
          ex,
        );
        return ctx.skip("the dataset's runs could not be created");
      }
      started.push(runIdOf(ex)!);
    }
    const ex = await ctx.req({ method: "GET", path: runs });
    const b = bodyOf<Page>(ex);
    const n = pageSize(ex);
    ctx.expect(
      ex.status === 200 && n === dflt && b?.has_next === true,
      {
        title: `GET …/runs without limit, over ${dflt + 1} runs, holds ${n} (has_next ${b?.has_next}), not the default ${dflt}${ex.status === 200 && n >= 0 && n < dflt && b?.has_next === true ? ": a short page before the end" : ""}`,
        received: { status: ex.status, items: n, has_next: b?.has_next },
        expected: { status: 200, items: dflt, has_next: true },
      },
      ex,
    );
    // let the runs end, so their settlements land before the checks after it read the balance (a slow
    // deployment's runs would otherwise settle inside a later billing check's window)
    for (const id of started) await pollUntil(ctx, `${runs}/${encodeURIComponent(id)}`, terminalType);
  },
});
