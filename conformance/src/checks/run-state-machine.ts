import fc from "fast-check";
import type { ActiveCheck } from "../types.ts";
import { sleep } from "../http.ts";
import { ListRunsCommand } from "../model/list-runs.ts";
import { ModelViolation, RunModel, isTerminal, observe, type RealSystem } from "../model/model.ts";
import { PollRunCommand } from "../model/poll-run.ts";
import { StartRunCommand } from "../model/start-run.ts";
import { WaitCommand } from "../model/wait.ts";
import { RUN_COUNT, mentionPrice } from "./_billing.ts";
import { fixtureDataset } from "./_util.ts";

/**
 * Model-based (fc.asyncModelRun): random sequences of start / poll / list /
 * wait commands; after the sequence every run is polled to its end.
 */
const check: ActiveCheck = {
  kind: "active",
  id: "run-state-machine",
  rule: "Dataset runs move only pending → working → completed | failed; terminal states never change; step timestamps never go back; counts never shrink and stay consistent",
  section: "States and transitions › Dataset run; Resources › Dataset run",
  severity: "critical",
  profiles: ["standard", "full"],
  mock: false,
  requires: ["POST /v1/datasets/{dataset_id}/runs", "GET /v1/datasets/{dataset_id}/runs/{run_id}", "GET /v1/datasets/{dataset_id}/runs"],
  async run(ctx) {
    const full = ctx.settings.profile === "full";
    const numRuns = full ? Math.max(2, Math.min(ctx.settings.numRuns, 5)) : 1;
    const maxStarts = 2;
    const { price } = ctx.contract.op("GET /v1/prices") ? await mentionPrice(ctx) : { price: undefined };
    if (price) ctx.charge(price.mul(RUN_COUNT * maxStarts * numRuns).toFixed(), `run-state-machine: up to ${maxStarts * numRuns} runs of ${RUN_COUNT}`);
    else ctx.mutates("dataset runs");
    const ds = await fixtureDataset(ctx);
    const runPath = (id: string) => `/v1/datasets/${encodeURIComponent(ds.id)}/runs/${encodeURIComponent(id)}`;
    const commands = fc.commands(
      [
        fc.constantFrom<"keyword" | "unretrievable">("keyword", "unretrievable").map((k) => new StartRunCommand(k)),
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
        const model = new RunModel(maxStarts);
        const real: RealSystem = { ctx, datasetId: ds.id, runPath };
        try {
          // make sure each sequence exercises at least one run
          await new StartRunCommand("keyword").run(model, real);
          await fc.asyncModelRun(() => ({ model, real }), cmds);
          // settle: every run reaches a terminal state, every observation checked
          const deadline = Date.now() + ctx.settings.runTimeoutMs;
          for (const id of model.ids()) {
            while (!isTerminal(model.runs.get(id)!.type)) {
              if (Date.now() > deadline) throw new ModelViolation(`run-state-machine: run ${id} did not finish within ${ctx.settings.runTimeoutMs / 1000}s`, model.runs.get(id)!.type, "completed | failed", real.last);
              await sleep(300);
              const ex = await ctx.req({ method: "GET", path: runPath(id) });
              real.last = ex;
              observe(model, id, (ex.json as any)?.data, ex);
            }
          }
          // terminal stays terminal
          for (const id of model.ids()) {
            const ex = await ctx.req({ method: "GET", path: runPath(id) });
            observe(model, id, (ex.json as any)?.data, ex);
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
      const v = violation;
      const trace = out.counterexample?.[0]?.toString();
      if (!v) throw out.errorInstance instanceof Error ? out.errorInstance : new Error(String(out.errorInstance));
      ctx.fail({ title: v.title, received: v.received, expected: v.expected, message: `commands: StartRun(keyword), ${trace}`, seed, path: out.counterexamplePath ?? undefined }, v.ex);
    }
  },
};
export default check;
