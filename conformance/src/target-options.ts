// The options that say which deployment and which keys: the main command and
// `replay` take the same ones (same flags, same SLK_* variables).
import { Option, type Command } from "commander";

export function targetOptions(): Option[] {
  return [
    new Option("--base-url <url>", "deployment base URL (paths start with /v1)").env("SLK_BASE_URL"),
    new Option("--api-key <key>", "API key of the account under test").env("SLK_API_KEY"),
    new Option("--foreign-key <key>", "API key of another account (isolation checks)").env("SLK_FOREIGN_KEY"),
    new Option("--second-seat-key <key>", "API key of another seat of the same account").env("SLK_SECOND_SEAT_KEY"),
    new Option("--poor-key <key>", "API key of an account that cannot fund a large run (402 checks)").env(
      "SLK_POOR_KEY",
    ),
    new Option(
      "--bearer-token <token>",
      "OAuth access token for the MCP endpoint (bearer auth checks are skipped without it)",
    ).env("SLK_BEARER_TOKEN"),
  ];
}

/** Adds the target options to a command, in the order above; returns the command for chaining. */
export function withTargetOptions(cmd: Command): Command {
  for (const o of targetOptions()) cmd.addOption(o);
  return cmd;
}
