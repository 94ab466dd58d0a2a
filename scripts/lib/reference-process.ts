// Start `npm start`'s server as a child process on a free 127.0.0.1 port
// (PORT=0), read its URL from the first line it prints, and stop it by its
// own PID. The child is node itself (tsx as an import hook), so its PID is the
// server's and /proc/<pid>/status gives the server's resident memory.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

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
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
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
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
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

/** `--name value` or `--name=value` from argv, else the fallback. */
export function arg(name: string, fallback: string): string {
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}`) return argv[i + 1] ?? fallback;
    if (argv[i]!.startsWith(`--${name}=`)) return argv[i]!.slice(name.length + 3);
  }
  return fallback;
}
