#!/usr/bin/env node
// sl-conformance: check a deployment of the Social Listening API against the contract.
// The flags are in cli/program.ts, their reading in cli/settings.ts, the run in cli/run.ts.
import { CommanderError } from "commander";
import { replayMain } from "./cassettes/replay-cli.ts";
import { UsageError } from "./preflight.ts";
import { buildProgram, type CliOptions } from "./cli/program.ts";
import { runFromOptions, usage } from "./cli/run.ts";
import { applyConfig } from "./cli/settings.ts";

export { buildProgram, type CliOptions } from "./cli/program.ts";
export { CONFIG_FILE, applyConfig, settingsFrom } from "./cli/settings.ts";
export { coverageVerdict } from "./cli/coverage.ts";

export async function main(argv = process.argv): Promise<number> {
  if (argv[2] === "replay") return replayMain(argv.slice(3));
  const program = buildProgram();
  program.exitOverride();
  program.configureOutput({
    writeErr: (str) => process.stderr.write(str.startsWith("error:") ? `sl-conformance: ${str.slice(7)}` : str),
  });
  try {
    program.parse(argv);
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    throw e;
  }
  try {
    const configFile = applyConfig(program, program.opts<CliOptions>().config);
    return await runFromOptions(program.opts<CliOptions>(), configFile);
  } catch (e) {
    if (e instanceof UsageError) return usage(e.message);
    throw e;
  }
}

const invokedDirectly = process.argv[1] && /cli\.ts$/.test(process.argv[1]);
if (invokedDirectly || process.env.SLK_CLI_ENTRY === "1") {
  main().then(
    // exit once stdout has drained: on a pipe a long --list or report could otherwise be cut short
    (code) => process.stdout.write("", () => process.exit(code)),
    (e) => {
      // an unexpected crash of the kit itself: one line, the stack only with SLK_DEBUG
      console.error(`sl-conformance: ${(e as Error)?.message ?? e}`);
      if (process.env.SLK_DEBUG) console.error(e);
      process.exit(2);
    },
  );
}
