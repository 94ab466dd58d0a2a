// fast-check properties of the audience group: a cursor walk of the profile
// search visits every matching profile exactly once in sort order, and money
// is conserved across any sequence of audience runs (accepted, refused with
// 402, failed by deleting their audience dataset). Seeds are printed so a
// failure can be replayed with FC_SEED.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { money, type Money } from "../src/platform/billing/money.ts";
import { unitPrice } from "../src/platform/billing/plans.ts";
import { createDataset, makeApp, promptRun, runToCompletion, type TestApp } from "./helpers.ts";

const A = "acc_demoA";
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`audiences-properties fast-check seed: ${seed} (replay with FC_SEED=${seed})`);

async function post(t: TestApp, body: unknown) {
  const res = await t.call("POST", "/v1/audience_profiles", { body });
  return res;
}

describe("profile search cursor walk", () => {
  let t: TestApp;
  let all: any[];
  const runAt = new Map<string, number>();

  beforeAll(async () => {
    t = makeApp();
    const ds = await createDataset(t, "Source");
    await runToCompletion(t, ds, promptRun("oat milk", 50, { num_comments_per_post: 2 }));
    const audiences: string[] = [];
    for (const name of ["one", "two"])
      audiences.push((await t.call("POST", "/v1/audience_datasets", { body: { name } })).json.data.id);
    // Three runs at different times; the third refreshes part of the first audience dataset.
    for (const [audience, count] of [
      [audiences[0], 40],
      [audiences[1], 25],
      [audiences[0], 15],
    ] as const) {
      await t.clock.advance(5_000);
      const res = await t.call("POST", `/v1/audience_datasets/${audience}/runs`, {
        body: { source_dataset_id: ds, total_profile_count: count },
      });
      await t.clock.runAll();
      const run = (await t.call("GET", `/v1/audience_datasets/${audience}/runs/${res.json.data.id}`)).json.data;
      runAt.set(run.id, Date.parse(run.created_at));
    }
    all = [];
    let cursor: string | undefined;
    do {
      const page = await post(t, { limit: 100, ...(cursor ? { cursor } : {}) });
      all.push(...page.json.data);
      cursor = page.json.has_next ? page.json.cursor : undefined;
    } while (cursor);
  });

  it("visits every matching profile once, in (sort key, id) order, for any limit, sort, order and filter", async () => {
    expect(all.length).toBeGreaterThan(40);
    const filterArb = fc.constantFrom<any[][] | undefined>(
      undefined,
      [[{ type: "source", values: ["reddit"] }]],
      [[{ type: "follower_count", operator: "greater_than", value: 1000 }], [{ type: "is_verified", value: true }]],
      [[{ type: "keyword", operator: "is_not", value: "commenter" }]],
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom("created_at" as const, "audience_dataset_run_at" as const),
        fc.constantFrom("asc" as const, "desc" as const),
        filterArb,
        async (limit, sort, order, filters) => {
          const keep = (p: any) => {
            if (!filters) return true;
            return filters.some((g: any[]) =>
              g.every((f) =>
                f.type === "source"
                  ? f.values.includes(p.source)
                  : f.type === "follower_count"
                    ? p.follower_count > f.value
                    : f.type === "is_verified"
                      ? p.is_verified === f.value
                      : !` ${p.summary} `.includes(" commenter "),
              ),
            );
          };
          const value = (p: any) => (sort === "created_at" ? p.created_at * 1000 : runAt.get(p.run_id)!);
          const expected = all
            .filter(keep)
            .sort((a, b) => value(a) - value(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
            .map((p) => p.id);
          if (order === "desc") expected.reverse();
          const seen: string[] = [];
          let cursor: string | undefined;
          for (let guard = 0; guard < 500; guard++) {
            const res = await post(t, {
              limit,
              sort,
              order,
              ...(filters ? { filters } : {}),
              ...(cursor ? { cursor } : {}),
            });
            expect(res.status).toBe(200);
            expect(res.json.data.length).toBeLessThanOrEqual(limit);
            seen.push(...res.json.data.map((p: any) => p.id));
            if (!res.json.has_next) {
              expect(res.json.cursor).toBeNull();
              break;
            }
            cursor = res.json.cursor;
          }
          expect(seen).toEqual(expected);
        },
      ),
      { seed, numRuns: 40 },
    );
  });
});

describe("ledger conservation across audience runs", () => {
  it("initial = balance + held + charged at every step; afterwards nothing is held and the charge is 3 units per collected profile", async () => {
    const opArb = fc.record({
      count: fc.integer({ min: 1, max: 1200 }),
      // 0: run to completion; 1: leave it in flight for the next op (409s); 2: delete its audience dataset mid-run.
      fate: fc.integer({ min: 0, max: 2 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 150_00 }),
        fc.array(opArb, { minLength: 1, maxLength: 6 }),
        async (cents, ops) => {
          const t = makeApp();
          const ds = await createDataset(t, "Source");
          await runToCompletion(t, ds, promptRun("running shoes", 40, { num_comments_per_post: 2 }));
          const initial: Money = money(cents).div(100);
          t.ledger.open(A, "pro", initial);
          const price = unitPrice("pro", "audience_profile");
          const conserved = () =>
            expect(initial.eq(t.ledger.balance(A).add(t.ledger.held(A)).add(t.ledger.charged(A)))).toBe(true);
          let expectedCharge = money(0);
          const accepted: string[] = [];
          let audience = (await t.call("POST", "/v1/audience_datasets", { body: { name: "aud" } })).json.data.id;
          for (const op of ops) {
            const before = t.ledger.balance(A);
            const res = await t.call("POST", `/v1/audience_datasets/${audience}/runs`, {
              body: { source_dataset_id: ds, total_profile_count: op.count },
            });
            conserved();
            if (res.status === 402) {
              expect(before.lt(price.mul(op.count))).toBe(true);
              expect(t.ledger.balance(A).eq(before)).toBe(true);
              continue;
            }
            if (res.status === 409) continue;
            expect(res.status).toBe(202);
            accepted.push(res.json.data.id);
            expect(t.ledger.balance(A).eq(before.sub(price.mul(op.count)))).toBe(true);
            if (op.fate === 2) {
              await t.clock.advance(300);
              await t.call("DELETE", `/v1/audience_datasets/${audience}`);
              conserved();
              audience = (await t.call("POST", "/v1/audience_datasets", { body: { name: "aud" } })).json.data.id;
            } else if (op.fate === 0) {
              await t.clock.runAll();
            }
            conserved();
          }
          await t.clock.runAll();
          conserved();
          expect(t.ledger.held(A).isZero()).toBe(true);
          // Runs left in flight completed in the final runAll; count every
          // completed run's profiles, including runs of deleted audience datasets.
          for (const id of accepted) {
            const run = t.services.audiences.runs.raw(id)!;
            if (run.status.type === "completed") expectedCharge = expectedCharge.add(price.mul(run.profile_count));
            else expect(run.status.type).toBe("failed");
          }
          expect(t.ledger.charged(A).eq(expectedCharge)).toBe(true);
          expect(t.ledger.balance(A).isNegative()).toBe(false);
        },
      ),
      { seed, numRuns: 25 },
    );
  });
});
