// No tenant stalls another: long run steps are sliced work
// (platform/pipeline.ts) that yields between bounded pieces, and the k-means
// fit runs on a worker thread. No timing here: these tests count pieces, so
// they fail when a step goes back to handling its whole input in one chunk,
// and they check that slicing and the worker thread change no result.
import { describe, expect, it } from "vitest";
import { PEOPLE_PER_PIECE } from "../src/domain/audiences/service.ts";
import { MENTIONS_PER_PIECE } from "../src/domain/custom-parameters/runs.ts";
import { POSTS_PER_ANALYSIS_PIECE } from "../src/domain/datasets/runs.ts";
import { clusterPosts, clusterPostsSliced, POSTS_PER_PIECE } from "../src/domain/patterns/clustering.ts";
import { drainNow, drainSliced, runOffThread, sliceCounter, type Sliced } from "../src/platform/pipeline.ts";
import { SOURCES, searchPosts } from "../src/simulators/provider.ts";
import { createDataset, makeApp, promptRun, runToCompletion } from "./helpers.ts";

function* toy(n: number): Sliced<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    out.push(i * i);
    yield;
  }
  const doubled = yield* runOffThread({ offThread: async () => out.length * 2, inThread: () => out.length * 2 });
  out.push(doubled);
  return out;
}

function posts(n: number): { text: string }[] {
  const now = Date.UTC(2026, 10, 2);
  const out: { text: string }[] = [];
  for (let q = 0; out.length < n; q++) {
    for (const source of SOURCES) {
      for (const p of searchPosts({
        source,
        query: ["oat milk", "cargo bike", "cold brew"][q % 3]!,
        count: 400,
        window: { fromMs: now - 3e10, toMs: now },
        country: "US",
        language: null,
        numComments: 0,
      })) {
        out.push({ text: `${p.title} ${p.text}` });
      }
    }
  }
  return out.slice(0, n);
}

describe("sliced work", () => {
  it("gives the same result drained at once or with event-loop turns, and hands an off-thread piece's answer back", async () => {
    const before = sliceCounter.pieces;
    const later = await drainSliced(toy(50));
    expect(sliceCounter.pieces - before).toBe(51);
    expect(later).toEqual(drainNow(toy(50)));
    expect(later.at(-1)).toBe(100);
  });

  it("clusters 3,000 posts identically with the worker-thread fit and the in-thread fit, in pieces of at most POSTS_PER_PIECE posts", async () => {
    const input = posts(3000);
    const question = "What do people say about the price and the taste?";
    const before = sliceCounter.pieces;
    const offThread = await drainSliced(clusterPostsSliced(input, question));
    // Tokenising, BM25 learning and vectors each yield every POSTS_PER_PIECE posts.
    expect(sliceCounter.pieces - before).toBeGreaterThanOrEqual((3 * input.length) / POSTS_PER_PIECE);
    expect(offThread.clusters.length).toBeGreaterThan(1);
    expect(offThread).toEqual(clusterPosts(input, question));
  });
});

describe("run steps are cut into pieces that grow with their input", () => {
  it("dataset run analysis, pattern detection, custom parameter run and audience run", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const datasetId = await createDataset(t, "Sliced");
    let before = sliceCounter.pieces;
    const run = await runToCompletion(
      t,
      datasetId,
      promptRun("oat milk", 600, {
        content_analysis_actions: ["sentiment", "topics", "entities"],
        num_comments_per_post: 3,
      }),
    );
    expect(run.status.type).toBe("completed");
    const collected = run.mentions_count as number;
    expect(collected).toBeGreaterThan(400);
    // Enrichment and analysis each yield every POSTS_PER_ANALYSIS_PIECE posts.
    expect(sliceCounter.pieces - before).toBeGreaterThanOrEqual(
      2 * Math.floor((collected - 1) / POSTS_PER_ANALYSIS_PIECE),
    );

    before = sliceCounter.pieces;
    const detection = await t.call("POST", "/v1/pattern_detections", {
      body: { dataset_id: datasetId, name: "p", research_question: "Why do people switch?" },
    });
    expect(detection.status).toBe(202);
    await t.clock.runAll();
    expect((await t.call("GET", `/v1/pattern_detections/${detection.json.data.run_id}`)).json.data.status.type).toBe(
      "completed",
    );
    expect(sliceCounter.pieces - before).toBeGreaterThanOrEqual(3 * Math.floor(collected / POSTS_PER_PIECE));

    const parameter = await t.call("POST", "/v1/custom_parameters", {
      body: {
        name: "bought",
        instructions: "Answer true when the author says they bought it; otherwise false.",
        value_type: "boolean",
      },
    });
    before = sliceCounter.pieces;
    const cpr = await t.call("POST", `/v1/custom_parameters/${parameter.json.data.id}/runs`, {
      body: { scope: { kind: "dataset", id: datasetId } },
    });
    expect(cpr.status).toBe(202);
    await t.clock.runAll();
    expect(sliceCounter.pieces - before).toBeGreaterThanOrEqual(Math.floor((collected - 1) / MENTIONS_PER_PIECE));

    const audience = await t.call("POST", "/v1/audience_datasets", { body: { name: "a" } });
    before = sliceCounter.pieces;
    const ar = await t.call("POST", `/v1/audience_datasets/${audience.json.data.id}/runs`, {
      body: { source_dataset_id: datasetId, total_profile_count: 400 },
    });
    expect(ar.status).toBe(202);
    await t.clock.runAll();
    const arRun = (await t.call("GET", `/v1/audience_datasets/${audience.json.data.id}/runs/${ar.json.data.id}`)).json
      .data;
    expect(arRun.status.type).toBe("completed");
    expect(arRun.profile_count).toBeGreaterThan(100);
    expect(sliceCounter.pieces - before).toBeGreaterThanOrEqual(Math.floor(arRun.profile_count / PEOPLE_PER_PIECE));
  }, 60_000);
});
