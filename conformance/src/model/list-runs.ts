import type fc from "fast-check";
import { ModelViolation, observe, type RealSystem, type RunModel } from "./model.ts";

/** List the runs: every run the model knows appears once, each consistent with the model. */
export class ListRunsCommand implements fc.AsyncCommand<RunModel, RealSystem> {
  check(m: Readonly<RunModel>): boolean {
    return m.runs.size > 0;
  }
  async run(m: RunModel, r: RealSystem): Promise<void> {
    if (!r.listPath) return;
    const ex = await r.ctx.req({ method: "GET", path: `${r.listPath}?limit=100` });
    r.last = ex;
    const rows: any[] = (ex.json as any)?.data ?? [];
    for (const id of m.ids()) {
      const hits = rows.filter((x) => x?.id === id);
      if (hits.length !== 1)
        throw new ModelViolation(
          `${m.kind.check}: run ${id} listed ${hits.length} times`,
          rows.map((x) => x?.id),
          `${id} exactly once`,
          ex,
        );
      observe(m, id, hits[0], ex);
    }
    r.ctx.pass(ex);
  }
  toString(): string {
    return "ListRuns";
  }
}
