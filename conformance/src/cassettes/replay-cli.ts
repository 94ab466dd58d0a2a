// The `replay` subcommand: sl-conformance replay FILE.har --base-url URL [keys].
// Exit 1 when the finding shows again, 0 when the check now passes, 2 for a usage error.
import { readFileSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import { checkBaseUrl, UsageError } from "../preflight.ts";
import { parseCassette } from "./har.ts";
import { replay, ReplayUsageError } from "./replay.ts";
import { headerOption, headersOf, withTargetOptions } from "../target-options.ts";

export function replayProgram(): Command {
  return withTargetOptions(new Command("sl-conformance replay"))
    .description(
      "Send a finding's HAR cassette again to a deployment and judge the same check (exit 1: the finding shows again, 0: the check passes)",
    )
    .argument("<file>", "a cassette from <report>/cassettes/")
    .addOption(headerOption())
    .addOption(
      new Option("--request-timeout <seconds>", "how long one request may take")
        .default("30")
        .env("SLK_REQUEST_TIMEOUT"),
    )
    .addOption(new Option("--no-rerun", "active checks: only re-send the cassette, do not run the check itself again"));
}

/** The options of `replay` as the program hands them over. */
interface ReplayOptions {
  baseUrl?: string;
  apiKey?: string;
  foreignKey?: string;
  secondSeatKey?: string;
  poorKey?: string;
  bearerToken?: string;
  header?: string | string[];
  requestTimeout?: string;
  rerun?: boolean;
}

export async function replayMain(argv: string[]): Promise<number> {
  const program = replayProgram();
  program.exitOverride();
  program.configureOutput({
    writeErr: (str) => process.stderr.write(str.startsWith("error:") ? `sl-conformance replay: ${str.slice(7)}` : str),
  });
  try {
    program.parse(argv, { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    throw e;
  }
  const o = program.opts<ReplayOptions>();
  const file = program.args[0];
  const usage = (m: string) => (console.error(`sl-conformance replay: ${m}`), 2);
  if (!o.baseUrl) return usage("--base-url (or SLK_BASE_URL) is required");
  try {
    checkBaseUrl(o.baseUrl);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      return usage(`cannot read ${file}: ${(e as Error).message}`);
    }
    const har = parseCassette(text, file);
    const info = har.log._slConformance;
    console.log(`replay ${file}: ${info.title}`);
    console.log(
      `  recorded against ${info.baseUrl} (run ${info.runId}, seed ${info.seed}); ${har.log.entries.length} exchange(s), the finding is about #${info.failing + 1}`,
    );
    const out = await replay(har, {
      baseUrl: o.baseUrl,
      keys: { main: o.apiKey, second: o.secondSeatKey, foreign: o.foreignKey, poor: o.poorKey },
      bearerToken: o.bearerToken,
      headers: o.header ? headersOf(o.header) : undefined,
      rerun: o.rerun !== false,
      requestTimeoutMs: Number(o.requestTimeout) * 1000,
      log: (l) => console.log(`  ${l}`),
    });
    for (const v of out.verdict) console.log(`  ${v}`);
    if (out.cleanup.deleted || out.cleanup.failed.length)
      console.log(
        `  cleanup: deleted ${out.cleanup.deleted}${out.cleanup.failed.length ? `; could not delete ${out.cleanup.failed.join(", ")}` : ""}`,
      );
    console.log(
      out.reproduced ? `REPRODUCED ${out.check}` : `NOT REPRODUCED ${out.check}: the check passes against ${o.baseUrl}`,
    );
    return out.reproduced ? 1 : 0;
  } catch (e) {
    if (e instanceof ReplayUsageError || e instanceof UsageError) return usage(e.message);
    if (e instanceof Error && /is not (JSON|a HAR|.*cassette)/.test(e.message)) return usage(e.message);
    throw e;
  }
}
