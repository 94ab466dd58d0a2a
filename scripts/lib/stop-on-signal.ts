// A script that starts servers stops them when its own PID gets SIGINT or
// SIGTERM: every registered stop runs (children killed by PID, in-process
// servers closed), then the script exits 130 or 143. Without this a child
// server outlives the script that started it and keeps its port. A second
// signal, or stops that take longer than `graceMs`, exit at once.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";

type Stop = () => unknown;

const stops = new Set<Stop>();
const EXIT_CODE = { SIGINT: 130, SIGTERM: 143 } as const;
let installed = false;
let stopping = false;

/** Run `stop` when the script is told to stop; the returned function unregisters it (the script stopped it itself). */
export function stopOnSignal(stop: Stop, graceMs = 8000): () => void {
  stops.add(stop);
  if (!installed) {
    installed = true;
    for (const signal of ["SIGINT", "SIGTERM"] as const)
      process.on(signal, () => {
        const code = EXIT_CODE[signal];
        if (stopping) process.exit(code);
        stopping = true;
        console.error(`${signal}: stopping the servers this script started`);
        setTimeout(() => process.exit(code), graceMs).unref();
        void Promise.allSettled([...stops].map((s) => Promise.resolve().then(s))).then(() => process.exit(code));
      });
  }
  return () => stops.delete(stop);
}

/** SIGTERM to the child's PID, SIGKILL after `graceMs` if it is still there; resolves once it has exited. */
export async function killChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const hard = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(hard);
}

/** A child process that is killed with the script: registered until it exits. */
export function stopWithScript(child: ChildProcess): ChildProcess {
  const unregister = stopOnSignal(() => killChild(child));
  child.once("exit", unregister);
  return child;
}
