// Probe: the slowest valid POST /v1/mentions bodies at N mentions.
import { createApp } from "../src/app.ts";
import { demoKeys } from "../src/fixtures/load.ts";
import { ManualClock } from "../src/platform/clock.ts";
import { analyse } from "../src/simulators/analysis.ts";
import { SOURCES, searchPosts } from "../src/simulators/provider.ts";

const TARGET = Number(process.env.BENCH_MENTIONS ?? 100_000);
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
const window = { fromMs: clock.now() - 365 * 86_400_000, toMs: clock.now() };
for (let q = 0; pool.size < TARGET; q++) {
  for (const source of SOURCES) {
    const posts = searchPosts({
      source,
      query: `bench topic ${q}`,
      count: 2000,
      window,
      country: "US",
      language: null,
      numComments: 2,
    });
    for (const post of posts) {
      if (pool.size >= TARGET) break;
      pool.upsert(post, analyse(post.text, ["sentiment", "mentioned_brands"]), {
        datasetId: dataset.id,
        runId: "dsr_bench",
        coefficient: 1,
        runAtMs: clock.now(),
        numComments: 2,
      });
    }
  }
}
const post = async (body: unknown) => {
  const t0 = performance.now();
  const res = await app.request("/v1/mentions", {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return [res.status, Math.round(performance.now() - t0)];
};
const words =
  "oat milk barista foam latte creamy sustainable flavour vanilla chocolate review tiktok trend morning coffee routine".split(
    " ",
  );
const longQ = Array.from({ length: 80 }, (_, i) => words[i % words.length] + (i % 7 ? "" : "s"))
  .join(" ")
  .slice(0, 500);
const cases: [string, unknown][] = [
  ["warm", { q: "oat milk" }],
  ["q 500 chars semantic", { q: longQ }],
  ["q 500 chars keyword", { q: longQ, search_mode: "keyword" }],
  ["q one 500-char word", { q: "x".repeat(500) }],
  ["q 250 one-letter words", { q: "a b c d e f g h i j k l m n o p q r s t u v w x y z ".repeat(10).slice(0, 500) }],
  ["keyword filter 100 chars", { filters: [[{ type: "keyword", operator: "is", value: "y".repeat(100) }]] }],
  ["keyword filter two words", { filters: [[{ type: "keyword", operator: "is_not", value: "oat milk" }]] }],
  [
    "10 contains brand filters",
    {
      filters: [
        Array.from({ length: 10 }, () => ({
          type: "mentioned_brands",
          operator: { type: "contains", value: "z".repeat(200) },
        })),
      ],
    },
  ],
  ["sort views asc limit 100", { sort: "views", order: "asc", limit: 100 }],
  ["sort likes + q", { sort: "likes", q: longQ, limit: 100 }],
];
for (const [name, body] of cases) {
  const a = await post(body);
  const b = await post(body);
  console.log(name.padEnd(30), "first", a, "second", b);
}
