// Throughput, isolation and scale figures for `npm run bench` (or alone: tsx reference-impl/bench/hardening.ts):
//  1. Throughput of GET /v1/datasets/{id}, autocannon 50 connections, side by
//     side in one run: the full stack with request logging, bare Hono, bare
//     node:http returning the same bytes, and the Prism mock.
//  2. No tenant stalls another: p50/p99 of GET /v1/prices with account B's key
//     while account A sends the most expensive valid searches, at 100k mentions.
//  3. Scale at 100k and 1M mentions (scale-server.ts): seeded through real
//     runs while the event loop's delay, another account's cheap request and
//     resident memory are gauged; every sort, filter type and q cold then
//     warm; memory per mention; the first searches after a run lands.
// Every server is a child process on 127.0.0.1 and a free port (or the next
// of --port P: ports.ts), stopped by PID, also when the bench is told to stop.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { killChild } from "../../scripts/lib/stop-on-signal.ts";
import { nextPort, spawnServer } from "./ports.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const STALL_SECONDS = Number(process.env.BENCH_STALL_SECONDS ?? 10);
const SCALES = (process.env.BENCH_SCALES ?? "100000,1000000").split(",").map(Number);
const root = fileURLToPath(new URL("../../", import.meta.url));

function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function child<T>(args: string[], startupMs = 1_800_000): Promise<{ proc: ChildProcess; info: T }> {
  const proc = spawnServer(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  let buffer = "";
  proc.stdout!.setEncoding("utf8");
  const timer = setTimeout(() => proc.kill("SIGKILL"), startupMs);
  for await (const chunk of proc.stdout!) {
    buffer += chunk;
    const line = buffer.split("\n").find((l) => l.startsWith("{"));
    if (line) {
      clearTimeout(timer);
      proc.stdout!.resume();
      return { proc, info: JSON.parse(line) as T };
    }
  }
  clearTimeout(timer);
  throw new Error(`${args.join(" ")} exited before listening`);
}

const stop = (proc: ChildProcess) => killChild(proc);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** CPU seconds a process has used (user + system), from /proc; undefined off Linux. */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in USER_HZ (100)
  } catch {
    return undefined;
  }
}

/** Requests per wall second, and per CPU second of the server (its capacity, whatever the client's speed). */
async function cannon(url: string, key: string, pid?: number): Promise<{ rps: number; perCpu?: number }> {
  const cpu0 = cpuSeconds(pid);
  const result = await autocannon({ url, headers: { "x-api-key": key }, connections: 50, duration: DURATION });
  const cpu1 = cpuSeconds(pid);
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
  const cpu = cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : undefined;
  return { rps: result.requests.average, perCpu: cpu ? result.requests.total / cpu : undefined };
}

async function throughput(): Promise<string[]> {
  type Info = { port: number; path: string; key: string };
  const procs: ChildProcess[] = [];
  try {
    const servers: Record<string, Info> = {};
    for (const mode of ["full", "hono", "node"]) {
      const { proc, info } = await child<Info>(["--import", "tsx", "reference-impl/bench/throughput-server.ts", mode]);
      procs.push(proc);
      servers[mode] = info;
    }
    const prismPort = nextPort() || (await freePort());
    const prism = spawnServer(
      `${root}node_modules/.bin/prism`,
      ["mock", "generated/openapi.json", "--host", "127.0.0.1", "--port", String(prismPort)],
      { cwd: root, stdio: "ignore" },
    );
    procs.push(prism);
    const prismUrl = `http://127.0.0.1:${prismPort}${servers.full!.path}`;
    for (let i = 0; i < 120; i++) {
      if (
        await fetch(prismUrl, { headers: { "x-api-key": "k" } }).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const url = (mode: string) => `http://127.0.0.1:${servers[mode]!.port}${servers[mode]!.path}`;
    const pids: Record<string, number | undefined> = { full: procs[0]!.pid, hono: procs[1]!.pid, node: procs[2]!.pid };
    for (const mode of ["full", "hono", "node"]) await cannon(url(mode), servers[mode]!.key); // warm-up
    // The machine is shared and noisy: every round measures all four servers
    // back to back, the ratios are taken inside each round, and the median
    // round is reported. autocannon shares the machine's two cores with the
    // server, so requests per server CPU second are reported too: that ratio
    // is the servers' own cost, whatever the client's speed.
    const rounds: Record<string, number>[] = [];
    const perCpu: Record<string, number | undefined>[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const rps: Record<string, number> = {};
      const cpu: Record<string, number | undefined> = {};
      for (const mode of ["full", "hono", "node"]) {
        const m = await cannon(url(mode), servers[mode]!.key, pids[mode]);
        rps[mode] = m.rps;
        cpu[mode] = m.perCpu;
      }
      rps.prism = (await cannon(prismUrl, "k")).rps;
      rounds.push(rps);
      perCpu.push(cpu);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const vsNode = median(rounds.map((r) => r.full! / r.node!));
    const vsHono = median(rounds.map((r) => r.full! / r.hono!));
    const vsPrism = median(rounds.map((r) => r.full! / r.prism!));
    const fmt = (r: Record<string, number>) =>
      `full stack + request log ${r.full!.toFixed(0)} req/s | bare Hono ${r.hono!.toFixed(0)} | bare node:http ${r.node!.toFixed(0)} | Prism ${r.prism!.toFixed(0)} (full/node:http ${((r.full! / r.node!) * 100).toFixed(0)}%)`;
    const lines = [
      `GET /v1/datasets/{id}, autocannon 50 connections x ${DURATION} s, ${ROUNDS} rounds in one run:`,
      ...rounds.map((r, i) => `  round ${i + 1}: ${fmt(r)}`),
      `  median of rounds: full / node:http ${(vsNode * 100).toFixed(0)}% (target >= 65%: ${vsNode >= 0.65 ? "met" : "NOT met"}); full / Hono ${(vsHono * 100).toFixed(0)}%; full / Prism ${vsPrism.toFixed(1)}x (target >= 25x: ${vsPrism >= 25 ? "met" : "NOT met"})`,
    ];
    if (perCpu.every((c) => c.full && c.node && c.hono)) {
      const cpuNode = median(perCpu.map((c) => c.full! / c.node!));
      const cpuHono = median(perCpu.map((c) => c.full! / c.hono!));
      const last = perCpu[perCpu.length - 1]!;
      lines.push(
        `  per server CPU second (median of rounds): full / node:http ${(cpuNode * 100).toFixed(0)}%, full / Hono ${(cpuHono * 100).toFixed(0)}% (last round: full ${last.full!.toFixed(0)}, Hono ${last.hono!.toFixed(0)}, node:http ${last.node!.toFixed(0)} requests per CPU second)`,
      );
    }
    return lines;
  } finally {
    for (const p of procs) await stop(p);
  }
}

type ScaleInfo = {
  port: number;
  keyA: string;
  keyB: string;
  mentions: number;
  runs: number;
  loadMs: number;
  loopDelayMaxMs: number;
  loopDelayP99Ms: number;
  loadLoopDelay: { maxMs: number; p99Ms: number };
  queryLoopDelay: { maxMs: number; p99Ms: number };
  probeP99Ms: number;
  probeMaxMs: number;
  longestOwnCpu: { cpuMs: number; wallMs: number; phase: string }[];
  gcPauses: Record<string, { count: number; totalMs: number; maxMs: number }>;
  firstColdSortMs: number;
  firstColdSortCpuMs: number;
  searchTimes: { label: string; coldMs: number; coldCpuMs: number; warmMs: number }[];
  rssMaxWhileLoading: number;
  rssBytesPerMention: number;
  heapBytesPerMention: number;
  rssRightAfterLoad: number;
  warmRss: number;
  warmHeapUsed: number;
  warmRssIdle: number;
  textIndex?: { documents: number; terms: number; postings: number };
  firstSortedAfterRunMs: number;
  firstTextAfterRunMs: number;
  steadySortedMs: number;
};

const EXPENSIVE: unknown[] = [
  { filters: [[{ type: "keyword", operator: "is", value: "y".repeat(100) }]], limit: 100 },
  {
    filters: [
      Array.from({ length: 10 }, () => ({
        type: "mentioned_brands",
        operator: { type: "contains", value: "z".repeat(200) },
      })),
    ],
    limit: 100,
  },
  {
    q: "oat milk barista foam latte creamy sustainable flavour vanilla chocolate review tiktok trend morning coffee routine"
      .repeat(4)
      .slice(0, 500),
    search_mode: "keyword",
    limit: 100,
  },
  { q: "oat milk barista foam latte creamy sustainable flavour", sort: "views", order: "asc", limit: 100 },
  {
    sort: "engagement_rate",
    order: "asc",
    limit: 100,
    filters: [[{ type: "metric_change", metric: "likes", operator: { type: "changed_by", value: 1_000_000 } }]],
  },
];

async function stall(info: ScaleInfo): Promise<string[]> {
  const base = `http://127.0.0.1:${info.port}`;
  const cheap = async (): Promise<number> => {
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/prices`, { headers: { "x-api-key": info.keyB } });
    await res.arrayBuffer();
    return performance.now() - t0;
  };
  const measure = async (seconds: number) => {
    const out: number[] = [];
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) out.push(await cheap());
    return out;
  };
  const idle = await measure(3);
  let running = true;
  let heavy = 0;
  const heavyTimes: number[] = [];
  const loop = async (offset: number) => {
    for (let i = offset; running; i++) {
      const t0 = performance.now();
      const res = await fetch(`${base}/v1/mentions`, {
        method: "POST",
        headers: { "x-api-key": info.keyA, "content-type": "application/json" },
        body: JSON.stringify(EXPENSIVE[i % EXPENSIVE.length]),
      });
      await res.arrayBuffer();
      heavyTimes.push(performance.now() - t0);
      heavy++;
    }
  };
  const loops = [0, 1, 2, 3].map(loop);
  const loaded = await measure(STALL_SECONDS);
  running = false;
  await Promise.all(loops);
  const p99 = percentile(loaded, 99);
  return [
    `No tenant stalls another (${info.mentions} mentions): GET /v1/prices (account B) while account A sends the costliest valid searches, 4 at a time:`,
    `  idle p50 ${percentile(idle, 50).toFixed(1)} ms p99 ${percentile(idle, 99).toFixed(1)} ms | under load p50 ${percentile(loaded, 50).toFixed(1)} ms p99 ${p99.toFixed(1)} ms (n=${loaded.length}; target p99 < 50 ms: ${p99 < 50 ? "met" : "NOT met"})`,
    `  the expensive searches themselves: ${heavy} answered, p50 ${percentile(heavyTimes, 50).toFixed(1)} ms p99 ${percentile(heavyTimes, 99).toFixed(1)} ms`,
  ];
}

async function scale(n: number, withStall: boolean): Promise<string[]> {
  const { proc, info } = await child<ScaleInfo>([
    "--expose-gc",
    "--max-old-space-size=8192",
    "--import",
    "tsx",
    "reference-impl/bench/scale-server.ts",
    String(n),
  ]);
  try {
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
    const ms = (x: number) => x.toFixed(0);
    const slowest = [...info.searchTimes].sort((a, b) => b.coldMs - a.coldMs).slice(0, 3);
    const own = info.longestOwnCpu[0];
    const major = info.gcPauses.major;
    const minor = info.gcPauses.minor;
    const GiB = 1024 ** 3;
    const lines = [
      `${info.mentions} mentions seeded through ${info.runs} dataset runs in ${(info.loadMs / 1000).toFixed(1)} s; resident every second while loading: at most ${mb(info.rssMaxWhileLoading)} MB (goal <= 1.5 GiB: ${info.rssMaxWhileLoading <= 1.5 * GiB ? "met" : "NOT met"}), ${mb(info.rssRightAfterLoad)} MB right after`,
      `  event-loop delay over the whole scenario (load, a search per sort, filter type and q cold then warm, 5 more runs): max ${ms(info.loopDelayMaxMs)} ms, p99 ${ms(info.loopDelayP99Ms)} ms (load max ${ms(info.loadLoopDelay.maxMs)}, searches max ${ms(info.queryLoopDelay.maxMs)}); goal: none above 50 ms: ${info.loopDelayMaxMs <= 50 ? "met" : "NOT met"}`,
      `  account B's cheap request every 10 ms: p99 ${ms(info.probeP99Ms)} ms, max ${ms(info.probeMaxMs)} ms; longest own-CPU stretch between 5 ms ticks ${own ? `${ms(own.cpuMs)} ms (${own.phase})` : "under 20 ms"}; GC pauses: minor max ${ms(minor?.maxMs ?? 0)} ms, major max ${ms(major?.maxMs ?? 0)} ms`,
      `  first cold sort answered in ${ms(info.firstColdSortMs)} ms, ${ms(info.firstColdSortCpuMs)} ms of this process's CPU (goal <= 500 ms: ${info.firstColdSortMs <= 500 ? "met" : "NOT met"}); slowest cold searches: ${slowest.map((s) => `${s.label} ${ms(s.coldMs)} ms (CPU ${ms(s.coldCpuMs)})`).join(", ")}`,
      `  with every sort and the text index built: resident ${mb(info.warmRss)} MB right after a collection, ${mb(info.warmRssIdle)} MB once idle; heap used ${mb(info.warmHeapUsed)} MB, ${info.heapBytesPerMention.toFixed(0)} B/mention${info.textIndex ? `; text index ${info.textIndex.terms} terms, ${info.textIndex.postings} postings` : ""}`,
      `  first search after a 1000-mention run (median of 5): sorted by likes ${info.firstSortedAfterRunMs.toFixed(1)} ms, text q ${info.firstTextAfterRunMs.toFixed(1)} ms; steady sorted ${info.steadySortedMs.toFixed(1)} ms`,
    ];
    if (withStall) lines.push(...(await stall(info)));
    return lines;
  } finally {
    await stop(proc);
  }
}

export async function hardeningBench(): Promise<string> {
  const lines: string[] = ["--- throughput, isolation, scale ---"];
  const parts = (process.env.BENCH_PARTS ?? "throughput,scale").split(",");
  if (parts.includes("throughput")) lines.push(...(await throughput()));
  if (parts.includes("scale")) for (const n of SCALES) lines.push(...(await scale(n, n === SCALES[0] && n <= 200_000)));
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await hardeningBench());
