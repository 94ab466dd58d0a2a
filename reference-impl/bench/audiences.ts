// Bench: CPU time of one audience run of 2,000 profiles with the pipeline
// delay at 0: the walk over the source's authors and commenters, the text
// analysis of each person's writing (wink-nlp + AFINN), the profile fields and
// the store. CPU time is process.cpuUsage (user + system) from the POST to
// the run's completion, so idle clock time cannot count. Goal: under 2 s.
import { createApp } from "../src/app.ts";
import { demoKeys } from "../src/fixtures/load.ts";
import { money } from "../src/platform/billing/money.ts";
import { ManualClock } from "../src/platform/clock.ts";
import { analyse } from "../src/simulators/analysis.ts";
import { searchPosts, type Source } from "../src/simulators/provider.ts";

const PROFILES = 2000;
const GOAL_MS = 2000;

export async function audienceBench(): Promise<string> {
  const clock = new ManualClock(Date.UTC(2026, 10, 2, 9, 0, 0));
  const { app, services } = createApp({
    clock,
    stepDelayMs: 0,
    rateLimitPerSecond: 1_000_000_000,
    seedDatasets: false,
    logger: () => {},
  });
  const account = "acc_demoA";
  const key = demoKeys().find((k) => k.account_id === account)!.api_key;
  services.ledger.open(account, "pro", money(100_000));
  // The source is filled directly and its run marked completed (its collection is not what is measured):
  // 800 posts with up to 3 comments each, more people than the run asks for.
  const dataset = services.datasets.insert(account, "Audience bench source");
  const pool = services.mentions(account);
  const window = { fromMs: clock.now() - 365 * 86_400_000, toMs: clock.now() };
  const sources: Source[] = ["reddit", "tiktok", "instagram", "linkedin"];
  for (let q = 0; dataset.mentions_count < 800; q++) {
    for (const source of sources) {
      for (const post of searchPosts({
        source,
        query: `audience bench ${q}`,
        count: 200,
        window,
        country: "US",
        language: null,
        numComments: 3,
      })) {
        const r = pool.upsert(post, analyse(post.text, ["sentiment"]), {
          datasetId: dataset.id,
          runId: "dsr_audbench",
          coefficient: 1,
          runAtMs: clock.now(),
          numComments: 3,
        });
        if (r.newToDataset) dataset.mentions_count++;
      }
    }
  }
  services.datasets.markRunCompleted(dataset, "dsr_audbench");

  const call = async (path: string, body: unknown) => {
    const res = await app.request(path, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: Record<string, string> }).data;
  };

  const audience = await call("/v1/audience_datasets", { name: "Audience bench" });
  const cpu = process.cpuUsage();
  const run = await call(`/v1/audience_datasets/${audience.id}/runs`, {
    source_dataset_id: dataset.id,
    total_profile_count: PROFILES,
  });
  await clock.runAll();
  const used = process.cpuUsage(cpu);
  const ms = (used.user + used.system) / 1000;
  const row = services.tables.audienceRuns.raw(run.id!)!;
  if (row.status.type !== "completed" || row.profile_count !== PROFILES) {
    throw new Error(
      `audience run ${run.id} ended ${row.status.type} with ${row.profile_count} of ${PROFILES} profiles`,
    );
  }
  return `audience run of ${PROFILES} profiles (${dataset.mentions_count} source posts), pipeline delay 0, CPU time (user + system): ${ms.toFixed(0)} ms  (goal < ${GOAL_MS} ms: ${ms < GOAL_MS ? "met" : "NOT met"})`;
}
