import { describe, expect, it } from "vitest";
import { createDataset, KEYS, makeApp, promptRun, runToCompletion } from "./helpers.ts";

describe("datasets", () => {
  it("create answers 201 with only id, name and created_at", async () => {
    const t = makeApp();
    const res = await t.call("POST", "/v1/datasets", { body: { name: "Oat milk" } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.json.data).sort()).toEqual(["created_at", "id", "name"]);
    expect(res.json.status).toBe("success");
    expect(res.json.data.id).toMatch(/^ds_/);
    expect(res.json.data.created_at).toBe("2026-11-02T09:00:00.000Z");
  });

  it("read returns the full dataset with zero counters when empty", async () => {
    const t = makeApp();
    const id = await createDataset(t, "Empty");
    const res = await t.call("GET", `/v1/datasets/${id}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      id,
      name: "Empty",
      mentions_count: 0,
      estimated_mentions_count: 0,
      images_count: 0,
      videos_count: 0,
    });
    expect(res.json.data.url).toContain(id);
  });

  it("lists newest first by default, 10 per page, asc on request", async () => {
    const t = makeApp();
    for (let i = 0; i < 12; i++) {
      await createDataset(t, `d${i}`);
      await t.clock.advance(1000);
    }
    const first = await t.call("GET", "/v1/datasets");
    expect(first.json.data.length).toBe(10);
    expect(first.json.data[0].name).toBe("d11");
    expect(first.json.has_next).toBe(true);
    const second = await t.call("GET", `/v1/datasets?cursor=${first.json.cursor}`);
    expect(second.json.data.map((d: any) => d.name)).toEqual(["d1", "d0"]);
    expect(second.json.has_next).toBe(false);
    expect(second.json.cursor).toBeNull();
    const asc = await t.call("GET", "/v1/datasets?order=asc&limit=3");
    expect(asc.json.data.map((d: any) => d.name)).toEqual(["d0", "d1", "d2"]);
  });

  it('PATCH: empty body is a no-op, "" stores null, a name renames', async () => {
    const t = makeApp();
    const id = await createDataset(t, "Before");
    await t.clock.advance(5000);
    const noop = await t.call("PATCH", `/v1/datasets/${id}`, { raw: "" });
    expect(noop.status).toBe(200);
    expect(noop.json.data.name).toBe("Before");
    expect(noop.json.data.updated_at).toBe(noop.json.data.created_at);
    const noop2 = await t.call("PATCH", `/v1/datasets/${id}`, { body: {} });
    expect(noop2.json.data.name).toBe("Before");
    const cleared = await t.call("PATCH", `/v1/datasets/${id}`, { body: { name: "" } });
    expect(cleared.status).toBe(200);
    expect(cleared.json.data.name).toBeNull();
    expect(cleared.json.data.updated_at).not.toBe(cleared.json.data.created_at);
    const renamed = await t.call("PATCH", `/v1/datasets/${id}`, { body: { name: "After" } });
    expect(renamed.json.data.name).toBe("After");
    expect((await t.call("GET", `/v1/datasets/${id}`)).json.data.name).toBe("After");
    expect((await t.call("PATCH", `/v1/datasets/${id}`, { body: { name: "x".repeat(256) } })).status).toBe(422);
  });

  it("a foreign id and a missing id give the same 404 body", async () => {
    const t = makeApp();
    const id = await createDataset(t, "Mine", KEYS.aOwner);
    const foreign = await t.call("GET", `/v1/datasets/${id}`, { key: KEYS.bOwner });
    const missing = await t.call("GET", `/v1/datasets/ds_doesnotexist`, { key: KEYS.bOwner });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual(missing.json);
    expect(foreign.json.error_code).toBe("dataset_not_found");
    for (const [method, path] of [
      ["PATCH", `/v1/datasets/${id}`],
      ["DELETE", `/v1/datasets/${id}`],
      ["GET", `/v1/datasets/${id}/runs`],
      ["POST", `/v1/datasets/${id}/runs`],
    ] as const) {
      const res = await t.call(method, path, {
        key: KEYS.bOwner,
        body: method === "POST" ? promptRun("x", 20) : method === "PATCH" ? {} : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.error_code).toBe("dataset_not_found");
    }
    // Another seat of the same account sees it (account-shared).
    expect((await t.call("GET", `/v1/datasets/${id}`, { key: KEYS.aMember })).status).toBe(200);
  });

  it("soft delete: 204, then hidden from reads, lists, runs and mentions", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const id = await createDataset(t, "Doomed");
    const run = await runToCompletion(t, id, promptRun("kombucha", 20));
    const del = await t.call("DELETE", `/v1/datasets/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await t.call("GET", `/v1/datasets/${id}`)).status).toBe(404);
    expect((await t.call("GET", "/v1/datasets")).json.data.find((d: any) => d.id === id)).toBeUndefined();
    expect((await t.call("GET", `/v1/datasets/${id}/runs`)).status).toBe(404);
    expect((await t.call("GET", `/v1/datasets/${id}/runs/${run.id}`)).status).toBe(404);
    expect((await t.call("DELETE", `/v1/datasets/${id}`)).status).toBe(404);
    expect((await t.call("POST", "/v1/mentions", { body: {} })).json.data).toEqual([]);
    expect((await t.call("POST", "/v1/mentions", { body: { dataset_ids: [id] } })).status).toBe(404);
    // The data is kept server-side.
    expect(t.services.tables.datasets.raw(id)?.deleted_ms).not.toBeNull();
  });

  it("mentions_count counts each (source, id) once across runs; estimate uses stored coefficients", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const id = await createDataset(t);
    const first = await runToCompletion(t, id, promptRun("cold brew", 30));
    const afterFirst = (await t.call("GET", `/v1/datasets/${id}`)).json.data;
    expect(first.mentions_count).toBe(30);
    expect(first.new_mentions_count).toBe(30);
    expect(afterFirst.mentions_count).toBe(30);
    // The same query again: the same posts, nothing new.
    await t.clock.advance(86_400_000);
    const again = await runToCompletion(t, id, promptRun("cold brew", 30));
    expect(again.mentions_count).toBe(30);
    expect(again.new_mentions_count).toBe(0);
    const afterAgain = (await t.call("GET", `/v1/datasets/${id}`)).json.data;
    expect(afterAgain.mentions_count).toBe(30);
    expect(afterAgain.estimated_mentions_count).toBe(afterFirst.estimated_mentions_count);
    expect(afterFirst.estimated_mentions_count).toBeGreaterThanOrEqual(30);
    // A bigger run overlaps the first 30 posts (10 per source) and adds the rest.
    const bigger = await runToCompletion(t, id, promptRun("cold brew", 60));
    expect(bigger.new_mentions_count).toBe(30);
    const after = (await t.call("GET", `/v1/datasets/${id}`)).json.data;
    expect(after.mentions_count).toBe(60);
    // The images/videos counters match the stored posts.
    const all = await t.call("POST", "/v1/mentions", { body: { dataset_ids: [id], limit: 100 } });
    expect(all.json.data.length).toBe(60);
    expect(after.images_count).toBe(
      all.json.data.filter((m: any) => m.media.some((x: any) => x.type === "image")).length,
    );
    expect(after.videos_count).toBe(
      all.json.data.filter((m: any) => m.media.some((x: any) => x.type === "video")).length,
    );
  });

  it("a url run adds posts without extrapolation (estimate equals count)", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const id = await createDataset(t);
    const run = await runToCompletion(t, id, {
      search_query: {
        type: "url",
        source_urls: [
          { source: "reddit", url: "https://www.reddit.com/r/coffee/comments/abc/best_beans/" },
          { source: "youtube", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
        ],
      },
    });
    expect(run.status.type).toBe("completed");
    const d = (await t.call("GET", `/v1/datasets/${id}`)).json.data;
    expect(d.mentions_count).toBe(2);
    expect(d.estimated_mentions_count).toBe(2);
  });
});
