// `npm start &` then `kill $!` must stop the server: the signal reaches npm's
// PID, and nothing npm started may stay behind answering on the port. Run
// with the machine's own npm (node_modules/.bin left out of PATH), as a user
// or a CI script would. Linux only for the process tree (/proc).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { connect, createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** PATH without the repository's node_modules/.bin: npm and node as the machine has them. */
function machinePath(): string {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((p) => !p.includes(`${path.sep}node_modules${path.sep}.bin`))
    .join(path.delimiter);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Every live process below `pid` (zombies already dead are left out), from /proc. */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state !== "Z") parent.set(Number(entry), Number(ppid));
    } catch {
      // gone while we read
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, pp] of parent) if (pp === p) (out.push(child), walk(child));
  };
  walk(pid);
  return out;
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Whether anything accepts a connection on 127.0.0.1:port. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.setTimeout(1000);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}

/** Whether this process can listen on the port (nobody holds it). */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

/** Start `npm <args>`, wait (bounded) until the port answers, return the npm process and what it started. */
async function startNpm(args: string[], port: number, env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(npm, args, {
    cwd: root,
    env: { ...process.env, PATH: machinePath(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  for (let i = 0; i < 240 && !(await answers(port)); i++) {
    if (child.exitCode !== null) throw new Error(`npm ${args.join(" ")} exited early:\n${out}`);
    await sleep(250);
  }
  if (!(await answers(port))) {
    child.kill("SIGKILL");
    throw new Error(`npm ${args.join(" ")} did not listen on ${port} within 60 s:\n${out}`);
  }
  return { child, exited, tree: descendants(child.pid!), output: () => out };
}

/** Kill npm's PID with `signal`; afterwards nothing it started runs and the port is free. */
async function stopAndCheck(started: Awaited<ReturnType<typeof startNpm>>, signal: NodeJS.Signals, port: number) {
  const { child, exited, tree } = started;
  expect(tree.length, "npm started its script").toBeGreaterThan(0);
  process.kill(child.pid!, signal);
  const result = await Promise.race([exited, sleep(15_000).then(() => undefined)]);
  const leftovers = async () => {
    for (let i = 0; i < 40 && tree.some(alive); i++) await sleep(250);
    return tree.filter(alive);
  };
  try {
    expect(result, `npm did not exit within 15 s of ${signal}:\n${started.output()}`).toBeDefined();
    expect(result!.code, started.output()).toBe(0);
    expect(await leftovers(), "processes npm started that outlived it").toEqual([]);
    expect(await answers(port), "something still answers on the port").toBe(false);
    expect(await bindable(port), "the port is free again").toBe(true);
  } finally {
    for (const pid of [child.pid!, ...tree].filter(alive)) process.kill(pid, "SIGKILL");
  }
}

describe.runIf(process.platform === "linux" && existsSync("/proc/self/stat"))("processes that stop", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const)
    it(`npm start stops on ${signal} sent to npm's PID: no orphan, the port free`, async () => {
      const port = await freePort();
      const started = await startNpm(["start", "--", "--quiet"], port, { PORT: String(port) });
      expect(started.output()).toMatch(new RegExp(`reference server on http://127\\.0\\.0\\.1:${port}`));
      await stopAndCheck(started, signal, port);
    }, 90_000);

  it("npm run mock stops on SIGTERM sent to npm's PID: Prism too", async () => {
    const port = await freePort();
    const started = await startNpm(["run", "mock", "--", "--port", String(port)], port);
    await stopAndCheck(started, "SIGTERM", port);
  }, 90_000);
});
