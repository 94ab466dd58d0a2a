// Audience datasets, runs and profiles through app.request() on a
// ManualClock: CRUD, the plan gate, every run-creation rule in its decided
// order (D-AUD-RUN-ORDER), billing (D-AUD-CHARGE), the walk (D-AUD-WALK),
// repeated people (D-AUD-PROFILE-RUN), the profile search and its cursor.
import { describe, expect, it } from "vitest";
import { unitPrice } from "../src/platform/billing/plans.ts";
import { money } from "../src/platform/billing/money.ts";
import { createDataset, KEYS, makeApp, promptRun, runToCompletion, type TestApp } from "./helpers.ts";

const A = "acc_demoA";

async function createAudience(t: TestApp, name = "Audience", key = KEYS.aOwner): Promise<string> {
  const res = await t.call("POST", "/v1/audience_datasets", { key, body: { name } });
  if (res.status !== 201) throw new Error(`create audience dataset: ${res.status} ${res.text}`);
  return res.json.data.id;
}

/** A source dataset with one completed prompt run. */
async function sourceWith(
  t: TestApp,
  body: unknown = promptRun("oat milk", 40, { num_comments_per_post: 3 }),
): Promise<string> {
  const id = await createDataset(t, "Source");
  await runToCompletion(t, id, body);
  return id;
}

async function startRun(t: TestApp, audienceId: string, body: unknown, key = KEYS.aOwner) {
  return t.call("POST", `/v1/audience_datasets/${audienceId}/runs`, { key, body });
}

async function runAudience(t: TestApp, audienceId: string, body: unknown) {
  const res = await startRun(t, audienceId, body);
  if (res.status !== 202) throw new Error(`audience run: ${res.status} ${res.text}`);
  await t.clock.runAll();
  return (await t.call("GET", `/v1/audience_datasets/${audienceId}/runs/${res.json.data.id}`)).json.data;
}

async function allProfiles(t: TestApp, body: Record<string, unknown> = {}) {
  const out: any[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 500; guard++) {
    const res = await t.call("POST", "/v1/audience_profiles", {
      body: { ...body, limit: 100, ...(cursor ? { cursor } : {}) },
    });
    expect(res.status).toBe(200);
    out.push(...res.json.data);
    if (!res.json.has_next) return out;
    cursor = res.json.cursor;
  }
  throw new Error("cursor walk did not end");
}

const people = (t: TestApp, accountId = A) => {
  // Oracle from the stored posts: (source, username) of every author and commenter of non-YouTube posts.
  const set = new Set<string>();
  for (const r of t.services.mentions(accountId).all()) {
    if (r.post.source === "youtube") continue;
    set.add(`${r.post.source}:${r.post.author.username.toLowerCase()}`);
    for (const c of r.post.comments) set.add(`${r.post.source}:${c.author_username.toLowerCase()}`);
  }
  return set;
};

describe("demo fixtures", () => {
  it("account A boots with a seeded audience dataset whose run completed; account B's plan shows the 400", async () => {
    const t = makeApp({ seedDatasets: true });
    const listed = (await t.call("GET", "/v1/audience_datasets")).json.data;
    expect(listed).toHaveLength(1);
    expect(listed[0].profile_count).toBe(150);
    const runs = (await t.call("GET", `/v1/audience_datasets/${listed[0].id}/runs`)).json.data;
    expect(runs.map((r: any) => [r.status.type, r.profile_count, r.target_profile_count])).toEqual([
      ["completed", 150, 150],
    ]);
    expect((await allProfiles(t)).length).toBe(150);
    expect(t.ledger.balance(A).plus(t.ledger.charged(A)).toFixed(6)).toBe("178.000000");
    const refused = await t.call("POST", "/v1/audience_datasets", {
      key: KEYS.bOwner,
      body: { name: "Starter cannot" },
    });
    expect([refused.status, refused.json.error_code]).toEqual([400, "bad_request"]);
  });
});

describe("audience datasets", () => {
  it("create, list, read, rename and soft delete", async () => {
    const t = makeApp();
    const created = await t.call("POST", "/v1/audience_datasets", { body: { name: "Oat milk creators" } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.json.data).sort()).toEqual(["created_at", "id", "name"]);
    expect(created.json.data.id).toMatch(/^ad_/);
    const id = created.json.data.id;
    const read = await t.call("GET", `/v1/audience_datasets/${id}`);
    expect(read.json.data).toMatchObject({ id, name: "Oat milk creators", profile_count: 0 });
    await t.clock.advance(2000);
    const renamed = await t.call("PATCH", `/v1/audience_datasets/${id}`, { body: { name: "Renamed" } });
    expect(renamed.status).toBe(200);
    expect(renamed.json.data.name).toBe("Renamed");
    expect(renamed.json.data.updated_at > renamed.json.data.created_at).toBe(true);
    expect((await t.call("PATCH", `/v1/audience_datasets/${id}`, { body: { name: "" } })).status).toBe(422);
    expect((await t.call("PATCH", `/v1/audience_datasets/${id}`, { body: {} })).status).toBe(422);
    // Another seat of the account sees it; another account does not.
    expect((await t.call("GET", `/v1/audience_datasets/${id}`, { key: KEYS.aMember })).status).toBe(200);
    const foreign = await t.call("GET", `/v1/audience_datasets/${id}`, { key: KEYS.bOwner });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error_code).toBe("audience_dataset_not_found");
    const listed = await t.call("GET", "/v1/audience_datasets?limit=10");
    expect(listed.json.data.map((d: any) => d.id)).toEqual([id]);
    const del = await t.call("DELETE", `/v1/audience_datasets/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await t.call("GET", `/v1/audience_datasets/${id}`)).json.error_code).toBe("audience_dataset_not_found");
    expect((await t.call("DELETE", `/v1/audience_datasets/${id}`)).status).toBe(404);
    expect((await t.call("GET", "/v1/audience_datasets")).json.data).toEqual([]);
  });

  it("lists by created_at with cursors in both orders", async () => {
    const t = makeApp();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await createAudience(t, `A${i}`));
      await t.clock.advance(1000);
    }
    for (const order of ["asc", "desc"] as const) {
      const seen: string[] = [];
      let cursor = "";
      for (let guard = 0; guard < 10; guard++) {
        const res = await t.call(
          "GET",
          `/v1/audience_datasets?limit=2&order=${order}${cursor ? `&cursor=${cursor}` : ""}`,
        );
        seen.push(...res.json.data.map((d: any) => d.id));
        if (!res.json.has_next) break;
        cursor = res.json.cursor;
      }
      expect(seen).toEqual(order === "asc" ? ids : [...ids].reverse());
    }
  });

  it("a plan without audience research gets 400 bad_request on create and on run creation", async () => {
    const t = makeApp();
    const res = await t.call("POST", "/v1/audience_datasets", { key: KEYS.bOwner, body: { name: "Nope" } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: "client_error", error_code: "bad_request", transient: false });
    expect((await t.call("GET", "/v1/audience_datasets", { key: KEYS.bOwner })).json.data).toEqual([]);
    // An audience dataset kept from a former plan cannot run either.
    const kept = t.services.audiences.insert("acc_demoB", "From the Pro days");
    const ds = await createDataset(t, "B source", KEYS.bOwner);
    const run = await startRun(t, kept.id, { source_dataset_id: ds }, KEYS.bOwner);
    expect(run.status).toBe(400);
    expect(run.json.error_code).toBe("bad_request");
  });
});

describe("audience run creation rules, in order", () => {
  it("404 for the audience dataset first, then the source dataset (unknown, foreign, soft-deleted)", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    const unknownAudience = await startRun(t, "ad_missing", { source_dataset_id: "ds_missing" });
    expect([unknownAudience.status, unknownAudience.json.error_code]).toEqual([404, "audience_dataset_not_found"]);
    const unknown = await startRun(t, audience, { source_dataset_id: "ds_missing" });
    expect([unknown.status, unknown.json.error_code]).toEqual([404, "dataset_not_found"]);
    const foreignDs = await createDataset(t, "B's", KEYS.bOwner);
    expect((await startRun(t, audience, { source_dataset_id: foreignDs })).json.error_code).toBe("dataset_not_found");
  });

  it("422 for a malformed body before anything else", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    for (const body of [
      {},
      { source_dataset_id: "ds_x", total_profile_count: 0 },
      { source_dataset_id: "ds_x", total_profile_count: 2001 },
    ]) {
      const res = await startRun(t, audience, body);
      expect(res.status).toBe(422);
      expect(res.json.detail[0].loc[0]).toBe("body");
    }
  });

  it("400 source_dataset_has_no_completed_run while the source has none (even with one in flight)", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    const ds = await createDataset(t, "Empty");
    expect((await startRun(t, audience, { source_dataset_id: ds })).json.error_code).toBe(
      "source_dataset_has_no_completed_run",
    );
    expect((await t.call("POST", `/v1/datasets/${ds}/runs`, { body: promptRun("oat milk") })).status).toBe(202);
    const res = await startRun(t, audience, { source_dataset_id: ds });
    expect(res.status).toBe(400);
    expect(res.json.error_code).toBe("source_dataset_has_no_completed_run");
    await t.clock.runAll();
    expect((await startRun(t, audience, { source_dataset_id: ds })).status).toBe(202);
  });

  it("400 audience_youtube_only_source for a YouTube-only source, whatever its size", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    const ds = await sourceWith(t, {
      search_query: { type: "prompt", sources: ["youtube"], search_query: "oat milk" },
      count: 40,
    });
    const res = await startRun(t, audience, { source_dataset_id: ds });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      status: "client_error",
      error_code: "audience_youtube_only_source",
      transient: false,
    });
  });

  it("400 audience_insufficient_source_mentions below 5 eligible posts (YouTube posts do not count); exactly 5 is enough", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    const urls = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({
        source: "reddit",
        url: `https://www.reddit.com/r/oatmilk/comments/${prefix}${i}/oat_milk_thread_${i}/`,
      }));
    const yt = Array.from({ length: 6 }, (_, i) => ({
      source: "youtube",
      url: `https://www.youtube.com/watch?v=oatmilk${i}`,
    }));
    const ds = await sourceWith(t, { search_query: { type: "url", source_urls: [...urls(4, "a"), ...yt] }, count: 20 });
    const res = await startRun(t, audience, { source_dataset_id: ds });
    expect(res.status).toBe(400);
    expect(res.json.error_code).toBe("audience_insufficient_source_mentions");
    // One more eligible post (a second completed run) reaches the minimum.
    await runToCompletion(t, ds, { search_query: { type: "url", source_urls: urls(1, "b") }, count: 20 });
    expect((await startRun(t, audience, { source_dataset_id: ds })).status).toBe(202);
  });

  it("409 while a run is pending or working; a new run is accepted once it ends", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    const ds = await sourceWith(t);
    const first = await startRun(t, audience, { source_dataset_id: ds, total_profile_count: 10 });
    expect(first.status).toBe(202);
    expect(first.json.data).toMatchObject({
      audience_dataset_id: audience,
      source_dataset_id: ds,
      status: { type: "pending" },
    });
    expect(Object.keys(first.json.data).sort()).toEqual([
      "audience_dataset_id",
      "created_at",
      "id",
      "source_dataset_id",
      "status",
    ]);
    const pending = await startRun(t, audience, { source_dataset_id: ds });
    expect(pending.status).toBe(409);
    expect(pending.json).toMatchObject({
      status: "client_error",
      error_code: "audience_dataset_run_already_in_flight",
      transient: false,
    });
    await t.clock.advance(600);
    const polled = await t.call("GET", `/v1/audience_datasets/${audience}/runs/${first.json.data.id}`);
    expect(polled.json.data.status.type).toBe("working");
    expect((await startRun(t, audience, { source_dataset_id: ds })).status).toBe(409);
    // Another audience dataset is not blocked.
    expect(
      (await startRun(t, await createAudience(t, "Other"), { source_dataset_id: ds, total_profile_count: 5 })).status,
    ).toBe(202);
    await t.clock.runAll();
    expect((await startRun(t, audience, { source_dataset_id: ds, total_profile_count: 5 })).status).toBe(202);
  });

  it("the 409 wins over the 402 and the source checks come before it (nothing is reserved by a refusal)", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    const ds = await sourceWith(t);
    expect((await startRun(t, audience, { source_dataset_id: ds, total_profile_count: 10 })).status).toBe(202);
    const balance = t.ledger.balance(A).toFixed(6);
    const tooBig = await startRun(t, audience, { source_dataset_id: ds, total_profile_count: 2000 });
    expect(tooBig.json.error_code).toBe("audience_dataset_run_already_in_flight");
    const empty = await createDataset(t, "Empty");
    expect((await startRun(t, audience, { source_dataset_id: empty, total_profile_count: 2000 })).json.error_code).toBe(
      "source_dataset_has_no_completed_run",
    );
    expect(t.ledger.balance(A).toFixed(6)).toBe(balance);
  });

  it("402 insufficient_credits_audience_dataset_run when the reservation does not fit; nothing is created", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    const ds = await sourceWith(t);
    const before = t.ledger.balance(A);
    // 2000 profiles x 3 units x $0.0356 = $213.60 > the balance.
    const res = await startRun(t, audience, { source_dataset_id: ds, total_profile_count: 2000 });
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({
      status: "client_error",
      error_code: "insufficient_credits_audience_dataset_run",
      transient: false,
    });
    expect(res.json.detail).toMatchObject({ required: "213.600000", available: before.toFixed(6) });
    expect(t.ledger.balance(A).eq(before)).toBe(true);
    expect((await t.call("GET", `/v1/audience_datasets/${audience}/runs`)).json.data).toEqual([]);
  });
});

describe("audience runs", () => {
  it("walk steps, reserve total_profile_count, settle to the profiles collected, stop early when people run out", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    // Authors only (no comments): 40 posts give at most 40 people.
    const ds = await sourceWith(t, promptRun("running shoes", 40, { num_comments_per_post: 0 }));
    const start = t.ledger.balance(A);
    const price = unitPrice("pro", "audience_profile");
    const res = await startRun(t, audience, { source_dataset_id: ds });
    expect(t.ledger.balance(A).eq(start.sub(price.mul(300)))).toBe(true);
    await t.clock.runAll();
    const run = (await t.call("GET", `/v1/audience_datasets/${audience}/runs/${res.json.data.id}`)).json.data;
    expect(run.status.type).toBe("completed");
    expect(run.status.steps.map((s: any) => s.name)).toEqual(["scraping", "enrichment", "analysis"]);
    expect(run.target_profile_count).toBe(300);
    const expected = people(t).size;
    expect(expected).toBeLessThanOrEqual(40);
    expect(run.profile_count).toBe(expected);
    expect(t.ledger.balance(A).eq(start.sub(price.mul(expected)))).toBe(true);
    expect(t.ledger.held(A).isZero()).toBe(true);
    const history = (await t.call("GET", "/v1/me/usage_history")).json.data;
    expect(history[0]).toMatchObject({ category: "audience_profile" });
    expect(money(history[0].quantity).eq(price.mul(expected))).toBe(true);
    expect((await t.call("GET", `/v1/audience_datasets/${audience}`)).json.data.profile_count).toBe(expected);
  });

  it("profiles are the authors and commenters of the source, deduplicated, without YouTube", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    const ds = await sourceWith(t, {
      search_query: { type: "prompt", sources: ["reddit", "youtube", "tiktok"], search_query: "oat milk" },
      count: 30,
      num_comments_per_post: 4,
    });
    await runAudience(t, audience, { source_dataset_id: ds, total_profile_count: 1000 });
    const profiles = await allProfiles(t);
    const keys = profiles.map((p) => `${p.source}:${p.username.toLowerCase()}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(keys)).toEqual(people(t));
    expect(profiles.some((p) => p.source === "youtube")).toBe(false);
    expect(profiles.some((p) => p.platform_metadata.role === "commenter")).toBe(true);
    for (const p of profiles) {
      for (const v of Object.values(p.ocean) as number[]) expect(v >= 0 && v <= 1).toBe(true);
      expect(p.id).toMatch(/^ap_/);
    }
  });

  it("a small target takes the newest posts' authors first", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    const ds = await sourceWith(t, promptRun("skincare routine", 40, { num_comments_per_post: 0 }));
    await runAudience(t, audience, { source_dataset_id: ds, total_profile_count: 5 });
    // Oracle: the mentions API, newest first; the first 5 distinct non-YouTube authors.
    const mentions = (
      await t.call("POST", "/v1/mentions", { body: { dataset_ids: [ds], sort: "date", order: "desc", limit: 100 } })
    ).json.data;
    const expected: string[] = [];
    for (const m of mentions) {
      const username = new URL(m.author.title_url).pathname.split("/").filter(Boolean).pop()!.replace(/^@/, "");
      const key = `${m.source}:${username.toLowerCase()}`;
      if (m.source !== "youtube" && !expected.includes(key)) expected.push(key);
    }
    const got = (await allProfiles(t)).map((p) => `${p.source}:${p.username.toLowerCase()}`);
    expect(got.sort()).toEqual(expected.slice(0, 5).sort());
  });

  it("walks every completed run of the source, newest run first", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    const ds = await createDataset(t, "Two runs");
    const older = await runToCompletion(t, ds, promptRun("oat milk", 20, { num_comments_per_post: 0 }));
    await t.clock.advance(60_000);
    const newer = await runToCompletion(t, ds, promptRun("running shoes", 20, { num_comments_per_post: 0 }));
    const authorsOf = (runId: string) =>
      new Set(
        t.services
          .mentions(A)
          .byRun(runId)
          .filter((r) => r.post.source !== "youtube")
          .map((r) => `${r.post.source}:${r.post.author.username.toLowerCase()}`),
      );
    const newerAuthors = authorsOf(newer.id);
    const olderAuthors = authorsOf(older.id);
    // A target the newer run alone can fill takes only its authors...
    await runAudience(t, audience, { source_dataset_id: ds, total_profile_count: 5 });
    const few = (await allProfiles(t)).map((p) => `${p.source}:${p.username.toLowerCase()}`);
    expect(few.every((k) => newerAuthors.has(k))).toBe(true);
    // ...and a large one reaches the older run's authors as well.
    await runAudience(t, audience, { source_dataset_id: ds, total_profile_count: 1000 });
    const all = new Set((await allProfiles(t)).map((p) => `${p.source}:${p.username.toLowerCase()}`));
    expect(all).toEqual(new Set([...newerAuthors, ...olderAuthors]));
  });

  it("a person reached again by a later run is refreshed in place and carries the later run_id", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    const ds = await sourceWith(t, promptRun("oat milk", 30, { num_comments_per_post: 0 }));
    const first = await runAudience(t, audience, { source_dataset_id: ds, total_profile_count: 1000 });
    const before = await allProfiles(t);
    await t.clock.advance(60_000);
    const second = await runAudience(t, audience, { source_dataset_id: ds, total_profile_count: 1000 });
    expect(second.profile_count).toBe(first.profile_count);
    const after = await allProfiles(t);
    expect(after.length).toBe(before.length);
    expect(new Set(after.map((p) => p.id))).toEqual(new Set(before.map((p) => p.id)));
    expect(after.every((p) => p.run_id === second.id)).toBe(true);
    const byId = new Map(before.map((p) => [p.id, p]));
    for (const p of after) expect(p.created_at).toBe(byId.get(p.id).created_at);
    expect((await t.call("GET", `/v1/audience_datasets/${audience}`)).json.data.profile_count).toBe(before.length);
    // A second audience dataset keeps its own copy of the same people.
    const other = await createAudience(t, "Other");
    await runAudience(t, other, { source_dataset_id: ds, total_profile_count: 1000 });
    expect((await allProfiles(t)).length).toBe(2 * before.length);
  });

  it("profiles stay readable after the source is soft-deleted; new runs on it are refused with 404", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    const ds = await sourceWith(t);
    const run = await runAudience(t, audience, { source_dataset_id: ds, total_profile_count: 20 });
    expect((await t.call("DELETE", `/v1/datasets/${ds}`)).status).toBe(204);
    const profiles = await allProfiles(t, { audience_dataset_ids: [audience] });
    expect(profiles.length).toBe(20);
    expect(profiles.every((p) => p.run_id === run.id)).toBe(true);
    expect((await t.call("GET", `/v1/audience_datasets/${audience}/runs/${run.id}`)).json.data.source_dataset_id).toBe(
      ds,
    );
    const again = await startRun(t, audience, { source_dataset_id: ds });
    expect([again.status, again.json.error_code]).toEqual([404, "dataset_not_found"]);
  });

  it("deleting the audience dataset mid-run fails the run, releases the whole reservation and stores nothing", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    const ds = await sourceWith(t);
    const start = t.ledger.balance(A);
    const res = await startRun(t, audience, { source_dataset_id: ds, total_profile_count: 50 });
    await t.clock.advance(600);
    // Scraping is done: the run shows the people it found, none stored yet.
    expect(t.services.audiences.runs.raw(res.json.data.id)!.profile_count).toBe(50);
    expect(await allProfiles(t)).toEqual([]);
    expect((await t.call("DELETE", `/v1/audience_datasets/${audience}`)).status).toBe(204);
    await t.clock.runAll();
    const row = t.services.audiences.runs.raw(res.json.data.id)!;
    expect(row.status.type).toBe("failed");
    expect(row.status.error_message).toMatch(/deleted/);
    expect(row.profile_count).toBe(0);
    expect(t.ledger.balance(A).eq(start)).toBe(true);
    expect(t.ledger.held(A).isZero()).toBe(true);
    expect(await allProfiles(t)).toEqual([]);
  });

  it("lists runs newest first by default, reads one, 404 not_found for an unknown run", async () => {
    const t = makeApp();
    const audience = await createAudience(t);
    const ds = await sourceWith(t);
    const a = await runAudience(t, audience, { source_dataset_id: ds, total_profile_count: 5 });
    await t.clock.advance(1000);
    const b = await runAudience(t, audience, { source_dataset_id: ds, total_profile_count: 5 });
    const listed = await t.call("GET", `/v1/audience_datasets/${audience}/runs`);
    expect(listed.json.data.map((r: any) => r.id)).toEqual([b.id, a.id]);
    const asc = await t.call("GET", `/v1/audience_datasets/${audience}/runs?order=asc&limit=1`);
    expect(asc.json.data.map((r: any) => r.id)).toEqual([a.id]);
    expect(asc.json.has_next).toBe(true);
    const missing = await t.call("GET", `/v1/audience_datasets/${audience}/runs/adr_missing`);
    expect([missing.status, missing.json.error_code]).toEqual([404, "not_found"]);
    expect((await t.call("GET", `/v1/audience_datasets/ad_missing/runs`)).json.error_code).toBe(
      "audience_dataset_not_found",
    );
    expect(
      (await t.call("GET", `/v1/audience_datasets/${audience}/runs/${a.id}`, { key: KEYS.bOwner })).json.error_code,
    ).toBe("audience_dataset_not_found");
  });
});

describe("profile search", () => {
  async function seeded() {
    const t = makeApp();
    const audience = await createAudience(t);
    const ds = await sourceWith(t, promptRun("oat milk", 60, { num_comments_per_post: 3 }));
    await runAudience(t, audience, { source_dataset_id: ds, total_profile_count: 1000 });
    return { t, audience, all: await allProfiles(t) };
  }

  it("defaults: limit 20, sort created_at desc; each filter keeps exactly the matching profiles", async () => {
    const { t, all } = await seeded();
    const first = await t.call("POST", "/v1/audience_profiles", { body: {} });
    expect(first.json.data.length).toBe(20);
    expect(first.json.has_next).toBe(true);
    const check = async (filters: unknown, predicate: (p: any) => boolean) => {
      const got = await allProfiles(t, { filters });
      expect(got.map((p) => p.id).sort()).toEqual(
        all
          .filter(predicate)
          .map((p) => p.id)
          .sort(),
      );
    };
    await check([[{ type: "source", values: ["tiktok"] }]], (p) => p.source === "tiktok");
    await check(
      [[{ type: "follower_count", operator: "greater_than", value: 10_000 }]],
      (p) => p.follower_count > 10_000,
    );
    await check([[{ type: "follower_count", operator: "less_than", value: 500 }]], (p) => p.follower_count < 500);
    await check([[{ type: "is_verified", value: false }]], (p) => !p.is_verified);
    await check([[{ type: "country_code", values: ["US"] }]], (p) => p.location_country === "US");
    await check([[{ type: "creator_tier", operator: "any_of", values: ["Nano", "micro"] }]], (p) =>
      ["nano", "micro"].includes(p.creator_tier),
    );
    await check([[{ type: "keyword", operator: "is", value: "commenter" }]], (p) =>
      / commenter /.test(` ${p.summary} `),
    );
    await check(
      [[{ type: "keyword", operator: "is_not", value: "commenter" }]],
      (p) => !/ commenter /.test(` ${p.summary} `),
    );
    // OR of groups, AND within a group.
    await check(
      [
        [
          { type: "source", values: ["reddit"] },
          { type: "follower_count", operator: "greater_than", value: 1000 },
        ],
        [{ type: "creator_tier", operator: "any_of", values: ["mega"] }],
      ],
      (p) => (p.source === "reddit" && p.follower_count > 1000) || p.creator_tier === "mega",
    );
  });

  it("scope: audience_dataset_ids narrows; an unknown or deleted id is 404; deleted datasets leave the default scope", async () => {
    const { t, audience, all } = await seeded();
    const other = await createAudience(t, "Empty one");
    expect(await allProfiles(t, { audience_dataset_ids: [other] })).toEqual([]);
    expect((await allProfiles(t, { audience_dataset_ids: [audience, other] })).length).toBe(all.length);
    const bad = await t.call("POST", "/v1/audience_profiles", {
      body: { audience_dataset_ids: [audience, "ad_missing"] },
    });
    expect([bad.status, bad.json.error_code]).toEqual([404, "audience_dataset_not_found"]);
    expect((await t.call("POST", "/v1/audience_profiles", { key: KEYS.bOwner, body: {} })).json.data).toEqual([]);
    await t.call("DELETE", `/v1/audience_datasets/${audience}`);
    expect(await allProfiles(t)).toEqual([]);
    expect((await t.call("POST", "/v1/audience_profiles", { body: { audience_dataset_ids: [audience] } })).status).toBe(
      404,
    );
  });

  it("more than 10 filters in total is 422; an unknown filter type is 422", async () => {
    const { t } = await seeded();
    const f = { type: "is_verified", value: false };
    const over = await t.call("POST", "/v1/audience_profiles", {
      body: { filters: [Array(6).fill(f), Array(5).fill(f)] },
    });
    expect(over.status).toBe(422);
    expect(over.json.detail[0].loc).toEqual(["body", "filters"]);
    expect(
      (await t.call("POST", "/v1/audience_profiles", { body: { filters: [Array(5).fill(f), Array(5).fill(f)] } }))
        .status,
    ).toBe(200);
    expect(
      (
        await t.call("POST", "/v1/audience_profiles", {
          body: { filters: [[{ type: "sentiment", values: ["positive"] }]] },
        })
      ).status,
    ).toBe(422);
  });

  it("the cursor is bound to its sort, order and filters: reuse after a change is 400 invalid_cursor", async () => {
    const { t } = await seeded();
    const page = await t.call("POST", "/v1/audience_profiles", { body: { sort: "created_at", limit: 5 } });
    const cursor = page.json.cursor;
    expect(
      (await t.call("POST", "/v1/audience_profiles", { body: { sort: "created_at", limit: 5, cursor } })).status,
    ).toBe(200);
    for (const change of [
      { sort: "audience_dataset_run_at" },
      { sort: "created_at", order: "asc" },
      { sort: "created_at", filters: [[{ type: "is_verified", value: false }]] },
    ]) {
      const res = await t.call("POST", "/v1/audience_profiles", { body: { limit: 5, ...change, cursor } });
      expect(res.status).toBe(400);
      expect(res.json.error_code).toBe("invalid_cursor");
    }
    expect(
      (await t.call("POST", "/v1/audience_profiles", { body: { cursor: "!!not a cursor" } })).json.error_code,
    ).toBe("invalid_cursor");
  });

  it("audience_dataset_run_at sorts by the run that (last) collected the profile", async () => {
    const t = makeApp();
    const a1 = await createAudience(t, "first");
    const a2 = await createAudience(t, "second");
    const ds = await sourceWith(t, promptRun("oat milk", 20, { num_comments_per_post: 0 }));
    const r1 = await runAudience(t, a1, { source_dataset_id: ds, total_profile_count: 3 });
    await t.clock.advance(10_000);
    const r2 = await runAudience(t, a2, { source_dataset_id: ds, total_profile_count: 3 });
    const desc = (
      await t.call("POST", "/v1/audience_profiles", { body: { sort: "audience_dataset_run_at", order: "desc" } })
    ).json.data;
    expect(desc.map((p: any) => p.run_id)).toEqual([r2.id, r2.id, r2.id, r1.id, r1.id, r1.id]);
  });
});
