import type fc from "fast-check";
import { isObject } from "../typed.ts";
import { ModelViolation, observe, runOf, type RealSystem, type RunModel } from "./model.ts";

/** Start a run of the model's kind (one of the real system's input variants); it must be accepted in the kind's pending state. */
export class StartRunCommand implements fc.AsyncCommand<RunModel, RealSystem> {
  constructor(readonly variant: string) {}
  check(m: Readonly<RunModel>): boolean {
    return m.started < m.maxStarts;
  }
  async run(m: RunModel, r: RealSystem): Promise<void> {
    const n = m.started++;
    const ex = await r.start(this.variant, n);
    r.last = ex;
    const { id, run } = r.created(ex);
    if (ex.status < 200 || ex.status >= 300 || typeof id !== "string")
      throw new ModelViolation(
        `starting a run did not succeed`,
        { status: ex.status, body: ex.json },
        { status: 202 },
        ex,
        "start",
      );
    if (run) {
      const type = m.kind.statusAt === "status" ? run.status : isObject(run.status) ? run.status.type : undefined;
      if (type !== m.kind.states.pending)
        throw new ModelViolation(
          `a new run is not ${m.kind.states.pending}`,
          run.status,
          { type: m.kind.states.pending },
          ex,
          "start-state",
        );
      observe(m, id, { ...run, ...Object.fromEntries(m.kind.counts.map((c) => [c, 0])) }, ex);
    } else {
      const read = await r.ctx.req({ method: "GET", path: r.runPath(id) });
      r.last = read;
      if (read.status !== 200)
        throw new ModelViolation(
          "a started run cannot be read",
          { status: read.status, body: read.json },
          { status: 200 },
          read,
          "read",
        );
      observe(m, id, runOf(read.json), read);
    }
    r.ctx.pass(ex);
  }
  toString(): string {
    return `StartRun(${this.variant})`;
  }
}
