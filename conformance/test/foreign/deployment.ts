// A foreign implementation of the seed (another team's code in
// ../shared/foreign/<name>/, never edited, never special-cased by the kit),
// started as a child process on a free 127.0.0.1 port and stopped by its PID.
// Its README gives the start command and the demo keys; they are read here
// once, as a stranger's deployment would be configured.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { freePort, type Target } from "../helpers.ts";
import type { Settings } from "../../src/types.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** Where the foreign implementations live: beside the repository (SLK_FOREIGN_DIR overrides). */
export function foreignDir(name: string): string {
  return path.resolve(process.env.SLK_FOREIGN_DIR ?? path.join(root, "../shared/foreign"), name);
}

export const foreignPresent = (name: string): boolean => existsSync(path.join(foreignDir(name), "server.mjs"));

/** cleanroom-a's keys, as its README lists them. */
export const CLEANROOM_A_KEYS: Settings["keys"] = {
  main: "sl_test_demoA_owner_4f8b2c91d7e3a6",
  second: "sl_test_demoA_member_9c1e7a3f52b8d0",
  foreign: "sl_test_demoB_owner_2d6f0b8e4a9c17",
  poor: "sl_test_poor_owner_7a3d5e1c9f0b42",
};
export const CLEANROOM_A_BEARER = "cleanroom-bearer-A";

/** Start `node server.mjs` of a foreign implementation with PORT and the given environment; resolves once it answers. */
export async function startForeign(
  name: string,
  env: Record<string, string> = {},
): Promise<Target & { child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(foreignDir(name), "server.mjs")], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${stderr.slice(0, 500)}`);
    try {
      await fetch(`${baseUrl}/openapi.json`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${name} did not answer within 20 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    baseUrl,
    child,
    close: async () => {
      if (child.exitCode !== null) return;
      const done = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await done;
    },
  };
}
