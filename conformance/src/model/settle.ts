import fc from "fast-check";
import { sleep } from "../http.ts";
import type { CheckContext } from "../types.ts";
import { ListRunsCommand } from "./list-runs.ts";
import {
  ModelViolation,
  RunModel,
  observe,
  runOf,
  type RealSystem,
  type RunKindModel,
  type ViolationRule,
} from "./model.ts";
import { PollRunCommand } from "./poll-run.ts";
import { StartRunCommand } from "./start-run.ts";
import { WaitCommand } from "./wait.ts";

export interface StateMachineOptions {
  kind: RunKindModel;
  real: () => Promise<RealSystem> | RealSystem;
  /** input variants StartRun picks from (the first starts every sequence) */
  variants: string[];
  maxStarts: number;
  /**
   * The check's assertion each kind of violation judges (a converted check's
   * `judges`); undefined for a kind the check does not hold a deployment to,
   * which is then reported as not exercised, never as a failure.
   */
  judges?: (rule: ViolationRule | undefined) => string | undefined;
}

/** Read a run the sequence started: any answer but 200 is the violation that it cannot be read. */
async function readStarted(ctx: CheckContext, real: RealSystem, id: string) {
  const ex = await ctx.req({ method: "GET", path: real.runPath(id) });
  if (ex.status !== 200)
    throw new ModelViolation(
      "a started run cannot be read",
      { status: ex.status, body: ex.json },
      { status: 200 },
      ex,
      "read",
    );
  return ex;
}

/**
 * Random sequences of start / poll / list / wait (`fc.asyncModelRun`), then
 * every run polled to its end and read once more (terminal stays terminal).
 * Any run kind: a check supplies its model and real system. Failures are
 * reported under `kind.check` with the seed, path and command trace.
 */
export async function runStateMachine(ctx: CheckContext, o: StateMachineOptions): Promise<void> {
  const full = ctx.settings.profile === "full";
  const numRuns = full ? Math.max(2, Math.min(ctx.settings.numRuns, 5)) : 1;
  const commands = fc.commands(
    [
      fc.constantFrom(...o.variants).map((v) => new StartRunCommand(v)),
      fc.nat(7).map((i) => new PollRunCommand(i)),
      fc.constant(new ListRunsCommand()),
      fc.integer({ min: 100, max: 700 }).map((ms) => new WaitCommand(ms)),
    ],
    { maxCommands: full ? 14 : 8 },
  );
  let violation: ModelViolation | undefined;
  const seed = ctx.fcSeed();
  const out = await fc.check(
    fc.asyncProperty(commands, async (cmds) => {
      const model = new RunModel(o.kind, o.maxStarts);
      const real = await o.real();
      try {
        // every sequence exercises at least one run
        await new StartRunCommand(o.variants[0]).run(model, real);
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        const deadline = Date.now() + ctx.settings.runTimeoutMs;
        for (const id of model.ids()) {
          while (!model.isTerminal(model.runs.get(id)!.type)) {
            if (Date.now() > deadline)
              throw new ModelViolation(
                `run ${id} did not finish within ${ctx.settings.runTimeoutMs / 1000}s`,
                model.runs.get(id)!.type,
                `${o.kind.states.completed} | ${o.kind.states.failed}`,
                real.last,
                "finish",
              );
            await sleep(300);
            const ex = await readStarted(ctx, real, id);
            real.last = ex;
            observe(model, id, runOf(ex.json), ex);
          }
        }
        for (const id of model.ids()) {
          const ex = await readStarted(ctx, real, id);
          observe(model, id, runOf(ex.json), ex);
          ctx.pass(ex);
        }
        return true;
      } catch (e) {
        if (e instanceof ModelViolation) violation = e;
        throw e;
      }
    }),
    { seed, numRuns, endOnFailure: true, path: ctx.settings.fcPath },
  );
  if (out.failed) {
    if (!violation) throw out.errorInstance instanceof Error ? out.errorInstance : new Error(String(out.errorInstance));
    const trace = out.counterexample?.[0]?.toString();
    const judges = o.judges?.(violation.rule);
    if (o.judges && judges === undefined)
      return ctx.notExercised(`${violation.title} (not a rule this check holds the deployment to)`);
    ctx.fail(
      {
        judges,
        title: violation.title,
        received: violation.received,
        expected: violation.expected,
        message: `commands: StartRun(${o.variants[0]}), ${trace}`,
        seed,
        path: out.counterexamplePath ?? undefined,
      },
      violation.ex,
    );
  }
}
