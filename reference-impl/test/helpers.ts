// Test harness: an app on a ManualClock, the demo keys, and a small request
// helper that goes through app.request() (no socket).
import { readFileSync } from "node:fs";
import { createApp, type AppOptions } from "../src/app.ts";
import { ManualClock } from "../src/platform/clock.ts";
import { assertDocumentedError } from "./contract-guard.ts";

const demo = JSON.parse(readFileSync(new URL("../../fixtures/demo-keys.json", import.meta.url), "utf8")) as {
  keys: { api_key: string; account_id: string; user_id: string }[];
};
const key = (account: string, user: string) =>
  demo.keys.find((k) => k.account_id === account && k.user_id === user)!.api_key;

export const KEYS = {
  aOwner: key("acc_demoA", "usr_a_owner"),
  aMember: key("acc_demoA", "usr_a_member"),
  bOwner: key("acc_demoB", "usr_b_owner"),
  poor: key("acc_poor", "usr_poor_owner"),
};

export function makeApp(options: AppOptions = {}) {
  const clock = new ManualClock(Date.UTC(2026, 10, 2, 9, 0, 0));
  const handle = createApp({
    clock,
    rateLimitPerSecond: 10_000,
    stepDelayMs: 300,
    seedDatasets: false,
    logger: () => {},
    ...options,
  });
  const call = async (
    method: string,
    path: string,
    opts: { key?: string | null; body?: unknown; raw?: string } = {},
  ) => {
    const headers: Record<string, string> = {};
    const apiKey = opts.key === undefined ? KEYS.aOwner : opts.key;
    if (apiKey) headers["x-api-key"] = apiKey;
    let body: string | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await handle.app.request(path, { method, headers, body });
    const text = await res.text();
    let json: any = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    assertDocumentedError(method, path, res.status, json);
    return { status: res.status, headers: res.headers, json, text };
  };
  return { ...handle, clock, call };
}

export type TestApp = ReturnType<typeof makeApp>;

export async function createDataset(t: TestApp, name = "Test dataset", key = KEYS.aOwner): Promise<string> {
  const res = await t.call("POST", "/v1/datasets", { key, body: { name } });
  if (res.status !== 201) throw new Error(`create dataset: ${res.status} ${res.text}`);
  return res.json.data.id;
}

/** Start a run and drive the ManualClock until the pipeline is idle. */
export async function runToCompletion(t: TestApp, datasetId: string, body: unknown, key = KEYS.aOwner) {
  const res = await t.call("POST", `/v1/datasets/${datasetId}/runs`, { key, body });
  if (res.status !== 202) throw new Error(`create run: ${res.status} ${res.text}`);
  await t.clock.runAll();
  const run = await t.call("GET", `/v1/datasets/${datasetId}/runs/${res.json.data.id}`, { key });
  return run.json.data;
}

export const promptRun = (query: string, count = 40, extra: Record<string, unknown> = {}) => ({
  search_query: { type: "prompt", sources: ["reddit", "tiktok", "instagram"], search_query: query },
  count,
  ...extra,
});

export const ALL_ACTIONS = [
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
  "signal",
];
