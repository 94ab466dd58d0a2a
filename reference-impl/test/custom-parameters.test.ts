// Custom parameters CRUD through the API: name rules (D-CP-NAME), the
// reference's ceiling (D-REF-CP-LIMIT), PATCH (D-CP-PATCH), soft delete
// (D-CP-DELETE) and the cursor-paginated list (D-CP-LIST).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PARAMETER_CEILING } from "../src/domain/custom-parameters/service.ts";
import { KEYS, makeApp, type TestApp } from "./helpers.ts";

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`custom parameters list properties: fast-check seed ${SEED} (rerun with FC_SEED=${SEED})`);

const body = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  instructions: "Which brands are mentioned?",
  value_type: "string",
  ...extra,
});

async function create(t: TestApp, name: string, key = KEYS.aOwner) {
  const res = await t.call("POST", "/v1/custom_parameters", { key, body: body(name) });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return res.json.data;
}

describe("custom parameters", () => {
  it("creates with 201 and integer timestamps, readable at once by every seat of the account", async () => {
    const t = makeApp();
    const res = await t.call("POST", "/v1/custom_parameters", {
      body: body("Purchase intent", { value_type: "boolean" }),
    });
    expect(res.status).toBe(201);
    const p = res.json.data;
    expect(p).toMatchObject({
      name: "Purchase intent",
      value_type: "boolean",
      instructions: "Which brands are mentioned?",
    });
    expect(p.id).toMatch(/^cp_/);
    expect(p.created_at).toBe(Math.floor(t.clock.now() / 1000));
    expect(p.updated_at).toBe(p.created_at);
    const read = await t.call("GET", `/v1/custom_parameters/${p.id}`, { key: KEYS.aMember });
    expect(read.status).toBe(200);
    expect(read.json.data).toEqual(p);
  });

  it("refuses empty and blank names with 400, too long names and unknown value types with 422", async () => {
    const t = makeApp();
    for (const name of ["", "   ", "\t\n", "\u00a0"]) {
      const res = await t.call("POST", "/v1/custom_parameters", { body: body(name) });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        status: "client_error",
        error_code: "custom_parameter_empty_name",
        transient: false,
      });
    }
    expect((await t.call("POST", "/v1/custom_parameters", { body: body("x".repeat(256)) })).status).toBe(422);
    expect((await t.call("POST", "/v1/custom_parameters", { body: body("ok", { value_type: "date" }) })).status).toBe(
      422,
    );
    expect((await t.call("GET", "/v1/custom_parameters")).json.data).toEqual([]);
  });

  it("refuses a duplicate name compared trimmed and case-folded, per account", async () => {
    const t = makeApp();
    const first = await create(t, "Purchase intent");
    for (const name of ["Purchase intent", "  purchase INTENT "]) {
      const res = await t.call("POST", "/v1/custom_parameters", { body: body(name) });
      expect(res.status).toBe(409);
      expect(res.json.error_code).toBe("custom_parameter_duplicate_name");
      expect(res.json.detail).toContain(first.id);
    }
    // Another account may use the name.
    expect(
      (await t.call("POST", "/v1/custom_parameters", { key: KEYS.bOwner, body: body("Purchase intent") })).status,
    ).toBe(201);
  });

  it(`holds at most ${PARAMETER_CEILING} live parameters; a delete frees a slot`, async () => {
    const t = makeApp();
    const ids: string[] = [];
    for (let i = 0; i < PARAMETER_CEILING; i++) ids.push((await create(t, `p${i}`)).id);
    const over = await t.call("POST", "/v1/custom_parameters", { body: body("one more") });
    expect(over.status).toBe(409);
    expect(over.json).toMatchObject({ error_code: "custom_parameter_limit_exceeded", transient: false });
    expect(over.json.detail).toContain(String(PARAMETER_CEILING));
    expect((await t.call("DELETE", `/v1/custom_parameters/${ids[0]}`)).status).toBe(204);
    expect((await t.call("POST", "/v1/custom_parameters", { body: body("one more") })).status).toBe(201);
  });

  it("PATCH changes name and instructions only; an empty body changes nothing", async () => {
    const t = makeApp();
    const p = await create(t, "Brands");
    await create(t, "Price");
    await t.clock.advance(5000);
    const same = await t.call("PATCH", `/v1/custom_parameters/${p.id}`, { body: {} });
    expect(same.status).toBe(200);
    expect(same.json.data).toEqual(p);
    const noBody = await t.call("PATCH", `/v1/custom_parameters/${p.id}`);
    expect(noBody.json.data).toEqual(p);

    const renamed = await t.call("PATCH", `/v1/custom_parameters/${p.id}`, {
      body: { name: "BRANDS", instructions: "Which brand is compared?", value_type: "number" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json.data).toMatchObject({
      name: "BRANDS",
      instructions: "Which brand is compared?",
      value_type: "string",
    });
    expect(renamed.json.data.updated_at).toBe(p.updated_at + 5);

    const clash = await t.call("PATCH", `/v1/custom_parameters/${p.id}`, { body: { name: " price" } });
    expect(clash.status).toBe(409);
    expect(clash.json.error_code).toBe("custom_parameter_duplicate_name");
    const blank = await t.call("PATCH", `/v1/custom_parameters/${p.id}`, { body: { name: " " } });
    expect(blank.status).toBe(400);
    expect(blank.json.error_code).toBe("custom_parameter_empty_name");
    expect((await t.call("GET", `/v1/custom_parameters/${p.id}`)).json.data.name).toBe("BRANDS");
  });

  it("answers 404 custom_parameter_not_found for unknown, foreign and deleted ids on every operation", async () => {
    const t = makeApp();
    const foreign = await create(t, "Theirs", KEYS.bOwner);
    const mine = await create(t, "Mine");
    expect((await t.call("DELETE", `/v1/custom_parameters/${mine.id}`)).status).toBe(204);
    for (const id of ["cp_missing", foreign.id, mine.id]) {
      const calls = [
        t.call("GET", `/v1/custom_parameters/${id}`),
        t.call("PATCH", `/v1/custom_parameters/${id}`, { body: { name: "x" } }),
        t.call("DELETE", `/v1/custom_parameters/${id}`),
        t.call("POST", `/v1/custom_parameters/${id}/runs`, { body: { scope: { kind: "dataset", id: "ds_x" } } }),
        t.call("GET", `/v1/custom_parameters/${id}/runs`),
        t.call("GET", `/v1/custom_parameters/${id}/runs/cpr_x`),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(404);
        expect(res.json.error_code).toBe("custom_parameter_not_found");
      }
    }
    // The deleted name is free again, and the list no longer shows it.
    expect((await t.call("POST", "/v1/custom_parameters", { body: body("Mine") })).status).toBe(201);
    expect((await t.call("GET", "/v1/custom_parameters")).json.data.map((p: { name: string }) => p.name)).toEqual([
      "Mine",
    ]);
  });

  it("lists newest first by default, 10 per page, and refuses a cursor of another order", async () => {
    const t = makeApp();
    for (let i = 0; i < 12; i++) {
      await create(t, `p${i}`);
      await t.clock.advance(1000);
    }
    const first = await t.call("GET", "/v1/custom_parameters");
    expect(first.json.data.map((p: { name: string }) => p.name)).toEqual([
      "p11",
      "p10",
      "p9",
      "p8",
      "p7",
      "p6",
      "p5",
      "p4",
      "p3",
      "p2",
    ]);
    expect(first.json.has_next).toBe(true);
    const bad = await t.call("GET", `/v1/custom_parameters?order=asc&cursor=${first.json.cursor}`);
    expect(bad.status).toBe(400);
    expect(bad.json.error_code).toBe("invalid_cursor");
    expect((await t.call("GET", "/v1/custom_parameters?limit=0")).status).toBe(422);
  });

  it("property: a cursor walk returns every live parameter exactly once, in order", async () => {
    await fc.assert(
      fc.asyncProperty(
        // Whole seconds, so ties in created_at are ties in created_ms too (then ids decide).
        fc.array(fc.record({ advance: fc.integer({ min: 0, max: 2 }).map((s) => s * 1000), remove: fc.boolean() }), {
          minLength: 0,
          maxLength: 25,
        }),
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom("asc", "desc"),
        async (plan, limit, order) => {
          const t = makeApp();
          const live: { id: string; created_at: number }[] = [];
          for (const [i, step] of plan.entries()) {
            const p = await create(t, `n${i}`);
            if (step.remove) expect((await t.call("DELETE", `/v1/custom_parameters/${p.id}`)).status).toBe(204);
            else live.push(p);
            await t.clock.advance(step.advance);
          }
          const seen: string[] = [];
          let cursor: string | null = null;
          for (let guard = 0; guard <= plan.length + 1; guard++) {
            const page: Awaited<ReturnType<TestApp["call"]>> = await t.call(
              "GET",
              `/v1/custom_parameters?limit=${limit}&order=${order}${cursor ? `&cursor=${cursor}` : ""}`,
            );
            expect(page.status).toBe(200);
            expect(page.json.data.length).toBeLessThanOrEqual(limit);
            seen.push(...page.json.data.map((p: { id: string }) => p.id));
            cursor = page.json.cursor;
            expect(cursor === null).toBe(!page.json.has_next);
            if (!page.json.has_next) break;
          }
          const sorted = [...live]
            .sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1))
            .map((p) => p.id);
          expect(seen).toEqual(order === "asc" ? sorted : sorted.reverse());
        },
      ),
      { seed: SEED, numRuns: 40 },
    );
  });
});
