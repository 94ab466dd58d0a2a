// D-DATASET-DELETED-REFS: a deleted dataset is gone everywhere. It leaves
// every tracking agent's `dataset_ids` (and an agent left with none says so
// when triggered); custom parameter runs over it disappear with it (a
// processing one is stopped and refunded); an audience run that has not read
// its source yet fails with a full refund, while finished audience runs and
// their profiles stay readable, as the seed says.
import { describe, expect, it } from "vitest";
import { createDataset, makeApp, promptRun, runToCompletion, type TestApp } from "./helpers.ts";

const DAILY = { frequency: "daily", time: "10:00" } as const;

async function datasetWithRun(t: TestApp, name: string): Promise<string> {
  const id = await createDataset(t, name);
  await runToCompletion(t, id, promptRun(`${name} oat milk`, 40, { num_comments_per_post: 3 }));
  return id;
}

const balance = async (t: TestApp) => (await t.call("GET", "/v1/me")).json.data.usage.balance as number;

describe("a deleted dataset and tracking agents", () => {
  it("leaves dataset_ids on reads and lists; an agent left with none names it on trigger", async () => {
    const t = makeApp();
    const a = await datasetWithRun(t, "first");
    const b = await datasetWithRun(t, "second");
    const created = await t.call("POST", "/v1/tracking_agents", {
      body: { name: "Watch", instructions: "Report shifts.", dataset_ids: [a, b], schedule: DAILY },
    });
    expect(created.status).toBe(201);
    const agent = created.json.data;
    await t.clock.advance(5_000);

    expect((await t.call("DELETE", `/v1/datasets/${a}`)).status).toBe(204);
    const read = (await t.call("GET", `/v1/tracking_agents/${agent.id}`)).json.data;
    expect(read.dataset_ids).toEqual([b]);
    expect(read.updated_at).toBeGreaterThan(agent.updated_at);
    const listed = (await t.call("GET", "/v1/tracking_agents")).json.data.find((x: any) => x.id === agent.id);
    expect(listed.dataset_ids).toEqual([b]);

    expect((await t.call("DELETE", `/v1/datasets/${b}`)).status).toBe(204);
    expect((await t.call("GET", `/v1/tracking_agents/${agent.id}`)).json.data.dataset_ids).toEqual([]);
    const trigger = await t.call("POST", `/v1/tracking_agents/${agent.id}/trigger`);
    expect(trigger.status).toBe(400);
    expect(trigger.json.error_code).toBe("dataset_has_no_queries");
    expect(trigger.json.detail).toMatch(/no datasets left/);
  });

  it("leaves agents of other accounts and other datasets alone", async () => {
    const t = makeApp();
    const a = await datasetWithRun(t, "kept");
    const gone = await datasetWithRun(t, "gone");
    const agent = (
      await t.call("POST", "/v1/tracking_agents", {
        body: { name: "Only kept", instructions: "Report.", dataset_ids: [a], schedule: DAILY },
      })
    ).json.data;
    await t.call("DELETE", `/v1/datasets/${gone}`);
    const read = (await t.call("GET", `/v1/tracking_agents/${agent.id}`)).json.data;
    expect(read.dataset_ids).toEqual([a]);
    expect(read.updated_at).toBe(agent.updated_at);
  });
});

describe("a deleted dataset and custom parameter runs", () => {
  async function parameter(t: TestApp): Promise<string> {
    const res = await t.call("POST", "/v1/custom_parameters", {
      body: { name: "Mentions price", instructions: "Does the post mention a price?", value_type: "boolean" },
    });
    expect(res.status).toBe(201);
    return res.json.data.id;
  }

  it("a finished run over it leaves the run list and reads as missing", async () => {
    const t = makeApp();
    const ds = await datasetWithRun(t, "scope");
    const cp = await parameter(t);
    const started = await t.call("POST", `/v1/custom_parameters/${cp}/runs`, {
      body: { scope: { kind: "dataset", id: ds } },
    });
    expect(started.status).toBe(202);
    await t.clock.runAll();
    const runId = started.json.data.run_id;
    expect((await t.call("GET", `/v1/custom_parameters/${cp}/runs/${runId}`)).status).toBe(200);

    await t.call("DELETE", `/v1/datasets/${ds}`);
    const gone = await t.call("GET", `/v1/custom_parameters/${cp}/runs/${runId}`);
    expect(gone.status).toBe(404);
    expect(gone.json.error_code).toBe("custom_parameter_not_found");
    expect((await t.call("GET", `/v1/custom_parameters/${cp}/runs`)).json.data).toEqual([]);
    // The parameter itself stays.
    expect((await t.call("GET", `/v1/custom_parameters/${cp}`)).status).toBe(200);
  });

  it("a processing run is stopped and refunded, and the parameter can run again", async () => {
    const t = makeApp();
    const ds = await datasetWithRun(t, "busy");
    const other = await datasetWithRun(t, "other");
    const cp = await parameter(t);
    const before = await balance(t);
    const started = await t.call("POST", `/v1/custom_parameters/${cp}/runs`, {
      body: { scope: { kind: "dataset", id: ds } },
    });
    expect(started.status).toBe(202);
    expect(await balance(t)).toBeLessThan(before);

    await t.call("DELETE", `/v1/datasets/${ds}`);
    await t.clock.runAll();
    expect(await balance(t)).toBe(before);
    const again = await t.call("POST", `/v1/custom_parameters/${cp}/runs`, {
      body: { scope: { kind: "dataset", id: other } },
    });
    expect(again.status).toBe(202);
  });
});

describe("a deleted source dataset and audience runs", () => {
  async function audience(t: TestApp): Promise<string> {
    const res = await t.call("POST", "/v1/audience_datasets", { body: { name: "Baristas" } });
    expect(res.status).toBe(201);
    return res.json.data.id;
  }

  it("a finished run and its profiles stay readable; the source id reads as gone", async () => {
    const t = makeApp();
    const source = await datasetWithRun(t, "source");
    const aud = await audience(t);
    const started = await t.call("POST", `/v1/audience_datasets/${aud}/runs`, {
      body: { source_dataset_id: source, total_profile_count: 10 },
    });
    expect(started.status).toBe(202);
    await t.clock.runAll();
    const runId = started.json.data.id;

    await t.call("DELETE", `/v1/datasets/${source}`);
    const run = await t.call("GET", `/v1/audience_datasets/${aud}/runs/${runId}`);
    expect(run.status).toBe(200);
    expect(run.json.data.status.type).toBe("completed");
    expect(run.json.data.source_dataset_id).toBe(source);
    const profiles = await t.call("POST", "/v1/audience_profiles", { body: { audience_dataset_ids: [aud] } });
    expect(profiles.json.data.length).toBeGreaterThan(0);
    expect((await t.call("GET", `/v1/datasets/${source}`)).json.error_code).toBe("dataset_not_found");
    const rerun = await t.call("POST", `/v1/audience_datasets/${aud}/runs`, {
      body: { source_dataset_id: source },
    });
    expect(rerun.status).toBe(404);
    expect(rerun.json.error_code).toBe("dataset_not_found");
  });

  it("a run whose source is deleted before it reads it fails with a full refund", async () => {
    const t = makeApp();
    const source = await datasetWithRun(t, "source");
    const aud = await audience(t);
    const before = await balance(t);
    const started = await t.call("POST", `/v1/audience_datasets/${aud}/runs`, {
      body: { source_dataset_id: source, total_profile_count: 10 },
    });
    expect(started.status).toBe(202);
    await t.call("DELETE", `/v1/datasets/${source}`);
    await t.clock.runAll();
    const run = (await t.call("GET", `/v1/audience_datasets/${aud}/runs/${started.json.data.id}`)).json.data;
    expect(run.status.type).toBe("failed");
    expect(run.status.error_message).toMatch(/deleted/);
    expect(await balance(t)).toBe(before);
  });
});
