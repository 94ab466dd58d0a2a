import type fc from "fast-check";
import { isObject } from "../typed.ts";
import { ModelViolation, observe, type RealSystem, type RunModel } from "./model.ts";

/** The rows of a list answer as sent; no `data` reads as no rows, a `data` that is not an array stops the sequence. */
function listRows(json: unknown): unknown[] {
  const data = isObject(json) ? json.data : undefined;
  if (data === undefined || data === null) return [];
  if (!Array.isArray(data)) throw new TypeError(`a run list's data is not an array: ${JSON.stringify(data)}`);
  return data;
}

/** List the runs: every run the model knows appears once, each consistent with the model. */
export class ListRunsCommand implements fc.AsyncCommand<RunModel, RealSystem> {
  check(m: Readonly<RunModel>): boolean {
    return m.runs.size > 0;
  }
  async run(m: RunModel, r: RealSystem): Promise<void> {
    if (!r.listPath) return;
    const ex = await r.ctx.req({ method: "GET", path: `${r.listPath}?limit=100` });
    r.last = ex;
    const rows = listRows(ex.json);
    for (const id of m.ids()) {
      const hits = rows.filter((x) => isObject(x) && x.id === id);
      if (hits.length !== 1)
        throw new ModelViolation(
          `run ${id} listed ${hits.length} times`,
          rows.map((x) => (isObject(x) ? x.id : undefined)),
          `${id} exactly once`,
          ex,
          "list",
        );
      observe(m, id, hits[0], ex);
    }
    r.ctx.pass(ex);
  }
  toString(): string {
    return "ListRuns";
  }
}
