// The periodic `--state` save is sliced work. A save of a pool of 200k
// mentions gives the event loop turns while it writes (a timer set during the
// save fires before it ends), a run that lands while the save is under way is
// in the file after the next save and comes back after a restart, a clean
// stop finishes a save under way at once, and a reset drops the save of the
// app it replaces. No time is asserted (the machine is shared): only what
// happens before what.
import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../src/platform/clock.ts";
import { CHUNK, readStateFile } from "../src/persistence/state-file.ts";
import { Backend } from "../src/scenarios/backend.ts";
import { analyse } from "../src/simulators/analysis.ts";
import { SOURCES, searchPosts } from "../src/simulators/provider.ts";
import { KEYS } from "./helpers.ts";

const tmp = () => join(mkdtempSync(join(tmpdir(), "h17b-sliced-")), "state.db");

function backend(stateFile: string, startMs = Date.UTC(2026, 10, 2, 9, 0, 0)) {
  const clock = new ManualClock(startMs);
  const b = new Backend({
    stateFile,
    scenario: { scenario: "empty" },
    stateIntervalMs: 3_600_000,
    app: { clock, stepDelayMs: 300, rateLimitPerSecond: 10_000, logger: () => {} },
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await b.request(path, {
      method,
      headers: { "x-api-key": KEYS.aOwner, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as any) : undefined };
  };
  return { b, clock, call };
}

/** `count` synthetic posts straight into account A's pool (the state bench's generator), as one dataset's. */
function fill(b: Backend, count: number): string {
  const services = b.handle.services;
  const dataset = services.datasets.insert("acc_demoA", "Bulk");
  const pool = services.mentions("acc_demoA");
  const now = services.clock.now();
  const window = { fromMs: now - 365 * 86_400_000, toMs: now };
  const target = pool.size + count;
  for (let q = 0; pool.size < target; q++) {
    for (const source of SOURCES) {
      for (const post of searchPosts({
        source,
        query: `bulk ${q}`,
        count: 2000,
        window,
        country: "US",
        language: null,
        numComments: 0,
      })) {
        if (pool.size >= target) break;
        const r = pool.upsert(post, analyse(post.text, ["sentiment"]), {
          datasetId: dataset.id,
          runId: `dsr_bulk${q}`,
          coefficient: 1,
          runAtMs: now,
          numComments: 0,
        });
        if (r.newToDataset) dataset.mentions_count++;
      }
    }
  }
  return dataset.id;
}

describe("--state: the periodic save is sliced", () => {
  it(
    "a save of 200k mentions lets timers and a run in between, and the run's posts survive the next save and a restart",
    { timeout: 180_000 },
    async () => {
      const file = tmp();
      const { b, clock, call } = backend(file);
      const bulk = fill(b, 200_000);
      const ds = (await call("POST", "/v1/datasets", { name: "Landed during the save" })).json.data.id as string;

      const saving = b.saveSliced();
      expect(b.saving).toBe(true); // only the first piece ran in this turn
      let timerSawSave: boolean | undefined;
      setTimeout(() => (timerSawSave = b.saving), 0);
      let ticks = 0;
      const ticker = setInterval(() => b.saving && ticks++, 1);

      // A run is created and lands while the save is still being written.
      const run = await call("POST", `/v1/datasets/${ds}/runs`, {
        search_query: { type: "prompt", sources: ["reddit"], search_query: "kombucha" },
        count: 20,
      });
      expect(run.status).toBe(202);
      await clock.advance(60_000);
      expect((await call("GET", `/v1/datasets/${ds}/runs/${run.json.data.id}`)).json.data.status.type).toBe(
        "completed",
      );
      const landedWhileSaving = b.saving;

      const figures = await saving;
      clearInterval(ticker);
      expect(landedWhileSaving, "the run should land before the 200-chunk save ends").toBe(true);
      expect(timerSawSave).toBe(true);
      expect(ticks).toBeGreaterThan(0);
      expect(figures!.chunksWritten).toBeGreaterThanOrEqual(200_000 / CHUNK);
      expect(figures!.pieces).toBeGreaterThan(200_000 / CHUNK);

      // The run moved after the image was taken: the next save writes its posts (and its row).
      const next = b.save()!;
      expect(next.chunksWritten).toBeGreaterThanOrEqual(1);
      b.close();

      const image = readStateFile(file);
      expect(image.mentions.find((m) => m.accountId === "acc_demoA")!.records).toHaveLength(200_020);
      const restored = backend(file, clock.now());
      expect(restored.b.handle.services.mentions("acc_demoA").size).toBe(200_020);
      expect((await restored.call("GET", `/v1/datasets/${ds}`)).json.data.mentions_count).toBe(20);
      expect((await restored.call("GET", `/v1/datasets/${ds}/runs/${run.json.data.id}`)).json.data.status.type).toBe(
        "completed",
      );
      expect(restored.b.handle.services.mentions("acc_demoA").inDataset(ds)).toHaveLength(20);
      expect((await restored.call("GET", `/v1/datasets/${bulk}`)).json.data.mentions_count).toBe(200_000);
      restored.b.close();
    },
  );

  it(
    "a clean stop during a sliced save finishes it at once and saves what came after",
    { timeout: 60_000 },
    async () => {
      const file = tmp();
      const { b, call } = backend(file);
      fill(b, 20_000);
      void b.saveSliced();
      expect(b.saving).toBe(true);
      // A change after the image was taken, then the stop.
      await call("POST", "/v1/datasets", { name: "After the image" });
      b.close();
      expect(b.saving).toBe(false);
      const image = readStateFile(file);
      expect(image.mentions.find((m) => m.accountId === "acc_demoA")!.records).toHaveLength(20_000);
      expect((image.tables.datasets as { name: string }[]).map((d) => d.name)).toEqual(["Bulk", "After the image"]);
    },
  );

  it(
    "a save cut short between its pieces (a crash) leaves the previous save; the next save deletes the blobs it left",
    { timeout: 60_000 },
    async () => {
      const file = tmp();
      const { b } = backend(file);
      fill(b, 20_000);
      const count = (f: string, table: string) => {
        const db = new DatabaseSync(f);
        const n = (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
        db.close();
        return n;
      };
      void b.saveSliced();
      while (b.saving && count(file, "blobs") < 5) await new Promise((r) => setImmediate(r));
      expect(b.saving).toBe(true);
      // What a kill -9 at this moment leaves on disk: the file and its write-ahead log as they are.
      const crashed = join(mkdtempSync(join(tmpdir(), "h17b-crash-")), "state.db");
      copyFileSync(file, crashed);
      if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${crashed}-wal`);
      b.close();
      expect(count(crashed, "blobs")).toBeGreaterThanOrEqual(5);
      expect(count(crashed, "chunks")).toBe(0);
      const restarted = backend(crashed);
      expect(restarted.b.handle.services.mentions("acc_demoA").size).toBe(0); // the save before: the empty scenario
      restarted.b.save();
      expect(count(crashed, "blobs")).toBe(0);
      restarted.b.close();
    },
  );

  it("a reset during a sliced save drops that save; the next one holds the scenario", { timeout: 60_000 }, async () => {
    const file = tmp();
    const { b, call } = backend(file);
    fill(b, 20_000);
    void b.saveSliced();
    expect(b.saving).toBe(true);
    expect((await call("POST", "/_reference/reset")).status).toBe(200);
    expect(b.saving).toBe(false);
    b.close();
    const image = readStateFile(file);
    expect(image.mentions.find((m) => m.accountId === "acc_demoA")?.records ?? []).toHaveLength(0);
    expect(image.tables.datasets).toEqual([]);
  });
});
