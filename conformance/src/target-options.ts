// The options that say which deployment and which keys: the main command and
// `replay` take the same ones (same flags, same SLK_* variables).
import { Option, type Command } from "commander";
import { RESERVED_HEADERS } from "./http.ts";
import { UsageError } from "./preflight.ts";

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

/** -H: a gateway's header on every request (the main command and `replay`). */
export function headerOption(): Option {
  return new Option(
    "-H, --header <header...>",
    "'Name: value' sent on every request (a gateway's header), repeatable; a header the kit or a check sets itself (Authorization of the bearer checks, Accept) wins; x-api-key, content-type and framing headers are refused. SLK_HEADERS: one per line",
  ).env("SLK_HEADERS");
}

/** -H values (or SLK_HEADERS, one per line) as headers; a malformed or reserved one is a usage error. */
export function headersOf(v: string | string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(/\r?\n/)).filter((s) => s.trim())) {
    const m = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s?(.*)$/.exec(line);
    if (!m) throw new UsageError(`-H ${JSON.stringify(line)}: expected 'Name: value'`);
    const name = m[1]!;
    if (RESERVED_HEADERS.includes(name.toLowerCase()))
      throw new UsageError(
        `-H ${name}: the kit sets this header itself${name.toLowerCase() === "x-api-key" ? " (give keys with --api-key and the other key options)" : ""}`,
      );
    out[name] = m[2]!.trim();
  }
  return out;
}
