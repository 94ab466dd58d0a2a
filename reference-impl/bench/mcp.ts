// Bench: MCP `tools/call svc__get_dataset` through the whole stack (Hono,
// Host/Origin guard, key lookup, rate limit, body guards, JSON-RPC reading
// and the quick tools/call path of mcp/quick-call.ts, the answer read to its end)
// against `GET /v1/datasets/{id}` on the same app, in the same process and
// run, two ways:
//  1. over HTTP: one reference server (bench/server.ts, a child process on
//     127.0.0.1, stopped by PID) answers both, driven by autocannon with 32
//     connections; this is the figure the goal is judged on (MCP throughput
//     >= 50% of REST), since every real call pays the socket and HTTP parsing;
//  2. in process through app.fetch without a socket: the server's own work
//     only, measured in alternating slices so drift (JIT, GC) hits both alike.
//     REST's handler is a map lookup here, so this ratio shows the MCP
//     protocol's fixed cost (reading a JSON body, the tool argument and
//     result schemas, the JSON-RPC envelope).
// Also timed: tools/list the first time (the fifteen zod -> JSON Schema
// conversions) and afterwards (served from the cache).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { Hono } from "hono";
import { createApp } from "../src/app.ts";
import { demoKeys } from "../src/fixtures/load.ts";
import { ManualClock } from "../src/platform/clock.ts";
import { killChild } from "../../scripts/lib/stop-on-signal.ts";
import { spawnServer } from "./ports.ts";

const SLICE_MS = Number(process.env.BENCH_MCP_SLICE_MS ?? 500);
const SLICES = Number(process.env.BENCH_MCP_SLICES ?? 8);
const GOAL = 0.5;
const HTTP_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const HTTP_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MCP_HEADERS = {
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
  "mcp-protocol-version": "2025-06-18",
};

/** CPU seconds the process has used (user + system), from /proc; undefined off Linux. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in USER_HZ (100)
  } catch {
    return undefined;
  }
}

interface HttpFigure {
  /** requests per wall second, as autocannon drove them */
  rps: number;
  /** requests per CPU second of the server process: its capacity, whatever the client's own speed */
  perCpuSecond?: number;
}

/** REST and MCP against one server process, autocannon on 127.0.0.1. */
async function overHttp(): Promise<{ rest: HttpFigure; mcp: HttpFigure }[]> {
  const script = fileURLToPath(new URL("./server.ts", import.meta.url));
  const child = spawnServer(process.execPath, ["--import", "tsx", script, "full"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    let buffer = "";
    let info: { port: number; path: string; key: string } | undefined;
    child.stdout!.setEncoding("utf8");
    for await (const chunk of child.stdout!) {
      buffer += chunk;
      const line = buffer.split("\n").find((l) => l.startsWith("{"));
      if (line) {
        info = JSON.parse(line);
        break;
      }
    }
    if (!info) throw new Error("bench server exited before listening");
    const datasetId = info.path.split("/").pop()!;
    const base = `http://127.0.0.1:${info.port}`;
    const rest = { url: `${base}${info.path}`, headers: { "x-api-key": info.key } };
    const mcp = {
      url: `${base}/mcp/`,
      method: "POST" as const,
      headers: { "x-api-key": info.key, ...MCP_HEADERS },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "svc__get_dataset", arguments: { dataset_id: datasetId } },
      }),
    };
    const pid = child.pid!;
    const cannon = async (opts: object, duration: number): Promise<HttpFigure> => {
      const cpu0 = cpuSeconds(pid);
      // method and body are autocannon options its minimal typing (autocannon.d.ts) leaves out.
      const r = await autocannon({ ...opts, connections: 32, duration } as Parameters<typeof autocannon>[0]);
      const cpu1 = cpuSeconds(pid);
      if (r.non2xx > 0) throw new Error(`${r.non2xx} non-2xx answers`);
      const cpu = cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : undefined;
      return { rps: r.requests.average, perCpuSecond: cpu ? r.requests.total / cpu : undefined };
    };
    await cannon(rest, 1);
    await cannon(mcp, 1);
    // A shared, noisy machine: REST and MCP alternate in rounds and the
    // ratio is taken inside each round (the median round is reported).
    const rounds: { rest: HttpFigure; mcp: HttpFigure }[] = [];
    for (let r = 0; r < HTTP_ROUNDS; r++)
      rounds.push({ rest: await cannon(rest, HTTP_SECONDS), mcp: await cannon(mcp, HTTP_SECONDS) });
    return rounds;
  } finally {
    await killChild(child);
  }
}

function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

export async function mcpBench(): Promise<string> {
  const clock = new ManualClock(Date.UTC(2026, 10, 2, 9, 0, 0));
  const { app, services } = createApp({
    clock,
    rateLimitPerSecond: 1_000_000_000,
    stepDelayMs: 0,
    seedDatasets: false,
    logger: () => {},
  });
  const key = demoKeys().find((k) => k.account_id === "acc_demoA")!.api_key;
  const dataset = services.datasets.insert("acc_demoA", "Bench");

  const rest = async () => {
    const res = await app.request(`http://localhost/v1/datasets/${dataset.id}`, { headers: { "x-api-key": key } });
    if (res.status !== 200) throw new Error(`REST answered ${res.status}`);
    await res.arrayBuffer();
  };
  const rpc = (method: string, params: unknown) =>
    app.request("http://localhost/mcp/", {
      method: "POST",
      headers: { "x-api-key": key, ...MCP_HEADERS },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
  const mcp = async () => {
    const res = await rpc("tools/call", { name: "svc__get_dataset", arguments: { dataset_id: dataset.id } });
    const text = await res.text();
    if (res.status !== 200 || !text.includes(dataset.id) || text.includes('"isError":true'))
      throw new Error(`MCP answered ${res.status}: ${text.slice(0, 200)}`);
  };

  // Context: what any JSON POST costs through app.fetch (a bare Hono route
  // echoing the same body), against a bare GET; MCP can only be a POST.
  const bare = new Hono();
  bare.post("/echo", async (c) => c.json(JSON.parse(await c.req.text())));
  bare.get("/echo", (c) => c.json({ id: dataset.id }));
  const bareBody = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "svc__get_dataset", arguments: { dataset_id: dataset.id } },
  });
  const barePost = async () =>
    (
      await bare.request("http://localhost/echo", { method: "POST", headers: MCP_HEADERS, body: bareBody })
    ).arrayBuffer();
  const bareGet = async () => (await bare.request("http://localhost/echo")).arrayBuffer();
  const meanUs = async (fn: () => Promise<unknown>, n: number) => {
    for (let i = 0; i < 1000; i++) await fn();
    const start = performance.now();
    for (let i = 0; i < n; i++) await fn();
    return ((performance.now() - start) / n) * 1000;
  };
  const floorPost = await meanUs(barePost, 20_000);
  const floorGet = await meanUs(bareGet, 20_000);

  // tools/list: first call converts the schemas, later calls reuse them.
  let t0 = performance.now();
  await (await rpc("tools/list", {})).text();
  const listCold = performance.now() - t0;
  const listWarmSamples: number[] = [];
  for (let i = 0; i < 50; i++) {
    t0 = performance.now();
    await (await rpc("tools/list", {})).text();
    listWarmSamples.push(performance.now() - t0);
  }

  for (let i = 0; i < 200; i++) {
    await rest();
    await mcp();
  }

  const totals = { rest: { n: 0, ms: 0, samples: [] as number[] }, mcp: { n: 0, ms: 0, samples: [] as number[] } };
  for (let s = 0; s < SLICES; s++) {
    for (const [name, fn] of [
      ["rest", rest],
      ["mcp", mcp],
    ] as const) {
      const bucket = totals[name];
      const start = performance.now();
      while (performance.now() - start < SLICE_MS) {
        const a = performance.now();
        await fn();
        bucket.samples.push(performance.now() - a);
        bucket.n++;
      }
      bucket.ms += performance.now() - start;
    }
  }
  const restRps = totals.rest.n / (totals.rest.ms / 1000);
  const mcpRps = totals.mcp.n / (totals.mcp.ms / 1000);
  const rounds = await overHttp();
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const httpRatio = median(rounds.map((r) => r.mcp.rps / r.rest.rps));
  const cpuRatios = rounds.map((r) =>
    r.mcp.perCpuSecond && r.rest.perCpuSecond ? r.mcp.perCpuSecond / r.rest.perCpuSecond : undefined,
  );
  const capacity = cpuRatios.every((x) => x !== undefined)
    ? `; per server CPU second ${(median(cpuRatios as number[]) * 100).toFixed(0)}%`
    : "";
  const roundLines = rounds.map(
    (r, i) =>
      `  round ${i + 1}: REST ${r.rest.rps.toFixed(0)} req/s, MCP ${r.mcp.rps.toFixed(0)} req/s: ${((r.mcp.rps / r.rest.rps) * 100).toFixed(0)}%` +
      (r.rest.perCpuSecond && r.mcp.perCpuSecond
        ? ` (per server CPU second REST ${r.rest.perCpuSecond.toFixed(0)}, MCP ${r.mcp.perCpuSecond.toFixed(0)})`
        : ""),
  );
  return [
    `MCP tools/call svc__get_dataset vs GET /v1/datasets/{id}, one server, autocannon 32 connections x ${HTTP_SECONDS} s on 127.0.0.1, ${HTTP_ROUNDS} rounds:`,
    ...roundLines,
    `  median of rounds: MCP / REST ${(httpRatio * 100).toFixed(0)}%  (target >= ${GOAL * 100}%: ${httpRatio >= GOAL ? "met" : "NOT met"})${capacity}`,
    `  in process without a socket (${SLICES} alternating slices of ${SLICE_MS} ms): REST ${restRps.toFixed(0)} req/s (p50 ${percentile(totals.rest.samples, 50).toFixed(3)} ms), MCP ${mcpRps.toFixed(0)} req/s (p50 ${percentile(totals.mcp.samples, 50).toFixed(3)} ms): ${((mcpRps / restRps) * 100).toFixed(0)}%`,
    `  context: a bare Hono route costs ${floorGet.toFixed(1)} us per GET and ${floorPost.toFixed(1)} us per JSON POST of the same body (undici request bodies), a floor MCP pays and GET /v1/datasets/{id} does not`,
    `  tools/list: first ${listCold.toFixed(1)} ms (converts the fifteen schemas), then p50 ${percentile(listWarmSamples, 50).toFixed(2)} ms (cached)`,
  ].join("\n");
}
