// Bench (D-REF-LATENCY): does simulated latency on one tenant cost another tenant
// anything? The server runs in its own process (`npm start` with
// PREFER_DELAY=true); account A keeps IN_FLIGHT requests open, each asking
// `Prefer: delay=400`, while account B sends cheap `GET /v1/prices` requests
// back to back on CLIENTS connections. B's p50/p99 and requests per second
// are measured alone, then under A's load, in one run, and printed with their
// ratio (timings on a shared machine are only comparable within one run).
//
//   npx tsx reference-impl/bench/latency-tenants.ts [--port P]   (default: a free port)
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { demoKeys } from "../src/fixtures/load.ts";
import { killChild, stopWithScript } from "../../scripts/lib/stop-on-signal.ts";
import { nextPort } from "./ports.ts";

const PHASE_MS = Number(process.env.PHASE_MS ?? 5000);
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 200);
const CLIENTS = Number(process.env.CLIENTS ?? 4);
const DELAY_MS = 400;
const keyOf = (account: string) => demoKeys().find((k) => k.account_id === account)!.api_key;

function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

async function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
  // node itself (tsx as an import hook): the PID stopped is the server's
  const child = stopWithScript(
    spawn(process.execPath, ["--import", "tsx", main, "--quiet", "--port", String(nextPort()), "--prefer-delay"], {
      env: { ...process.env, RATE_LIMIT_RPS: "1000000", STEP_DELAY_MS: "0", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  let out = "";
  for await (const chunk of child.stdout!) {
    out += String(chunk);
    const m = out.match(/on (http:\/\/[^\s]+)/);
    if (m) return { url: m[1]!, stop: () => killChild(child) };
  }
  throw new Error(`server did not start: ${out}`);
}

/** B: CLIENTS loops of back-to-back cheap requests until `until`; latencies in ms. */
async function probe(url: string, until: number): Promise<number[]> {
  const key = keyOf("acc_demoB");
  const samples: number[] = [];
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        const res = await fetch(`${url}/v1/prices`, { headers: { "x-api-key": key } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`B got ${res.status}`);
        samples.push(performance.now() - started);
      }
    }),
  );
  return samples;
}

/**
 * A: IN_FLIGHT workers in a loop. `held`: each request is held DELAY_MS by
 * the server (Prefer: delay). Otherwise the control: the same request rate,
 * each worker waiting DELAY_MS on its own side between requests, so the
 * difference between the two is the cost of holding, not of A's requests.
 */
function load(url: string, stop: { done: boolean }, held: boolean): Promise<number> {
  const key = keyOf("acc_demoA");
  let completed = 0;
  const worker = async () => {
    while (!stop.done) {
      const res = await fetch(`${url}/v1/datasets`, {
        headers: { "x-api-key": key, ...(held ? { prefer: `delay=${DELAY_MS}` } : {}) },
      });
      await res.arrayBuffer();
      completed++;
      if (!held) await new Promise((r) => setTimeout(r, DELAY_MS));
    }
  };
  return Promise.all(Array.from({ length: IN_FLIGHT }, worker)).then(() => completed);
}

const server = await startServer();
try {
  await probe(server.url, performance.now() + 1000); // warm-up
  const alone = await probe(server.url, performance.now() + PHASE_MS);
  const phase = async (held: boolean) => {
    const stop = { done: false };
    const aLoad = load(server.url, stop, held);
    await new Promise((r) => setTimeout(r, DELAY_MS + 100)); // A's workers are all going
    const samples = await probe(server.url, performance.now() + PHASE_MS);
    stop.done = true;
    return { samples, aCompleted: await aLoad };
  };
  const control = await phase(false);
  const { samples: withLoad, aCompleted } = await phase(true);

  const row = (name: string, s: number[]) =>
    `${name.padEnd(34)} p50 ${percentile(s, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(s, 99).toFixed(1).padStart(6)} ms   ${(s.length / (PHASE_MS / 1000)).toFixed(0).padStart(6)} req/s`;
  console.log(`B: GET /v1/prices on ${CLIENTS} connections, ${PHASE_MS} ms per phase`);
  console.log(row("alone", alone));
  console.log(row(`A same rate, no server delay`, control.samples));
  console.log(row(`A holding ${IN_FLIGHT} x ${DELAY_MS} ms delays`, withLoad));
  console.log(
    `A completed ${aCompleted} delayed requests (${(aCompleted / ((PHASE_MS + DELAY_MS + 100) / 1000)).toFixed(0)}/s, expected about ${((IN_FLIGHT * 1000) / DELAY_MS).toFixed(0)}/s)`,
  );
  const ratio = (a: number[], b: number[]) =>
    `p99 ${(percentile(a, 99) / percentile(b, 99)).toFixed(2)}x, throughput ${(a.length / b.length).toFixed(2)}x`;
  console.log(`ratio held / alone: ${ratio(withLoad, alone)}`);
  console.log(`ratio held / same rate without delay (the cost of holding itself): ${ratio(withLoad, control.samples)}`);
} finally {
  await server.stop();
  await Promise.race([once(process, "beforeExit"), new Promise((r) => setTimeout(r, 100))]);
}
