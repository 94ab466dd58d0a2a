import type fc from "fast-check";
import { ModelViolation, observe, type RealSystem, type RunModel } from "./model.ts";

/** Start a 20-mention run (keyword search, or URLs that cannot be retrieved); it must be 202 pending. */
export class StartRunCommand implements fc.AsyncCommand<RunModel, RealSystem> {
  constructor(readonly kind: "keyword" | "unretrievable") {}
  check(m: Readonly<RunModel>): boolean {
    return m.started < m.maxStarts;
  }
  async run(m: RunModel, r: RealSystem): Promise<void> {
    const body =
      this.kind === "keyword"
        ? { search_query: { type: "prompt", sources: ["reddit"], search_query: "oat milk foam" }, count: 20 }
        : { search_query: { type: "url", source_urls: [{ source: "reddit", url: `https://www.reddit.com/r/slk/comments/removed_${m.started}/gone/` }] }, count: 20 };
    m.started++;
    const ex = await r.ctx.req({ method: "POST", path: `/v1/datasets/${encodeURIComponent(r.datasetId)}/runs`, body });
    r.last = ex;
    const run = (ex.json as any)?.data;
    if (ex.status !== 202 || typeof run?.id !== "string") throw new ModelViolation("run-state-machine: starting a run did not answer 202", { status: ex.status, body: ex.json }, { status: 202 }, ex);
    if (run.status?.type !== "pending") throw new ModelViolation("run-state-machine: a new run is not pending", run.status, { type: "pending" }, ex);
    observe(m, run.id, { ...run, mentions_count: 0, new_mentions_count: 0, images_count: 0, videos_count: 0, params: { count: run.requested_count ?? run.count } }, ex);
  }
  toString(): string {
    return `StartRun(${this.kind})`;
  }
}
