// Custom parameter runs and previews through the API: the order of the
// creation checks (D-CPR-CHECK-ORDER), the counters and the move to
// `completed` (D-CPR-STATES), posts that fail and are not charged
// (D-CPR-ERROR-CHARGE), values read back through POST /v1/mentions, the
// free preview (D-CP-PREVIEW-MISS), delete during a run (D-CP-DELETE), and
// ledger conservation across any sequence of runs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MENTIONS_PER_STEP } from "../src/domain/custom-parameters/runs.ts";
import { money } from "../src/platform/billing/money.ts";
import { BRANDS } from "../src/simulators/corpus.ts";
import { createDataset, KEYS, makeApp, promptRun, runToCompletion, type TestApp } from "./helpers.ts";

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`custom parameter runs properties: fast-check seed ${SEED} (rerun with FC_SEED=${SEED})`);

const A = "acc_demoA";

async function parameter(
  t: TestApp,
  name: string,
  instructions: string,
  value_type = "string",
  key = KEYS.aOwner,
): Promise<string> {
  const res = await t.call("POST", "/v1/custom_parameters", { key, body: { name, instructions, value_type } });
  if (res.status !== 201) throw new Error(`create parameter: ${res.status} ${res.text}`);
  return res.json.data.id;
}

async function dataset(
  t: TestApp,
  query = "oat milk",
  count = 40,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const id = await createDataset(t, query);
  await runToCompletion(t, id, promptRun(query, count, extra));
  return id;
}

const start = (t: TestApp, parameterId: string, datasetId: string, key = KEYS.aOwner) =>
  t.call("POST", `/v1/custom_parameters/${parameterId}/runs`, {
    key,
    body: { scope: { kind: "dataset", id: datasetId } },
  });

const readRun = async (t: TestApp, parameterId: string, runId: string) =>
  (await t.call("GET", `/v1/custom_parameters/${parameterId}/runs/${runId}`)).json.data;

async function mentionsOf(t: TestApp, datasetId: string, parameterIds?: string[]) {
  const out: any[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const res = await t.call("POST", "/v1/mentions", {
      body: { dataset_ids: [datasetId], limit: 100, cursor, parameter_ids: parameterIds },
    });
    expect(res.status).toBe(200);
    out.push(...res.json.data);
    if (!res.json.has_next) break;
    cursor = res.json.cursor;
  }
  return out;
}

describe("custom parameter runs", () => {
  it("reserves 0.5 unit per mention, moves to completed when done + error = total, and charges the processed posts", async () => {
    const t = makeApp();
    const ds = await dataset(t);
    const total = (await t.call("GET", `/v1/datasets/${ds}`)).json.data.mentions_count;
    const cp = await parameter(t, "Brands", "Which brands are mentioned?");
    const before = t.ledger.balance(A);

    const res = await start(t, cp, ds);
    expect(res.status).toBe(202);
    expect(Object.keys(res.json.data)).toEqual(["run_id"]);
    const runId = res.json.data.run_id;
    expect(runId).toMatch(/^cpr_/);
    expect(before.sub(t.ledger.balance(A)).eq(t.ledger.quote(A, "post_processing", total))).toBe(true);
    const pending = await readRun(t, cp, runId);
    expect(pending).toMatchObject({
      custom_parameter_id: cp,
      scope: { kind: "dataset", id: ds },
      status: { type: "processing" },
    });
    expect(pending).toMatchObject({ mentions_total: total, mentions_done: 0, mentions_error: 0 });

    await t.clock.runAll();
    const done = await readRun(t, cp, runId);
    expect(done.status).toEqual({ type: "completed" });
    expect(done.mentions_done + done.mentions_error).toBe(total);
    expect(before.sub(t.ledger.balance(A)).eq(t.ledger.quote(A, "post_processing", done.mentions_done))).toBe(true);
    expect(t.ledger.held(A).isZero()).toBe(true);
    const rows = (await t.call("GET", "/v1/me/usage_history?limit=1")).json.data;
    expect(rows[0].category).toBe("post_processing");
  });

  it("counts posts it cannot read as errors, stores them as failed, and does not charge them", async () => {
    const t = makeApp();
    const ds = await dataset(t, "oat milk", 60);
    const cp = await parameter(t, "Mood", "What is the overall sentiment of the post?");
    const before = t.ledger.balance(A);
    const runId = (await start(t, cp, ds)).json.data.run_id;
    await t.clock.runAll();
    const run = await readRun(t, cp, runId);
    const mentions = await mentionsOf(t, ds, [cp]);
    // The sentiment reader is English-only: exactly the other-language posts fail.
    const foreign = mentions.filter((m) => m.language !== "en");
    expect(foreign.length).toBeGreaterThan(0);
    expect(run.mentions_error).toBe(foreign.length);
    expect(run.mentions_done).toBe(mentions.length - foreign.length);
    for (const m of mentions) {
      const v = m.parameters[cp];
      expect(v.computed_at).toBeTypeOf("number");
      if (m.language === "en") expect(["positive", "negative", "neutral"]).toContain(v.value);
      else expect(v).toMatchObject({ status: "failed", value: null });
    }
    expect(before.sub(t.ledger.balance(A)).eq(t.ledger.quote(A, "post_processing", run.mentions_done))).toBe(true);
  });

  it("a run where every post fails completes with no charge", async () => {
    const t = makeApp();
    const ds = await dataset(t, "leche de avena", 20, { language: "es" });
    const cp = await parameter(t, "Recommends", "Does the author recommend it?", "boolean");
    const before = t.ledger.balance(A);
    const runId = (await start(t, cp, ds)).json.data.run_id;
    await t.clock.runAll();
    const run = await readRun(t, cp, runId);
    expect(run).toMatchObject({ status: { type: "completed" }, mentions_done: 0 });
    expect(run.mentions_error).toBe(run.mentions_total);
    expect(t.ledger.balance(A).eq(before)).toBe(true);
  });

  it("shows progress step by step on a large dataset", async () => {
    const t = makeApp();
    const ds = await dataset(t, "oat milk", 1000);
    await runToCompletion(t, ds, promptRun("kombucha", 1000));
    const total = (await t.call("GET", `/v1/datasets/${ds}`)).json.data.mentions_count;
    expect(total).toBeGreaterThan(MENTIONS_PER_STEP);
    const cp = await parameter(t, "Price", "What price does the author quote?", "number");
    const runId = (await start(t, cp, ds)).json.data.run_id;
    const seen: number[] = [];
    for (let guard = 0; guard < 20; guard++) {
      await t.clock.advance(300);
      const run = await readRun(t, cp, runId);
      seen.push(run.mentions_done + run.mentions_error);
      if (run.status.type !== "processing") break;
      expect(run.mentions_done + run.mentions_error).toBeLessThan(total);
    }
    expect(seen).toContain(MENTIONS_PER_STEP);
    expect(seen[seen.length - 1]).toBe(total);
  });

  it("returns the stored values through POST /v1/mentions only for the parameter_ids asked", async () => {
    const t = makeApp();
    const ds = await dataset(t);
    const brands = await parameter(t, "Brands", "Which brands are mentioned?");
    const asks = await parameter(t, "Asks", "Does the author ask a question?", "boolean");
    for (const cp of [brands, asks]) expect((await start(t, cp, ds)).status).toBe(202);
    await t.clock.runAll();
    const mentions = await mentionsOf(t, ds, [brands, asks, "cp_unknown"]);
    for (const m of mentions) {
      expect(Object.keys(m.parameters).sort()).toEqual([brands, asks].sort());
      const text = `${m.title} ${m.text}`;
      expect(m.parameters[asks]).toMatchObject({ status: "completed", value: /\?/.test(text) });
      const named = m.parameters[brands].value;
      const present = BRANDS.filter((b) =>
        new RegExp(`(^|[^\\p{L}])${b.replace(/[.+]/g, "\\$&")}(?![\\p{L}])`, "iu").test(text),
      );
      expect(named === null ? [] : named.split(", ")).toEqual(present);
    }
    for (const m of await mentionsOf(t, ds)) expect(m.parameters).toEqual({});
  });

  it("refuses a second run of a processing parameter with 409, allows other parameters and later runs", async () => {
    const t = makeApp();
    const ds = await dataset(t);
    const cp = await parameter(t, "Brands", "Which brands are mentioned?");
    const other = await parameter(t, "Asks", "Does the author ask a question?", "boolean");
    const first = (await start(t, cp, ds)).json.data.run_id;
    const before = t.ledger.balance(A);
    const again = await start(t, cp, ds);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ error_code: "custom_parameter_run_in_flight", transient: false });
    expect(again.json.detail).toContain(first);
    expect(t.ledger.balance(A).eq(before)).toBe(true);
    expect((await start(t, other, ds)).status).toBe(202);
    await t.clock.runAll();
    const second = await start(t, cp, ds);
    expect(second.status).toBe(202);
    await t.clock.runAll();
    const list = await t.call("GET", `/v1/custom_parameters/${cp}/runs`);
    expect(list.json.data.map((r: { id: string }) => r.id)).toEqual([second.json.data.run_id, first]);
  });

  it("checks the parameter, the dataset, the run in flight, the mentions, then the balance; a refusal creates and charges nothing", async () => {
    const t = makeApp();
    const cp = await parameter(t, "Brands", "Which brands are mentioned?");
    const empty = await createDataset(t, "empty");
    const foreign = await createDataset(t, "theirs", KEYS.bOwner);
    const before = t.ledger.balance(A);

    const unknownDataset = await start(t, cp, "ds_missing");
    expect(unknownDataset.status).toBe(404);
    expect(unknownDataset.json.error_code).toBe("dataset_not_found");
    expect((await start(t, cp, foreign)).json.error_code).toBe("dataset_not_found");
    const nothing = await start(t, cp, empty);
    expect(nothing.status).toBe(400);
    expect(nothing.json.error_code).toBe("nothing_to_analyze");
    expect((await start(t, "cp_missing", "ds_missing")).json.error_code).toBe("custom_parameter_not_found");
    expect(
      (await t.call("POST", `/v1/custom_parameters/${cp}/runs`, { body: { scope: { kind: "audience", id: empty } } }))
        .status,
    ).toBe(422);
    expect(t.ledger.balance(A).eq(before)).toBe(true);

    const ds = await dataset(t);
    t.ledger.open(A, "pro", money("0.01"));
    const poor = await start(t, cp, ds);
    expect(poor.status).toBe(402);
    expect(poor.json.error_code).toBe("insufficient_credits_content_analysis");
    expect(poor.json.detail).toMatchObject({ available: "0.010000" });
    expect(t.ledger.balance(A).toFixed(6)).toBe("0.010000");
    expect((await t.call("GET", `/v1/custom_parameters/${cp}/runs`)).json.data).toEqual([]);
  });

  it("reads a run only under its own parameter", async () => {
    const t = makeApp();
    const ds = await dataset(t);
    const cp = await parameter(t, "Brands", "Which brands are mentioned?");
    const other = await parameter(t, "Other", "Which brands are mentioned?");
    const runId = (await start(t, cp, ds)).json.data.run_id;
    const wrong = await t.call("GET", `/v1/custom_parameters/${other}/runs/${runId}`);
    expect(wrong.status).toBe(404);
    expect(wrong.json.error_code).toBe("custom_parameter_not_found");
    expect(wrong.json.detail).toContain(runId);
    expect((await t.call("GET", `/v1/custom_parameters/${cp}/runs/${runId}`, { key: KEYS.bOwner })).status).toBe(404);
  });

  it("deleting a parameter mid-run releases the reservation and removes its runs and values", async () => {
    const t = makeApp();
    const ds = await dataset(t);
    const kept = await parameter(t, "Kept", "Which brands are mentioned?");
    await start(t, kept, ds);
    await t.clock.runAll();
    const cp = await parameter(t, "Gone", "Does the author ask a question?", "boolean");
    const before = t.ledger.balance(A);
    const runId = (await start(t, cp, ds)).json.data.run_id;
    expect((await t.call("DELETE", `/v1/custom_parameters/${cp}`)).status).toBe(204);
    await t.clock.runAll();
    expect(t.ledger.balance(A).eq(before)).toBe(true);
    expect(t.ledger.held(A).isZero()).toBe(true);
    expect((await t.call("GET", `/v1/custom_parameters/${cp}/runs/${runId}`)).status).toBe(404);
    for (const m of await mentionsOf(t, ds, [cp, kept])) expect(Object.keys(m.parameters)).toEqual([kept]);
  });

  it("previews 1-5 posts for free, in request order, null for posts the account does not hold", async () => {
    const t = makeApp();
    const ds = await dataset(t);
    const posts = (await mentionsOf(t, ds)).filter((m) => m.language === "en").slice(0, 3);
    const refs = [...posts.map((m) => ({ source: m.source, id: m.id })), { source: "reddit", id: "t3_notours" }];
    const instructions = "Which brands are mentioned?";
    const before = t.ledger.balance(A);
    const res = await t.call("POST", "/v1/custom_parameters/preview", {
      body: { instructions, value_type: "string", post_refs: refs },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.results.map((r: { post_id: string }) => r.post_id)).toEqual(refs.map((r) => r.id));
    expect(res.json.data.results[3].value).toBeNull();
    expect(t.ledger.balance(A).eq(before)).toBe(true);
    // A run with the same instructions stores the same values the preview showed.
    const cp = await parameter(t, "Brands", instructions);
    await start(t, cp, ds);
    await t.clock.runAll();
    const stored = new Map((await mentionsOf(t, ds, [cp])).map((m) => [m.id, m.parameters[cp].value]));
    for (const r of res.json.data.results.slice(0, 3)) expect(r.value).toEqual(stored.get(r.post_id));
    // Another account's preview of the same posts sees nothing.
    const theirs = await t.call("POST", "/v1/custom_parameters/preview", {
      key: KEYS.bOwner,
      body: { instructions, value_type: "string", post_refs: refs.slice(0, 1) },
    });
    expect(theirs.json.data.results[0].value).toBeNull();
    for (const bad of [[], Array.from({ length: 6 }, () => refs[0])]) {
      expect(
        (
          await t.call("POST", "/v1/custom_parameters/preview", {
            body: { instructions, value_type: "string", post_refs: bad },
          })
        ).status,
      ).toBe(422);
    }
  });

  it("property: balance + held + charged stays the initial balance; settled runs charge exactly their processed posts", async () => {
    const t0 = makeApp();
    const datasets = [await dataset(t0, "oat milk", 30), await dataset(t0, "kombucha", 25)];
    let made = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 300 }),
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant("run" as const), p: fc.nat(2), d: fc.nat(1) }),
            fc.record({ op: fc.constant("delete" as const), p: fc.nat(2) }),
            fc.record({ op: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 900 }) }),
          ),
          { minLength: 1, maxLength: 12 },
        ),
        async (cents, ops) => {
          // A fresh ledger on the same mentions: the dataset runs stay out of the sums.
          const initial = money(cents).div(100);
          t0.ledger.open(A, "pro", initial);
          const instructions = [
            "Which brands are mentioned?",
            "What is the sentiment?",
            "Does the author ask a question?",
          ];
          const types = ["string", "string", "boolean"];
          const ids: (string | null)[] = [null, null, null];
          const runs: string[] = [];
          const check = () => {
            expect(t0.ledger.balance(A).isNegative()).toBe(false);
            expect(initial.eq(t0.ledger.balance(A).add(t0.ledger.held(A)).add(t0.ledger.charged(A)))).toBe(true);
          };
          for (const o of ops) {
            if (o.op === "run") {
              ids[o.p] ??= await parameter(t0, `p${o.p}-${++made}`, instructions[o.p]!, types[o.p]);
              const res = await start(t0, ids[o.p]!, datasets[o.d]!);
              expect([202, 402, 409]).toContain(res.status);
              if (res.status === 202) runs.push(res.json.data.run_id);
            } else if (o.op === "delete" && ids[o.p]) {
              expect((await t0.call("DELETE", `/v1/custom_parameters/${ids[o.p]}`)).status).toBe(204);
              ids[o.p] = null;
            } else if (o.op === "advance") {
              await t0.clock.advance(o.ms);
            }
            check();
          }
          await t0.clock.runAll();
          check();
          expect(t0.ledger.held(A).isZero()).toBe(true);
          let expected = money(0);
          for (const id of runs) {
            const row = t0.services.tables.customParameterRuns.raw(id)!;
            expect(row.status.type === "completed" || row.status.type === "failed").toBe(true);
            if (row.status.type === "completed") {
              expect(row.mentions_done + row.mentions_error).toBe(row.mentions_total);
              expected = expected.add(t0.ledger.quote(A, "post_processing", row.mentions_done));
            }
          }
          expect(t0.ledger.charged(A).eq(expected)).toBe(true);
          // Clean up so the next case starts with no parameters.
          for (const id of ids) if (id) await t0.call("DELETE", `/v1/custom_parameters/${id}`);
        },
      ),
      { seed: SEED, numRuns: 40 },
    );
  });
});
