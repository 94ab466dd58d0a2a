// Mixed traffic against a reference server started as a child process, for
// S seconds (usage below). Goal: sustained traffic neither fails nor leaks, so
// 0 errors and RSS growth under 10%; exits 1 otherwise.
import { Random } from "../reference-impl/src/platform/random.ts";
import { undocumented } from "./lib/documented-body.ts";
import { arg, demoKeys, helpOnRequest, percentile, portArg, startReference } from "./lib/reference-process.ts";

helpOnRequest(`
npm run soak [-- --seconds S --window W --concurrency C --seed N --port P]

Cheap reads, mention searches with random filters and sorts, pagination,
dataset runs until the balance is spent and invalid requests, against a
reference server this script starts on 127.0.0.1. Prints the error count
(answers >= 500, network errors, undocumented 4xx bodies), the server's RSS
after the first window (warm-up) and at the end, and the p99 latency of the
first and the last window. Exits 1 on any error or RSS growth of 10% or more.

  --seconds S      how long to send traffic (default 180)
  --window W       warm-up and comparison window in seconds (default 30)
  --concurrency C  requests in flight at once (default 8)
  --seed N         seed of the traffic mix (default: from the clock, printed)
  --port P         port of the server it starts (default 0: a free port)

SIGINT or SIGTERM to this script's PID stops the server it started.
`);

const SECONDS = Number(arg("seconds", "180"));
const WINDOW = Number(arg("window", "30"));
const CONCURRENCY = Number(arg("concurrency", "8"));
const SEED = Number(arg("seed", String(Date.now() % 1_000_000)));

type Req = { method: string; path: string; key: string; body?: unknown };

function filters(r: Random): unknown {
  const pool = [
    { type: "sentiment", values: [r.pick(["positive", "negative", "neutral"])] },
    { type: "source", values: [r.pick(["reddit", "tiktok", "youtube", "instagram", "linkedin"])] },
    { type: "has_media", value: r.chance(0.5) },
    { type: "keyword", operator: r.pick(["is", "is_not"]), value: r.pick(["oat", "milk", "barista", "running shoes"]) },
    { type: "metric_change", metric: "likes", operator: { type: "greater_than", value: r.int(0, 5000) } },
    { type: "dominant_emotion", values: [r.pick(["joy", "anger", "neutral"])] },
  ];
  return [Array.from({ length: r.int(1, 3) }, () => r.pick(pool))];
}

function next(r: Random, keys: { a: string; b: string }, datasets: string[]): Req {
  const kind = r.weighted<string>([
    ["prices", 3],
    ["me", 2],
    ["datasets", 2],
    ["search", 6],
    ["usage", 1],
    ["runs", 1],
    ["run", 1],
    ["invalid", 1],
  ]);
  switch (kind) {
    case "prices":
      return { method: "GET", path: "/v1/prices", key: r.pick([keys.a, keys.b]) };
    case "me":
      return { method: "GET", path: "/v1/me", key: r.pick([keys.a, keys.b]) };
    case "datasets":
      return { method: "GET", path: `/v1/datasets?limit=${r.int(1, 100)}`, key: keys.a };
    case "search":
      return {
        method: "POST",
        path: "/v1/mentions",
        key: keys.a,
        body: {
          ...(r.chance(0.6) ? { filters: filters(r) } : {}),
          ...(r.chance(0.3)
            ? { q: r.pick(["oat milk", "running shoes review", "skincare routine", "barista foam"]) }
            : {}),
          sort: r.pick([
            "date",
            "likes",
            "views",
            "engagement_rate",
            "comments",
            "shares",
            "sentiment_score",
            "dataset_run_at",
          ]),
          order: r.pick(["asc", "desc"]),
          limit: r.int(1, 100),
        },
      };
    case "usage":
      return { method: "GET", path: `/v1/me/usage_history?limit=${r.int(1, 100)}`, key: keys.a };
    case "runs":
      return { method: "GET", path: `/v1/datasets/${r.pick(datasets)}/runs`, key: keys.b };
    case "run":
      return {
        method: "POST",
        path: `/v1/datasets/${r.pick(datasets)}/runs`,
        key: keys.b,
        body: {
          search_query: {
            type: "prompt",
            sources: ["reddit", "tiktok"],
            search_query: r.pick(["oat milk", "cold brew", "protein bars"]),
          },
          count: 20,
        },
      };
    default:
      return { method: "POST", path: "/v1/mentions", key: keys.a, body: { limit: 0, sort: "nope" } };
  }
}

async function main() {
  console.log(`soak: ${SECONDS} s, windows of ${WINDOW} s, concurrency ${CONCURRENCY}, seed ${SEED}`);
  const server = await startReference({ RATE_LIMIT_RPS: "1000000", STEP_DELAY_MS: "20", PORT: String(portArg()) });
  const all = demoKeys();
  const keys = {
    a: all.find((k) => k.account_id === "acc_demoA")!.api_key,
    b: all.find((k) => k.account_id === "acc_demoB")!.api_key,
  };
  const r = new Random(SEED);
  const samples: { at: number; ms: number }[] = [];
  const errors: string[] = [];
  let count = 0;
  try {
    const datasets: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/v1/datasets`, {
        method: "POST",
        headers: { "x-api-key": keys.b, "content-type": "application/json" },
        body: JSON.stringify({ name: `soak ${i}` }),
      });
      datasets.push(((await res.json()) as { data: { id: string } }).data.id);
    }
    // "Start" is read once the first window has warmed the JIT and the heap
    // up; growth after that is what would show a leak.
    let rssStart: number | undefined;
    const started = performance.now();
    const warm = setTimeout(() => (rssStart = server.rss()), WINDOW * 1000);
    const deadline = started + SECONDS * 1000;
    const worker = async () => {
      while (performance.now() < deadline) {
        const req = next(r, keys, datasets);
        const t0 = performance.now();
        try {
          const res = await fetch(`${server.url}${req.path}`, {
            method: req.method,
            headers: {
              "x-api-key": req.key,
              ...(req.body !== undefined ? { "content-type": "application/json" } : {}),
            },
            body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
          });
          const text = await res.text();
          const ms = performance.now() - t0;
          samples.push({ at: t0 - started, ms });
          count++;
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          const why = res.status >= 500 ? `status ${res.status}` : undocumented(res.status, json);
          if (why) errors.push(`${req.method} ${req.path} -> ${res.status}: ${why}`);
        } catch (error) {
          errors.push(`${req.method} ${req.path}: network error ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    clearTimeout(warm);
    const rssEnd = server.rss();
    const elapsed = (performance.now() - started) / 1000;
    const first = samples.filter((s) => s.at < WINDOW * 1000).map((s) => s.ms);
    const last = samples.filter((s) => s.at >= (elapsed - WINDOW) * 1000).map((s) => s.ms);
    const mb = (b: number | undefined) => (b === undefined ? "n/a" : `${(b / 1024 / 1024).toFixed(1)} MB`);
    const growth = rssStart && rssEnd ? ((rssEnd - rssStart) / rssStart) * 100 : NaN;
    console.log(
      `soak: ${count} requests in ${elapsed.toFixed(0)} s (${(count / elapsed).toFixed(0)}/s), ${errors.length} errors`,
    );
    console.log(`soak: RSS start ${mb(rssStart)}, end ${mb(rssEnd)}, growth ${growth.toFixed(1)}%`);
    console.log(
      `soak: p99 first ${WINDOW} s ${percentile(first, 99).toFixed(1)} ms, last ${WINDOW} s ${percentile(last, 99).toFixed(1)} ms (p50 ${percentile(first, 50).toFixed(1)} / ${percentile(last, 50).toFixed(1)} ms)`,
    );
    for (const e of errors.slice(0, 20)) console.log(`  ${e}`);
    const ok = errors.length === 0 && !(growth >= 10);
    console.log(ok ? "soak: goal met" : "soak: goal missed");
    process.exitCode = ok ? 0 : 1;
  } finally {
    await server.stop();
  }
}

await main();
