// Where the benchmarks' servers listen, and how they stop. `--port P` on the
// bench's command line (or BENCH_PORT): the servers it starts take P, P+1, …
// in the order they start; without it each takes a free port. Every child is
// stopped by its PID when the bench ends and when the bench itself gets
// SIGINT or SIGTERM (scripts/lib/stop-on-signal.ts).
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { stopWithScript } from "../../scripts/lib/stop-on-signal.ts";

function firstPort(): number {
  const i = process.argv.indexOf("--port");
  const raw = (i >= 0 ? process.argv[i + 1] : undefined) ?? process.env.BENCH_PORT ?? "0";
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) {
    console.error(`--port ${raw}: expected a whole number between 0 and 65535 (0: free ports)`);
    process.exit(2);
  }
  return port;
}

const first = firstPort();
let taken = 0;

/** The port of the next server a benchmark starts: 0 (a free one) unless --port was given. */
export function nextPort(): number {
  return first === 0 ? 0 : first + taken++;
}

/** A benchmark child on the next port (as BENCH_SERVER_PORT), killed with the bench. */
export function spawnServer(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const env = { ...process.env, ...(options.env ?? {}), BENCH_SERVER_PORT: String(nextPort()) };
  return stopWithScript(spawn(command, args, { ...options, env }));
}

/** The port a benchmark child listens on (BENCH_SERVER_PORT from its parent; 0: a free one). */
export function serverPort(): number {
  return Number(process.env.BENCH_SERVER_PORT ?? 0);
}
