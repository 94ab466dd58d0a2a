// Bench: does expensive work stall other tenants?
// For each kind of expensive work, an app on the real SystemClock (pipeline
// delay 1 ms) answers `GET /v1/prices` with another account's key every
// PROBE_MS while the work runs, and once with nothing running. A probe's
// latency counts from when it was due, not from when its timer fired, so a
// long synchronous chunk shows up in full (a client's request waits for the
// event loop whether or not the app is inside a request). Goal: p99 < 50 ms.
// In process (app.request): HTTP parsing is the same for every tenant and
// is not what is measured.
import { setTimeout as sleep } from "node:timers/promises";
import { createApp } from "../src/app.ts";
import { demoKeys } from "../src/fixtures/load.ts";
import { money } from "../src/platform/billing/money.ts";
import { SystemClock } from "../src/platform/clock.ts";
import { sliceCounter } from "../src/platform/pipeline.ts";
import { preloadNlp } from "../src/nlp-preload.ts";
import { analyse } from "../src/simulators/analysis.ts";
import { SOURCES, searchPosts, type Source } from "../src/simulators/provider.ts";

const PROBE_MS = 2;

/** True once a run has ended; a failed run stops the bench (its numbers would mean nothing). */
function ended(status: { type: string; error_message?: string }): boolean {
  if (status.type === "failed") throw new Error(`the measured run failed: ${status.error_message ?? ""}`);
  return status.type === "completed";
}
const GOAL_MS = 50;
const ASSISTANT_MENTIONS = Number(process.env.STALL_ASSISTANT_MENTIONS ?? 100_000);
const WORKER = "acc_demoA";
const keyOf = (account: string) => demoKeys().find((k) => k.account_id === account)!.api_key;

function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

type Handle = ReturnType<typeof createApp>;

/**
 * The system clock with unref'd timers: the apps' own schedules (agent
 * cycles, reveals) must not keep the bench process alive once it has
 * printed. The probes' sleeps are ordinary timers, so nothing stops early.
 */
class BenchClock extends SystemClock {
  override schedule(delayMs: number, task: () => unknown): () => void {
    const handle = setTimeout(() => void task(), Math.max(0, delayMs));
    handle.unref();
    return () => clearTimeout(handle);
  }
}

function freshApp(): Handle {
  const handle = createApp({
    clock: new BenchClock(),
    stepDelayMs: 1,
    rateLimitPerSecond: 1_000_000_000,
    seedDatasets: false,
    logger: () => {},
  });
  handle.services.ledger.open(WORKER, "pro", money(1_000_000));
  return handle;
}

/** A completed run of `count` posts in a new dataset of the worker account, filled directly (its collection is not measured). */
function fillDataset(
  h: Handle,
  label: string,
  count: number,
  numComments: number,
  sources: readonly Source[] = SOURCES,
): string {
  const dataset = h.services.datasets.insert(WORKER, label);
  const pool = h.services.mentions(WORKER);
  const runId = `dsr_stall_${label.replace(/\W/g, "")}`;
  const now = Date.now();
  const window = { fromMs: now - 365 * 86_400_000, toMs: now };
  const queries = ["oat milk", "cargo bike", "cold brew", "running shoes"];
  for (let q = 0; dataset.mentions_count < count; q++) {
    for (const source of sources) {
      const query = `${queries[q % queries.length]} ${Math.floor(q / queries.length) || ""}`.trim();
      for (const post of searchPosts({
        source,
        query,
        count: 1000,
        window,
        country: "US",
        language: null,
        numComments,
      })) {
        if (dataset.mentions_count >= count) break;
        const r = pool.upsert(post, analyse(post.text, ["sentiment", "mentioned_brands"]), {
          datasetId: dataset.id,
          runId,
          coefficient: 1,
          runAtMs: now,
          numComments,
        });
        if (r.newToDataset) dataset.mentions_count++;
      }
    }
  }
  h.services.datasets.markRunCompleted(dataset, runId);
  return dataset.id;
}

async function post(h: Handle, path: string, body: unknown): Promise<Record<string, string>> {
  const res = await h.app.request(path, {
    method: "POST",
    headers: { "x-api-key": keyOf(WORKER), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: Record<string, string> }).data;
}

/** Probe `GET /v1/prices` as acc_demoB every PROBE_MS until `done()` (bounded by `maxMs`). */
async function probe(h: Handle, done: () => boolean, maxMs: number): Promise<number[]> {
  const key = keyOf("acc_demoB");
  const out: number[] = [];
  const end = performance.now() + maxMs;
  while (!done() && performance.now() < end) {
    const due = performance.now() + PROBE_MS;
    await sleep(PROBE_MS);
    const res = await h.app.request("/v1/prices", { headers: { "x-api-key": key } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`probe answered ${res.status}`);
    out.push(performance.now() - due);
  }
  return out;
}

interface Work {
  label: string;
  /** Prepare data (not measured) and return a starter that begins the work and a test for its end. */
  prepare: (h: Handle) => Promise<() => Promise<() => boolean>>;
}

const WORKS: Work[] = [
  {
    label: "pattern detection, 10,000 posts",
    prepare: async (h) => {
      const datasetId = fillDataset(h, "patterns", 10_000, 0);
      return async () => {
        const run = await post(h, "/v1/pattern_detections", {
          dataset_id: datasetId,
          name: "stall",
          research_question: "What do people say about the price and the taste?",
        });
        return () => ended(h.services.tables.patternDetections.raw(run.run_id!)!.status);
      };
    },
  },
  {
    label: "audience run, 2,000 profiles",
    prepare: async (h) => {
      const datasetId = fillDataset(h, "audience", 800, 3, ["reddit", "tiktok", "instagram", "linkedin"]);
      const audience = await post(h, "/v1/audience_datasets", { name: "stall" });
      return async () => {
        const run = await post(h, `/v1/audience_datasets/${audience.id}/runs`, {
          source_dataset_id: datasetId,
          total_profile_count: 2000,
        });
        return () => ended(h.services.tables.audienceRuns.raw(run.id!)!.status);
      };
    },
  },
  {
    label: "dataset run, 1,000 posts, every analysis",
    prepare: async (h) => {
      const dataset = await post(h, "/v1/datasets", { name: "stall" });
      const actions = [
        "content_category",
        "tone_of_voice",
        "narrative_structure",
        "intent",
        "hook",
        "mentioned_brands",
        "topics",
        "emotions",
        "cta",
        "entities",
        "questions",
        "sentiment",
      ];
      return async () => {
        const run = await post(h, `/v1/datasets/${dataset.id}/runs`, {
          search_query: {
            type: "prompt",
            sources: ["reddit", "tiktok", "instagram", "youtube"],
            search_query: "oat milk froth",
          },
          count: 1000,
          num_comments_per_post: 5,
          content_analysis_actions: actions,
          enable_visual_recognition: true,
          enable_transcribing: true,
        });
        return () => ended(h.services.tables.datasetRuns.raw(run.id!)!.status);
      };
    },
  },
  {
    label: "custom parameter run, 10,000 mentions",
    prepare: async (h) => {
      const datasetId = fillDataset(h, "custom", 10_000, 0);
      const parameter = await post(h, "/v1/custom_parameters", {
        name: "stall",
        instructions: "Answer true when the author says they bought, plan to buy or switched; otherwise false.",
        value_type: "boolean",
      });
      return async () => {
        const run = await post(h, `/v1/custom_parameters/${parameter.id}/runs`, {
          scope: { kind: "dataset", id: datasetId },
        });
        return () => ended(h.services.tables.customParameterRuns.raw(run.run_id!)!.status);
      };
    },
  },
  {
    label: `assistant turns, ${ASSISTANT_MENTIONS.toLocaleString("en")} mentions (first + 3 warm)`,
    prepare: async (h) => {
      fillDataset(h, "assistant", ASSISTANT_MENTIONS, 2);
      return async () => {
        const ids: string[] = [];
        const questions = [
          "What do people complain about with oat milk froth?",
          "Which brands come up with oat milk?",
          "Summarise complaints about taste",
          "How is the foam on TikTok?",
        ];
        let asked = 0;
        const ask = async () => {
          const res = await h.app.request("/v1/ask", {
            method: "POST",
            headers: { "x-api-key": keyOf(WORKER), "content-type": "application/json" },
            body: JSON.stringify({ message: questions[asked++] }),
          });
          if (res.status !== 202) throw new Error(`ask: ${res.status} ${await res.text()}`);
          ids.push(((await res.json()) as { data: { message_id: string } }).data.message_id);
        };
        await ask();
        // One turn after another: the next is asked when the previous ends.
        return () => {
          if (ids.length < asked) return false; // an ask is still being accepted
          const last = h.services.assistant.messages.get(WORKER, ids.at(-1)!)!;
          if (last.status === "failed") throw new Error(`the measured turn failed: ${last.failure ?? ""}`);
          if (last.status === "working") return false;
          if (asked >= questions.length) return true;
          void ask();
          return false;
        };
      };
    },
  },
];

export async function stallBench(): Promise<string> {
  // As `npm start` does: the NLP models are built before the first request.
  preloadNlp();
  const lines = [
    `cheap request (GET /v1/prices, another account) every ${PROBE_MS} ms, latency from when it was due, SystemClock, pipeline delay 1 ms:`,
  ];
  const idleApp = freshApp();
  const idle = await probe(idleApp, () => false, 1000);
  lines.push(
    `  ${"idle".padEnd(52)} p50 ${percentile(idle, 50).toFixed(1).padStart(6)} ms  p99 ${percentile(idle, 99).toFixed(1).padStart(6)} ms  max ${Math.max(
      ...idle,
    )
      .toFixed(1)
      .padStart(6)} ms  n=${idle.length}`,
  );
  for (const work of WORKS) {
    const h = freshApp();
    const start = await work.prepare(h);
    const pieces = sliceCounter.pieces;
    const t0 = performance.now();
    const done = await start();
    const during = await probe(h, done, 120_000);
    const took = performance.now() - t0;
    const p99 = percentile(during, 99);
    lines.push(
      `  ${work.label.padEnd(52)} p50 ${percentile(during, 50).toFixed(1).padStart(6)} ms  p99 ${p99.toFixed(1).padStart(6)} ms  max ${Math.max(
        ...during,
      )
        .toFixed(1)
        .padStart(
          6,
        )} ms  n=${during.length}, work ${took.toFixed(0)} ms in ${sliceCounter.pieces - pieces} pieces  (goal p99 < ${GOAL_MS} ms: ${p99 < GOAL_MS ? "met" : "NOT met"})`,
    );
  }
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await stallBench());
