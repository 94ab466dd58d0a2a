// `--state FILE` against real server processes: fast-check writes a
// random sequence of operations (create, rename and delete datasets, start
// runs, pauses that let snapshots happen), then stops the server either
// cleanly (SIGTERM) or with SIGKILL at a random moment between snapshots,
// starts it again on the same file and compares what it lists with what the
// client saw acknowledged:
//   clean stop: everything acknowledged is there, exactly;
//   SIGKILL: what is there is exactly the state after some prefix of the
//     acknowledged operations, and that prefix holds every operation
//     acknowledged more than one snapshot interval (plus slack) before the kill.
// Always: no run is left pending or working, and balance + charges = the
// starting balance (nothing held, nothing charged for an interrupted run).
// Servers bind 127.0.0.1 on a free port and are stopped by their own PID.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KEYS } from "./helpers.ts";

const INTERVAL_MS = 300;
/** Timer jitter and save time on a shared machine (the suite runs this file beside the mutation shards and two other long files, on two cores). */
const SLACK_MS = 2000;
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`dev-backend-restart fast-check seed: ${seed} (replay with FC_SEED=${seed})`);

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));

interface Server {
  url: string;
  child: ChildProcess;
}

async function start(stateFile: string): Promise<Server> {
  // One process (tsx as a loader, not its CLI), so a SIGKILL hits the server itself.
  const child = spawn(
    process.execPath,
    ["--import", "tsx", MAIN, "--quiet", "--port", "0", "--scenario", "empty", "--state", stateFile],
    {
      // H17_SERVER_INTERVAL_MS lets a mutation check run the server with a longer interval than the test assumes (it must fail).
      env: {
        ...process.env,
        STATE_INTERVAL_MS: process.env.H17_SERVER_INTERVAL_MS ?? String(INTERVAL_MS),
        STEP_DELAY_MS: "0",
        RATE_LIMIT_RPS: "100000",
        LOG_LEVEL: "warn",
        HOST: "127.0.0.1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  let err = "";
  child.stderr!.on("data", (d) => (err += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s: ${out} ${err}`)), 60_000);
    child.stdout!.on("data", (d) => {
      out += d;
      const m = out.match(/on (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!, child });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening: ${err}`));
    });
  });
}

function stop(server: Server, signal: "SIGTERM" | "SIGKILL"): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null) return resolve();
    server.child.once("exit", () => resolve());
    server.child.kill(signal);
  });
}

async function api(server: Server, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { "x-api-key": KEYS.aOwner, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as any) : undefined };
}

type Stop = "SIGTERM" | "SIGKILL" | "SIGKILL-late";

type Op =
  | { kind: "create"; name: string }
  | { kind: "rename"; pick: number; name: string }
  | { kind: "delete"; pick: number }
  | { kind: "run"; pick: number }
  | { kind: "pause"; ms: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("create" as const), name: fc.string({ minLength: 1, maxLength: 12 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("rename" as const),
      pick: fc.nat(),
      name: fc.string({ minLength: 1, maxLength: 12 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("run" as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("pause" as const), ms: fc.integer({ min: 0, max: 2 * INTERVAL_MS }) }),
  },
);

/** The model: live datasets (id -> name) after each acknowledged operation, with the time of its acknowledgement. */
interface Acked {
  at: number;
  datasets: Map<string, string>;
  runs: Set<string>;
}

async function listDatasets(server: Server): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let cursor: string | null = null;
  do {
    const page = await api(server, "GET", `/v1/datasets?limit=100&order=asc${cursor ? `&cursor=${cursor}` : ""}`);
    for (const d of page.json.data) out.set(d.id, d.name);
    cursor = page.json.cursor;
  } while (cursor);
  return out;
}

describe("--state across restarts (SIGTERM and SIGKILL)", () => {
  it(
    "loses nothing on a clean stop and at most the last snapshot interval on SIGKILL",
    { timeout: 600_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "h17-restart-"));
      let round = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(opArb, { minLength: 1, maxLength: 12 }),
          fc.constantFrom<Stop>("SIGTERM", "SIGKILL", "SIGKILL-late"),
          fc.integer({ min: 0, max: 2 * INTERVAL_MS }),
          async (ops, stopMode, killAfterMs) => {
            const signal = stopMode === "SIGTERM" ? "SIGTERM" : "SIGKILL";
            // SIGKILL at a random moment between snapshots; SIGKILL-late once the last operation is older than an interval plus slack (nothing may be lost).
            if (stopMode === "SIGKILL-late") killAfterMs = INTERVAL_MS + SLACK_MS + 200;
            const file = join(dir, `state-${round++}.db`);
            let server = await start(file);
            const initial = (await api(server, "GET", "/v1/me")).json.data.usage.balance as number;
            const datasets = new Map<string, string>();
            const runs = new Set<string>();
            const acked: Acked[] = [{ at: performance.now(), datasets: new Map(), runs: new Set() }];
            try {
              for (const op of ops) {
                const ids = [...datasets.keys()];
                const pick = (n: number) => ids[n % ids.length];
                if (op.kind === "pause") {
                  await new Promise((r) => setTimeout(r, op.ms));
                  continue;
                }
                if (op.kind === "create") {
                  const res = await api(server, "POST", "/v1/datasets", { name: op.name });
                  datasets.set(res.json.data.id, op.name);
                } else if (ids.length === 0) continue;
                else if (op.kind === "rename") {
                  const id = pick(op.pick)!;
                  await api(server, "PATCH", `/v1/datasets/${id}`, { name: op.name });
                  datasets.set(id, op.name);
                } else if (op.kind === "delete") {
                  const id = pick(op.pick)!;
                  await api(server, "DELETE", `/v1/datasets/${id}`);
                  datasets.delete(id);
                } else {
                  const res = await api(server, "POST", `/v1/datasets/${pick(op.pick)}/runs`, {
                    search_query: { type: "prompt", sources: ["reddit"], search_query: "tea" },
                    count: 20,
                  });
                  expect(res.status).toBe(202);
                  runs.add(res.json.data.id);
                }
                acked.push({ at: performance.now(), datasets: new Map(datasets), runs: new Set(runs) });
              }
              if (signal === "SIGKILL") await new Promise((r) => setTimeout(r, killAfterMs));
              const killedAt = performance.now();
              await stop(server, signal);

              server = await start(file);
              const restored = await listDatasets(server);
              const same = (a: Map<string, string>, b: Map<string, string>) =>
                a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
              if (signal === "SIGTERM") {
                expect(restored).toEqual(datasets);
              } else {
                // The newest prefix whose datasets match what came back.
                let matched = -1;
                for (let k = acked.length - 1; k >= 0; k--)
                  if (same(acked[k]!.datasets, restored)) matched = matched < 0 ? k : matched;
                expect(
                  matched,
                  `restored datasets match no acknowledged prefix: ${JSON.stringify([...restored])}`,
                ).toBeGreaterThanOrEqual(0);
                const mustHave = acked.filter((a) => a.at < killedAt - INTERVAL_MS - SLACK_MS).length - 1;
                expect(
                  matched,
                  `only ${matched} of ${acked.length - 1} operations survived; ${mustHave} were acknowledged more than ${INTERVAL_MS + SLACK_MS} ms before the kill`,
                ).toBeGreaterThanOrEqual(mustHave);
              }
              // Runs: none pending or working; each one the client started (or none lost on a clean stop).
              let charged = 0;
              for (const id of restored.keys()) {
                for (const run of (await api(server, "GET", `/v1/datasets/${id}/runs?limit=100`)).json.data) {
                  expect(["completed", "failed"]).toContain(run.status.type);
                  expect(runs.has(run.id)).toBe(true);
                }
              }
              for (const row of (await api(server, "GET", "/v1/me/usage_history?limit=100")).json.data)
                charged += row.quantity;
              const balance = (await api(server, "GET", "/v1/me")).json.data.usage.balance as number;
              expect(Math.round((balance + charged) * 1e6)).toBe(Math.round(initial * 1e6));
            } finally {
              await stop(server, "SIGKILL");
            }
          },
        ),
        {
          seed,
          numRuns: Number(process.env.RESTART_RUNS ?? 6),
          endOnFailure: true,
          // Always exercised, whatever the seed draws: a kill after every operation is old enough to have been saved.
          examples: [
            [
              [
                { kind: "create", name: "a" },
                { kind: "run", pick: 0 },
                { kind: "create", name: "b" },
                { kind: "rename", pick: 0, name: "c" },
              ],
              "SIGKILL-late",
              0,
            ],
          ],
        },
      );
    },
  );
});
