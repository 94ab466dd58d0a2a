// Bench (issue 17): `--state` at a million mentions. Loads N synthetic
// mentions into account A (the scale bench's generator: provider posts with
// sentiment and brands), then times a save (capture + V8 serialization +
// SQLite write + rename, one synchronous turn: what a periodic snapshot costs
// the event loop), the file size, and a restore into a fresh app (read +
// deserialize + the pool's upserts), and checks that a sorted and a text
// search answer the same before and after. Prints one line per figure.
//
//   npx tsx --expose-gc reference-impl/bench/state-1m.ts [N=1000000]
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { demoKeys } from "../src/fixtures.ts";
import { ManualClock } from "../src/platform/clock.ts";
import { captureImage, restoreImage } from "../src/persistence/image.ts";
import { MentionChanges } from "../src/persistence/changes.ts";
import { StateFile, readStateFile } from "../src/persistence/state-file.ts";
import { analyse } from "../src/simulators/analysis.ts";
import { SOURCES, searchPosts } from "../src/simulators/provider.ts";
import { loadScenario } from "../src/scenarios/scenario.ts";

const N = Number(process.argv[2] ?? 1_000_000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const clock = new ManualClock(Date.UTC(2026, 10, 2, 9, 0, 0));
const make = () => createApp({ clock, rateLimitPerSecond: 1_000_000_000, accounts: false, logger: () => {} });
const key = demoKeys().find((k) => k.account_id === "acc_demoA")!.api_key;

const first = make();
loadScenario(first.services, { scenario: "empty" });
const dataset = first.services.datasets.insert("acc_demoA", "State bench");
const index = first.services.mentions("acc_demoA");
const window = { fromMs: clock.now() - 365 * 86_400_000, toMs: clock.now() };
const loadStart = performance.now();
function land(count: number, topic: string): void {
  const target = index.size + count;
  for (let q = 0; index.size < target; q++) {
    for (const source of SOURCES) {
      for (const post of searchPosts({ source, query: `${topic} ${q}`, count: 2000, window, country: "US", language: null, numComments: 2 })) {
        if (index.size >= target) break;
        const r = index.upsert(post, analyse(post.text, ["sentiment", "mentioned_brands"]), { datasetId: dataset.id, runId: `dsr_${topic}${q}`, coefficient: 1, runAtMs: clock.now(), numComments: 2 });
        if (r.newToDataset) dataset.mentions_count++;
      }
    }
  }
}
land(N, "bench");
console.log(`loaded ${index.size} mentions in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`);

const search = async (app: ReturnType<typeof make>["app"], body: unknown) => {
  const res = await app.request("/v1/mentions", { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
  return res.text();
};
const probes = [{ sort: "likes", order: "desc", limit: 20 }, { q: "oat milk review", limit: 20 }, { sentiment: ["negative"], limit: 20 }];

const dir = mkdtempSync(join(tmpdir(), "h17-state-bench-"));
const file = join(dir, "state.db");
gc();
const captureStart = performance.now();
const image = captureImage(first.services);
const captureMs = performance.now() - captureStart;
const { state } = StateFile.open(file);
const changes = new MentionChanges();
const saved = state.save(image, changes.plan(first.services, image));
changes.markSaved(image);
const size = () => statSync(file).size + statSync(`${file}-wal`, { throwIfNoEntry: false })?.size!;
console.log(`first (whole) save: ${(captureMs + saved.ms).toFixed(0)} ms in one turn (capture ${captureMs.toFixed(0)} ms, serialize + write ${saved.ms.toFixed(0)} ms, ${saved.chunksWritten} chunks); file ${mb(size())}`);
// A periodic save when no pool changed (a dataset renamed, say): the small sections only.
await clock.advance(1000);
const idleStart = performance.now();
const idleImage = captureImage(first.services);
const idle = state.save(idleImage, changes.plan(first.services, idleImage));
changes.markSaved(idleImage);
console.log(`periodic save, no pool changed: ${(performance.now() - idleStart).toFixed(0)} ms in one turn (${idle.chunksWritten} chunks written)`);
// A periodic save after a run of 1,000 new posts: only what changed is written.
await clock.advance(1000);
land(1000, "after");
const nextStart = performance.now();
const nextImage = captureImage(first.services);
const next = state.save(nextImage, changes.plan(first.services, nextImage));
console.log(`periodic save after a 1,000-post run: ${(performance.now() - nextStart).toFixed(0)} ms in one turn (${next.chunksWritten} chunk written)`);
state.close();
const expected = index.size;

const heapBefore = process.memoryUsage().heapUsed;
const readStart = performance.now();
const loaded = readStateFile(file);
const readMs = performance.now() - readStart;
const second = make();
const restoreStart = performance.now();
restoreImage(second.services, loaded);
const restoreMs = performance.now() - restoreStart;
console.log(`restore: ${(readMs + restoreMs).toFixed(0)} ms (read + deserialize ${readMs.toFixed(0)} ms, into the pool ${restoreMs.toFixed(0)} ms)`);
gc();
console.log(`heap: ${mb(heapBefore)} with one app, ${mb(process.memoryUsage().heapUsed)} with the restored copy beside it`);

if (second.services.mentions("acc_demoA").size !== expected) throw new Error(`restored ${second.services.mentions("acc_demoA").size} of ${expected} mentions`);
const afterFirst = await Promise.all(probes.map((p) => search(first.app, p)));
const after = await Promise.all(probes.map((p) => search(second.app, p)));
probes.forEach((p, i) => console.log(`${JSON.stringify(p)}: ${afterFirst[i] === after[i] ? "same answer" : "DIFFERENT ANSWER"} after restore`));
rmSync(dir, { recursive: true, force: true });
process.exit(afterFirst.every((b, i) => b === after[i]) ? 0 : 1);
