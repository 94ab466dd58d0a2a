// npm run bench: every benchmark figure the READMEs report, measured in one run.
//  1. 100k mentions loaded; POST /v1/mentions with 3 filters and a sort, p50 in process.
//  2. Page 500 vs page 1 of the same query (keyset cursors).
//  3. GET /v1/datasets/{id} through the full stack vs a bare Hono route with
//     the same body, with autocannon against servers on 127.0.0.1 that this
//     script starts as child processes and stops by PID.
// Then the groups' benchmarks. Exits 1 when any goal it prints is not met.
//   npm run bench [-- --port P]   (--help for the settings)
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { createApp } from "../src/app.ts";
import { demoKeys } from "../src/fixtures/load.ts";
import { ManualClock } from "../src/platform/clock.ts";
import { analyse } from "../src/simulators/analysis.ts";
import { SOURCES, searchPosts } from "../src/simulators/provider.ts";
import { killChild } from "../../scripts/lib/stop-on-signal.ts";
import { spawnServer } from "./ports.ts";

if (process.argv.includes("--help")) {
  console.log(`npm run bench [-- --port P]

Every benchmark figure the docs report, measured in one run (a few minutes on
two cores). Each line that states a goal ends in "met" or "NOT met"; the bench
exits 1 when any goal is not met.

  --port P   the servers it starts (full stack, bare Hono, node:http, Prism, the
             scale servers) listen on P, P+1, … in the order they start
             (default: each on a free port); also BENCH_PORT
Environment: BENCH_MENTIONS (100000), BENCH_SECONDS (5 per autocannon round),
BENCH_ROUNDS (3), BENCH_SCALES (100000,1000000), BENCH_PARTS (throughput,scale),
BENCH_STALL_SECONDS (10).

SIGINT or SIGTERM to this script's PID stops every server it started.`);
  process.exit(0);
}

const TARGET = Number(process.env.BENCH_MENTIONS ?? 100_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);

function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function timeIt(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

// ---- 1 and 2: in process -------------------------------------------------
const clock = new ManualClock(Date.UTC(2026, 10, 2, 9, 0, 0));
const { app, services } = createApp({
  clock,
  rateLimitPerSecond: 1_000_000_000,
  seedDatasets: false,
  logger: () => {},
});
const key = demoKeys().find((k) => k.account_id === "acc_demoA")!.api_key;
const dataset = services.datasets.insert("acc_demoA", "Benchmark");
const pool = services.mentions("acc_demoA");

const loadStart = performance.now();
const window = { fromMs: clock.now() - 365 * 86_400_000, toMs: clock.now() };
const countries = ["US", "GB", "DE", "BR", "IN"];
for (let q = 0; pool.size < TARGET; q++) {
  for (const source of SOURCES) {
    const posts = searchPosts({
      source,
      query: `bench topic ${q}`,
      count: 2000,
      window,
      country: countries[q % countries.length]!,
      language: null,
      numComments: 2,
    });
    for (const post of posts) {
      if (pool.size >= TARGET) break;
      const r = pool.upsert(post, analyse(post.text, ["sentiment", "mentioned_brands"]), {
        datasetId: dataset.id,
        runId: "dsr_bench",
        coefficient: 1,
        runAtMs: clock.now(),
        numComments: 2,
      });
      if (r.newToDataset) dataset.mentions_count++;
    }
  }
}
const loadMs = performance.now() - loadStart;

const query = {
  filters: [
    [
      { type: "source", values: ["tiktok", "instagram", "youtube"] },
      { type: "sentiment", values: ["positive", "neutral"] },
      { type: "has_media", value: true },
    ],
  ],
  sort: "likes",
  order: "desc",
  limit: 20,
};
const post = (body: unknown) =>
  app.request("/v1/mentions", {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const warm = await post(query); // builds the sorted index for `likes`
const firstPage = (await warm.json()) as { data: unknown[]; cursor: string | null };
const mentionSamples = await timeIt(300, async () => (await post(query)).arrayBuffer());

// Walk to page 500 and keep its cursor.
let cursor = firstPage.cursor;
for (let page = 2; page < 500 && cursor; page++) {
  const res = (await (await post({ ...query, cursor })).json()) as { cursor: string | null };
  cursor = res.cursor;
}
if (!cursor) throw new Error("fewer than 500 pages matched; raise BENCH_MENTIONS");
const page500Cursor = cursor;
const page1 = await timeIt(300, async () => (await post(query)).arrayBuffer());
const page500 = await timeIt(300, async () => (await post({ ...query, cursor: page500Cursor })).arrayBuffer());

// ---- 3: full stack vs bare route over HTTP ---------------------------------
const serverScript = fileURLToPath(new URL("./server.ts", import.meta.url));
async function startServer(
  mode: "full" | "bare",
): Promise<{ child: ChildProcess; info: { port: number; path: string; key: string } }> {
  const child = spawnServer(process.execPath, ["--import", "tsx", serverScript, mode], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let buffer = "";
  child.stdout!.setEncoding("utf8");
  for await (const chunk of child.stdout!) {
    buffer += chunk;
    const line = buffer.split("\n").find((l) => l.startsWith("{"));
    if (line) return { child, info: JSON.parse(line) };
  }
  throw new Error(`${mode} server exited before listening`);
}
const stopServer = (child: ChildProcess) => killChild(child);
async function cannon(info: { port: number; path: string; key: string }): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${info.port}${info.path}`,
    headers: { "x-api-key": info.key },
    connections: 32,
    duration: DURATION,
  });
  if (result.non2xx > 0) throw new Error(`${result.non2xx} non-2xx answers`);
  return result.requests.average;
}

const children: ChildProcess[] = [];
let fullRps = 0;
let bareRps = 0;
try {
  const full = await startServer("full");
  children.push(full.child);
  const bare = await startServer("bare");
  children.push(bare.child);
  await cannon({ ...full.info }); // warm-up both, 1 round each
  fullRps = await cannon(full.info);
  bareRps = await cannon(bare.info);
} finally {
  for (const child of children) await stopServer(child);
}

// Every line goes through say(), so the exit code can follow what was printed.
let missed = 0;
const say = (text: string) => {
  missed += (text.match(/NOT met/g) ?? []).length;
  console.log(text);
};
const p50 = percentile(mentionSamples, 50);
const ratio = percentile(page500, 50) / percentile(page1, 50);
const throughput = fullRps / bareRps;
say(`mentions loaded:                 ${pool.size} in ${(loadMs / 1000).toFixed(1)} s`);
say(`POST /v1/mentions (3 filters + sort likes desc, limit 20), in process, n=300:`);
say(
  `  p50 ${p50.toFixed(2)} ms   p95 ${percentile(mentionSamples, 95).toFixed(2)} ms   (target p50 <= 5 ms: ${p50 <= 5 ? "met" : "NOT met"})`,
);
say(
  `page 1 p50 ${percentile(page1, 50).toFixed(2)} ms, page 500 p50 ${percentile(page500, 50).toFixed(2)} ms: ratio ${ratio.toFixed(2)}  (target <= 1.5: ${ratio <= 1.5 ? "met" : "NOT met"})`,
);
say(`GET /v1/datasets/{id}, autocannon 32 connections x ${DURATION} s on 127.0.0.1:`);
say(
  `  full stack ${fullRps.toFixed(0)} req/s, bare Hono ${bareRps.toFixed(0)} req/s: ${(throughput * 100).toFixed(0)}%  (target >= 50%: ${throughput >= 0.5 ? "met" : "NOT met"})`,
);
say(await (await import("./custom-parameters.ts")).customParameterBench());
say(await (await import("./patterns.ts")).patternBench());
say(await (await import("./audiences.ts")).audienceBench());
say(await (await import("./assistant.ts")).assistantBench());
say(await (await import("./mcp.ts")).mcpBench());
say(await (await import("./hardening.ts")).hardeningBench());
say(await (await import("./stall.ts")).stallBench());
console.log(
  missed === 0 ? "bench: every goal met" : `bench: ${missed} goal(s) NOT met (each line above that says so); exit 1`,
);
process.exitCode = missed === 0 ? 0 : 1;
