// Start `npm start`'s server as a child process on 127.0.0.1 (PORT=0: a free
// port, unless the script was given --port), read its URL from the first line
// it prints, and stop it by its own PID, also when the script itself is told
// to stop (SIGINT, SIGTERM). The child is node itself (tsx as an import hook),
// so its PID is the server's and /proc/<pid>/status gives its resident memory.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { killChild, stopWithScript } from "./stop-on-signal.ts";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface ReferenceProcess {
  url: string;
  pid: number;
  /** Resident set size in bytes (Linux /proc), or undefined elsewhere. */
  rss(): number | undefined;
  /** Everything the server wrote to stderr (warnings, faults). */
  stderr(): string;
  stop(): Promise<void>;
}

export async function startReference(env: Record<string, string> = {}, startupMs = 60_000): Promise<ReferenceProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "reference-impl/src/main.ts")],
    {
      cwd: root,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_REQUESTS: "false", ...env },
      // the IPC channel closes when this script ends in any way: the server then stops itself (main.ts)
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    },
  );
  stopWithScript(child);
  child.channel?.unref(); // the channel alone never keeps this script running
  let out = "";
  let err = "";
  child.stderr!.on("data", (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`reference did not start in ${startupMs} ms: ${err}`)), startupMs);
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`reference exited with ${code}: ${err}`));
    });
  });
  child.stdout!.resume();
  return {
    url,
    pid: child.pid!,
    rss() {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        return m ? Number(m[1]) * 1024 : undefined;
      } catch {
        return undefined;
      }
    },
    stderr: () => err,
    stop: () => killChild(child),
  };
}

export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

export function demoKeys(): { api_key: string; account_id: string }[] {
  return JSON.parse(readFileSync(path.join(root, "fixtures/demo-keys.json"), "utf8")).keys;
}

/**
 * `--port N` of a script that starts a server: 0 (the default) lets the
 * system pick a free port. A value that is not a port stops the script.
 */
export function portArg(): number {
  const raw = arg("port", "0");
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) {
    console.error(`--port ${raw}: expected a whole number between 0 and 65535 (0: a free port)`);
    process.exit(2);
  }
  return port;
}

/** `--help`: print the script's usage (its header comment, kept beside the code) and exit 0. */
export function helpOnRequest(usage: string): void {
  if (process.argv.includes("--help") || process.argv.includes("-h")) {
    console.log(usage.trim());
    process.exit(0);
  }
}

/** `--name value` or `--name=value` from argv, else the fallback. */
export function arg(name: string, fallback: string): string {
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}`) return argv[i + 1] ?? fallback;
    if (argv[i]!.startsWith(`--${name}=`)) return argv[i]!.slice(name.length + 3);
  }
  return fallback;
}
