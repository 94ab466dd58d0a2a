// Bench: CPU time of one custom parameter run over 10,000 mentions with the
// pipeline delay at 0, for three kinds of instruction (a brand lookup, a
// yes/no criterion read through wink-nlp lemmas, an AFINN sentiment). CPU
// time is process.cpuUsage (user + system) from the POST to the run's
// completion, so idle clock time cannot count; the NLP model is loaded
// before measuring. Goal: under 2 s each.
import { createApp } from "../src/app.ts";
import { compileInstructions } from "../src/domain/custom-parameters/extractor.ts";
import { demoKeys } from "../src/fixtures/load.ts";
import { money } from "../src/platform/billing/money.ts";
import { ManualClock } from "../src/platform/clock.ts";
import { analyse } from "../src/simulators/analysis.ts";
import { SOURCES, searchPosts } from "../src/simulators/provider.ts";

const MENTIONS = 10_000;
const GOAL_MS = 2000;

const INSTRUCTIONS: [label: string, instructions: string, valueType: string][] = [
  ["brands (string)", "Which brands does the author mention?", "string"],
  [
    "criterion (boolean)",
    "Answer true when the author says they bought, plan to buy or switched; otherwise false.",
    "boolean",
  ],
  ["sentiment (string)", "What is the overall sentiment of the post?", "string"],
];

export async function customParameterBench(): Promise<string> {
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
  // Enough balance for every run; the dataset is filled directly (its collection is not what is measured).
  services.ledger.open(account, "pro", money(100_000));
  const dataset = services.datasets.insert(account, "Custom parameter bench");
  const pool = services.mentions(account);
  const window = { fromMs: clock.now() - 365 * 86_400_000, toMs: clock.now() };
  for (let q = 0; dataset.mentions_count < MENTIONS; q++) {
    for (const source of SOURCES) {
      for (const post of searchPosts({
        source,
        query: `cp bench ${q}`,
        count: 1000,
        window,
        country: "US",
        language: null,
        numComments: 0,
      })) {
        if (dataset.mentions_count >= MENTIONS) break;
        const r = pool.upsert(post, analyse(post.text, ["sentiment"]), {
          datasetId: dataset.id,
          runId: "dsr_cpbench",
          coefficient: 1,
          runAtMs: clock.now(),
          numComments: 0,
        });
        if (r.newToDataset) dataset.mentions_count++;
      }
    }
  }

  const call = async (path: string, body: unknown) => {
    const res = await app.request(path, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: Record<string, string> }).data;
  };

  // wink-nlp loads its model on first use, once per process, as a running server already has.
  compileInstructions("Does the author agree?", "boolean").extract({ title: "", text: "I agree.", language: "en" });
  const lines = [`custom parameter run over ${MENTIONS} mentions, pipeline delay 0, CPU time (user + system):`];
  for (const [label, instructions, value_type] of INSTRUCTIONS) {
    const parameter = await call("/v1/custom_parameters", { name: label, instructions, value_type });
    const cpu = process.cpuUsage();
    const { run_id } = await call(`/v1/custom_parameters/${parameter.id}/runs`, {
      scope: { kind: "dataset", id: dataset.id },
    });
    await clock.runAll();
    const used = process.cpuUsage(cpu);
    const ms = (used.user + used.system) / 1000;
    const run = services.tables.customParameterRuns.raw(run_id)!;
    if (run.status.type !== "completed" || run.mentions_done + run.mentions_error !== MENTIONS) {
      throw new Error(
        `run ${run_id} ended ${run.status.type} with ${run.mentions_done}+${run.mentions_error} of ${MENTIONS}`,
      );
    }
    lines.push(
      `  ${label.padEnd(20)} ${ms.toFixed(0)} ms  (done ${run.mentions_done}, error ${run.mentions_error}; goal < ${GOAL_MS} ms: ${ms < GOAL_MS ? "met" : "NOT met"})`,
    );
  }
  return lines.join("\n");
}
