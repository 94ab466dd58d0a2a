// `--state FILE` in process (D-REF-STATE): every store survives a save and a
// restore (compared through the API, every group), a run in flight at the
// snapshot comes back failed with a full refund, and a damaged or foreign
// file is refused with one line. The kill -9 property test with real server
// processes is dev-backend-restart.test.ts.
import { mkdtempSync, writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Services } from "../src/compose.ts";
import { ManualClock } from "../src/platform/clock.ts";
import { Table } from "../src/platform/store.ts";
import { tablesOf } from "../src/persistence/image.ts";
import { INTERRUPTED_MESSAGE } from "../src/persistence/interrupted.ts";
import { readStateFile } from "../src/persistence/state-file.ts";
import { Backend } from "../src/scenarios/backend.ts";
import { KEYS } from "./helpers.ts";

const tmp = () => join(mkdtempSync(join(tmpdir(), "h17-state-")), "state.db");

function backend(stateFile: string, scenario: "demo" | "empty" = "demo", startMs = Date.UTC(2026, 10, 2, 9, 0, 0)) {
  const clock = new ManualClock(startMs);
  const b = new Backend({
    stateFile,
    scenario: { scenario },
    stateIntervalMs: 3_600_000,
    app: { clock, stepDelayMs: 300, rateLimitPerSecond: 10_000, logger: () => {} },
  });
  const call = async (method: string, path: string, body?: unknown, key = KEYS.aOwner) => {
    const res = await b.request(path, {
      method,
      headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as any) : undefined };
  };
  return { b, clock, call };
}

type Call = ReturnType<typeof backend>["call"];

/** Everything a client can list or read, for both demo accounts. */
async function everything(call: Call, ids: Record<string, string>) {
  const out: Record<string, unknown> = {};
  for (const key of [KEYS.aOwner, KEYS.bOwner]) {
    const get = async (path: string) =>
      (out[`${key.slice(0, 14)} ${path}`] = (await call("GET", path, undefined, key)).json);
    const post = async (path: string, body: unknown) =>
      (out[`${key.slice(0, 14)} POST ${path} ${JSON.stringify(body)}`] = (await call("POST", path, body, key)).json);
    await get("/v1/me");
    await get("/v1/me/usage_history?limit=100");
    await get("/v1/prices");
    const datasets = (await get("/v1/datasets?limit=100")).data as { id: string }[];
    for (const d of datasets) await get(`/v1/datasets/${d.id}/runs?limit=100`);
    await get("/v1/custom_parameters?limit=100");
    await get("/v1/audience_datasets?limit=100");
    await get("/v1/tracking_agents?limit=100");
    for (const sort of ["created_at", "likes", "engagement_rate"])
      await post("/v1/mentions", { limit: 100, sort, order: "desc" });
    await post("/v1/mentions", { q: "oat milk", limit: 50 });
  }
  await call("GET", `/v1/pattern_detections/${ids.pdr}`).then((r) => (out.pdr = r.json));
  await call("GET", `/v1/custom_parameters/${ids.cp}/runs?limit=100`).then((r) => (out.cpRuns = r.json));
  await call("POST", "/v1/mentions", { dataset_ids: [ids.ds], parameter_ids: [ids.cp], limit: 100 }).then(
    (r) => (out.values = r.json),
  );
  await call("POST", "/v1/audience_profiles", { audience_dataset_ids: [ids.aud], limit: 100 }).then(
    (r) => (out.profiles = r.json),
  );
  await call("GET", `/v1/tracking_agents/${ids.agent}/messages?limit=100`).then((r) => (out.alerts = r.json));
  await call("GET", `/v1/chats/${ids.chat}/messages?limit=100`).then((r) => (out.chat = r.json));
  await call("GET", `/v1/research_previews/${ids.preview}`).then((r) => (out.preview = r.json));
  return out;
}

describe("--state: save and restore", () => {
  it("every Table of the services is in the image", () => {
    const services = new Services(new ManualClock(), {} as never, {} as never, {} as never);
    const found = new Set<unknown>();
    const walk = (o: unknown, depth: number) => {
      if (!o || typeof o !== "object" || depth > 3) return;
      if (o instanceof Table) return void found.add(o);
      for (const v of Object.values(o)) walk(v, depth + 1);
    };
    walk(services, 0);
    const saved = new Set<unknown>(Object.values(tablesOf(services)));
    expect(found.size).toBeGreaterThan(10);
    for (const t of found) expect(saved.has(t)).toBe(true);
  });

  it("restores every group as the API showed it before the stop", async () => {
    const file = tmp();
    const first = backend(file);
    const { call, clock } = first;
    const ds = (await call("POST", "/v1/datasets", { name: "Saved" })).json.data.id;
    await call("POST", `/v1/datasets/${ds}/runs`, {
      search_query: { type: "prompt", sources: ["reddit", "tiktok"], search_query: "oat milk" },
      count: 40,
    });
    await clock.advance(60_000);
    const cp = (
      await call("POST", "/v1/custom_parameters", {
        name: "Price talk",
        instructions: "Does the post mention the price?",
        value_type: "boolean",
      })
    ).json.data.id;
    await call("POST", `/v1/custom_parameters/${cp}/runs`, { scope: { kind: "dataset", id: ds } });
    const aud = (await call("POST", "/v1/audience_datasets", { name: "People" })).json.data.id;
    await call("POST", `/v1/audience_datasets/${aud}/runs`, { source_dataset_id: ds, total_profile_count: 10 });
    const pdr = (
      await call("POST", "/v1/pattern_detections", {
        dataset_id: ds,
        name: "Why",
        research_question: "Why do people switch to oat milk?",
      })
    ).json.data.run_id;
    const agent = (
      await call("POST", "/v1/tracking_agents", {
        name: "Watch",
        instructions: "Report shifts.",
        dataset_ids: [ds],
        schedule: { frequency: "daily", time: "10:00" },
      })
    ).json.data.id;
    await call("POST", `/v1/tracking_agents/${agent}/trigger`);
    const chat = (await call("POST", "/v1/ask", { message: "What do people say about oat milk?" })).json.data.chat_id;
    const preview = (
      await call("POST", "/v1/research_previews", {
        type: "prompt",
        sources: ["reddit"],
        search_query: "cold brew",
        time_filter: "past_month",
      })
    ).json.data.preview_id;
    await call("PATCH", `/v1/datasets/${ds}`, { name: "Saved and renamed" });
    // Long enough for every run and reply, short of the agent's next daily slot.
    await clock.advance(10 * 60_000);
    const ids = { ds, cp, aud, pdr, agent, chat, preview };
    const before = await everything(call, ids);
    first.b.close();

    const second = backend(file, "demo", clock.now());
    expect(second.b.origin).toBe(`state file ${file}`);
    expect(await everything(second.call, ids)).toEqual(before);
    // The restored server keeps working: a new run lands next to the restored posts.
    await second.call("POST", `/v1/datasets/${ds}/runs`, {
      search_query: { type: "prompt", sources: ["youtube"], search_query: "oat milk" },
      count: 20,
    });
    await second.clock.advance(60_000);
    expect((await second.call("GET", `/v1/datasets/${ds}`)).json.data.mentions_count).toBe(
      (before[`${KEYS.aOwner.slice(0, 14)} /v1/datasets?limit=100`] as any).data.find((d: any) => d.id === ds)
        .mentions_count + 20,
    );
  });

  it("a run in flight at the snapshot comes back failed, its reservation refunded in full", async () => {
    const file = tmp();
    const { b, call } = backend(file, "empty");
    const balance = (await call("GET", "/v1/me")).json.data.usage.balance;
    const ds = (await call("POST", "/v1/datasets", { name: "Interrupted" })).json.data.id;
    const run = (
      await call("POST", `/v1/datasets/${ds}/runs`, {
        search_query: { type: "prompt", sources: ["reddit"], search_query: "tea" },
        count: 100,
      })
    ).json.data.id;
    const ask = (await call("POST", "/v1/ask", { message: "Anything about tea?" })).json.data;
    expect((await call("GET", "/v1/me")).json.data.usage.balance).toBeLessThan(balance);
    b.save(); // a periodic snapshot while both are in flight, then the process dies

    const after = backend(file, "empty");
    const restored = (await after.call("GET", `/v1/datasets/${ds}/runs/${run}`)).json.data;
    expect(restored.status).toEqual({ type: "failed", steps: [], error_message: INTERRUPTED_MESSAGE });
    expect((await after.call("GET", "/v1/me")).json.data.usage.balance).toBe(balance);
    expect((await after.call("GET", "/v1/me/usage_history")).json.data).toEqual([]);
    const reply = (await after.call("GET", `/v1/chats/${ask.chat_id}/messages/${ask.message_id}`)).json.data;
    expect(reply.status).toBe("failed");
  });

  it("a damaged, foreign or newer file is one clear line and no start", () => {
    const garbage = tmp();
    writeFileSync(garbage, "this is not a database at all, just some words".repeat(100));
    expect(() => backend(garbage)).toThrow(
      new RegExp(`^state file ${garbage} (is damaged|cannot be opened|is not a reference-server state file)`),
    );
    const file = tmp();
    backend(file, "empty").b.close();
    const image = readStateFile(file);
    expect(image.format).toBe(1);
    // A format this server does not read.
    const db = new DatabaseSync(file);
    db.exec("UPDATE meta SET value = '99' WHERE key = 'format'");
    db.close();
    expect(() => backend(file)).toThrow(
      `state file ${file} has format 99, this server reads format 1; move it away or start without --state`,
    );
  });

  it("a save cut short before its commit (a crash mid-write) leaves the previous save in force", async () => {
    const file = tmp();
    const first = backend(file, "empty");
    await first.call("POST", "/v1/datasets", { name: "Kept" });
    first.b.close();
    // What a process killed in the middle of a save leaves: a transaction that never committed.
    const db = new DatabaseSync(file);
    db.exec("BEGIN; DELETE FROM sections; INSERT INTO sections (name, data) VALUES ('tables', x'00');");
    db.close();
    const second = backend(file, "empty");
    expect((await second.call("GET", "/v1/datasets")).json.data.map((d: any) => d.name)).toEqual(["Kept"]);
    second.b.close();
    expect(readStateFile(file).tables.datasets).toHaveLength(1);
  });

  it("after a reset the file holds the scenario plus what came after, never the pools from before", async () => {
    const file = tmp();
    const { b, call, clock } = backend(file, "demo");
    const pool = () => b.handle.services.mentions("acc_demoA").size;
    const scenarioSize = pool();
    const before = (await call("POST", "/v1/datasets", { name: "Before the reset" })).json.data.id;
    await call("POST", `/v1/datasets/${before}/runs`, {
      search_query: { type: "prompt", sources: ["tiktok"], search_query: "matcha" },
      count: 30,
    });
    await clock.advance(60_000);
    b.save();
    expect((await call("POST", "/_reference/reset")).status).toBe(200);
    // Posts land in the chunk the scenario's bytes cover: that chunk must be written anew.
    const after = (await call("POST", "/v1/datasets", { name: "After the reset" })).json.data.id;
    await call("POST", `/v1/datasets/${after}/runs`, {
      search_query: { type: "prompt", sources: ["reddit"], search_query: "kombucha" },
      count: 20,
    });
    await clock.advance(60_000);
    expect(pool()).toBe(scenarioSize + 20);
    b.close();
    const restored = backend(file, "demo", clock.now());
    expect(restored.b.handle.services.mentions("acc_demoA").size).toBe(scenarioSize + 20);
    expect((await restored.call("GET", "/v1/datasets?limit=100")).json.data.map((d: any) => d.name)).toContain(
      "After the reset",
    );
    expect((await restored.call("GET", `/v1/datasets/${before}`)).status).toBe(404);
    expect((await restored.call("GET", `/v1/datasets/${after}`)).json.data.mentions_count).toBe(20);
  });

  it("a periodic save writes only the mention chunks that changed", async () => {
    const file = tmp();
    const { b, call, clock } = backend(file, "demo");
    const ds = (await call("POST", "/v1/datasets", { name: "Grows" })).json.data.id;
    // A row moved in the very millisecond of a save is written again by the next one (the manual clock stands still here).
    await clock.advance(1);
    b.save();
    expect(b.save()!.chunksWritten).toBe(0); // nothing changed in any pool
    await clock.advance(1000);
    await call("POST", `/v1/datasets/${ds}/runs`, {
      search_query: { type: "prompt", sources: ["reddit"], search_query: "kombucha" },
      count: 20,
    });
    await clock.advance(60_000);
    expect(b.save()!.chunksWritten).toBe(1); // the chunk the new posts joined, in account A only
    b.close();
    const restored = backend(file, "demo");
    expect((await restored.call("GET", `/v1/datasets/${ds}`)).json.data.mentions_count).toBe(20);
  });
});
