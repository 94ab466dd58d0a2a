// Benchmark child (issue 11): load N synthetic mentions into account A (the
// bench's own generator and analysis), report memory per mention and the
// latency of the first searches after a new run lands, then serve the app on
// 127.0.0.1 so the parent can measure a cheap request while expensive ones
// run. Prints one JSON line; run with --expose-gc for stable memory figures.
import { serve } from "@hono/node-server";
import { createApp } from "../src/app.ts";
import { demoKeys } from "../src/fixtures.ts";
import { ManualClock } from "../src/platform/clock.ts";
import { analyse } from "../src/simulators/analysis.ts";
import { SOURCES, searchPosts } from "../src/simulators/provider.ts";

const N = Number(process.argv[2] ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const clock = new ManualClock(Date.UTC(2026, 10, 2, 9, 0, 0));
const { app, services } = createApp({ clock, rateLimitPerSecond: 1_000_000_000, seedDatasets: false, logger: () => {} });
const keys = demoKeys();
const keyA = keys.find((k) => k.account_id === "acc_demoA")!.api_key;
const keyB = keys.find((k) => k.account_id === "acc_demoB")!.api_key;
const dataset = services.datasets.insert("acc_demoA", "Scale");
const index = services.mentions("acc_demoA");
const window = { fromMs: clock.now() - 365 * 86_400_000, toMs: clock.now() };

function land(count: number, runId: string, topic: string): void {
  const target = index.size + count;
  for (let q = 0; index.size < target; q++) {
    for (const source of SOURCES) {
      const posts = searchPosts({ source, query: `${topic} ${q}`, count: 2000, window, country: ["US", "GB", "DE", "BR", "IN"][q % 5]!, language: null, numComments: 2 });
      for (const post of posts) {
        if (index.size >= target) break;
        const r = index.upsert(post, analyse(post.text, ["sentiment", "mentioned_brands"]), { datasetId: dataset.id, runId, coefficient: 1, runAtMs: clock.now(), numComments: 2 });
        if (r.newToDataset) dataset.mentions_count++;
      }
    }
  }
}

const post = async (body: unknown) => {
  const t0 = performance.now();
  const res = await app.request("/v1/mentions", { method: "POST", headers: { "x-api-key": keyA, "content-type": "application/json" }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`search answered ${res.status}`);
  return performance.now() - t0;
};

gc();
const before = process.memoryUsage();
const loadStart = performance.now();
land(N, "dsr_scale", "bench topic");
const loadMs = performance.now() - loadStart;
gc();
const immediate = process.memoryUsage();
// Right after loading, one collection leaves much of the heap V8 grew during
// the load committed but empty (at 1M: 1.64 GB committed for 1.10 GB live,
// resident 1.45-1.81 GB between runs). An idle server gives it back (V8's
// memory reducer); the bench asks for that at once with the collection V8
// runs before giving up on memory (compacts every page and releases the free
// ones), and reports both figures.
await new Promise((resolve) => setTimeout(resolve, 2000));
(globalThis as { gc?: (o: object) => void }).gc?.({ type: "major", execution: "sync", flavor: "last-resort" });
const after = process.memoryUsage();

// Warm every sort and the text index, then land a 1000-mention run and time
// the first search of each kind after it.
const sorted = { sort: "likes", order: "desc", limit: 20 };
const text = { q: "oat milk review", limit: 20 };
await post(sorted);
await post(text);
// Five rounds (run lands, then the first sorted and the first text search),
// reported as the median so one GC pause does not decide the figure.
const afterSorted: number[] = [];
const afterText: number[] = [];
const steady: number[] = [];
for (let round = 0; round < 5; round++) {
  land(1000, `dsr_after_${round}`, `fresh run ${round}`);
  afterSorted.push(await post(sorted));
  afterText.push(await post(text));
  steady.push(await post(sorted));
}
// Resident once the sorted views and the text index exist (the figure above
// is the pool alone, right after loading).
gc();
const warm = process.memoryUsage();
// The same once idle, as for the pool alone above: building the text index
// grows the heap V8 keeps committed, and an idle server gives it back.
await new Promise((resolve) => setTimeout(resolve, 2000));
(globalThis as { gc?: (o: object) => void }).gc?.({ type: "major", execution: "sync", flavor: "last-resort" });
const warmIdle = process.memoryUsage();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const firstSortedAfterRun = median(afterSorted);
const firstTextAfterRun = median(afterText);
const steadySorted = median(steady);

const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
  console.log(
    JSON.stringify({
      port: info.port,
      keyA,
      keyB,
      mentions: index.size,
      loadMs,
      rssBytesPerMention: (after.rss - before.rss) / N,
      heapBytesPerMention: (after.heapUsed - before.heapUsed) / N,
      rss: after.rss,
      rssRightAfterGc: immediate.rss,
      heapTotalRightAfterGc: immediate.heapTotal,
      heapUsed: after.heapUsed,
      heapTotal: after.heapTotal,
      external: after.external,
      warmRss: warm.rss,
      warmHeapUsed: warm.heapUsed,
      warmRssIdle: warmIdle.rss,
      warmHeapTotalIdle: warmIdle.heapTotal,
      warmArrayBuffersIdle: warmIdle.arrayBuffers,
      firstSortedAfterRunMs: firstSortedAfterRun,
      firstTextAfterRunMs: firstTextAfterRun,
      steadySortedMs: steadySorted,
      // The text index's size (D-REF-SEARCH-COST): distinct terms and (term, post) pairs.
      textIndex: index.textIndexStats(),
    }),
  );
});
process.on("SIGTERM", () => {
  server.close();
  process.exit(0);
});
