import type fc from "fast-check";
import { ModelViolation, observe, runOf, type RealSystem, type RunModel } from "./model.ts";

/** Read one run by id and check the transition from what the model last saw. */
export class PollRunCommand implements fc.AsyncCommand<RunModel, RealSystem> {
  constructor(readonly pick: number) {}
  check(m: Readonly<RunModel>): boolean {
    return m.runs.size > 0;
  }
  async run(m: RunModel, r: RealSystem): Promise<void> {
    const ids = m.ids();
    const id = ids[this.pick % ids.length];
    const ex = await r.ctx.req({ method: "GET", path: r.runPath(id) });
    r.last = ex;
    if (ex.status !== 200)
      throw new ModelViolation(
        `a started run cannot be read`,
        { status: ex.status, body: ex.json },
        { status: 200 },
        ex,
        "read",
      );
    observe(m, id, runOf(ex.json), ex);
    r.ctx.pass(ex);
  }
  toString(): string {
    return `PollRun(${this.pick})`;
  }
}
