import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { money, type Money } from "../src/platform/billing/money.ts";
import { unitPrice, PLANS } from "../src/platform/billing/plans.ts";
import { Ledger } from "../src/platform/billing/ledger.ts";
import { ManualClock } from "../src/platform/clock.ts";
import { InsufficientCreditsError } from "../src/platform/errors.ts";
import { createDataset, KEYS, makeApp } from "./helpers.ts";

const ledger_quote = (plan: "starter" | "pro" | "business", units: number) => unitPrice(plan, "mention").mul(units);

describe("prices and plans", () => {
  it("plan rates times unit ratios, exact", async () => {
    expect(PLANS.starter.rate.toString()).toBe("0.049");
    expect(PLANS.pro.rate.toString()).toBe("0.0356");
    expect(PLANS.business.rate.toString()).toBe("0.0225");
    expect(unitPrice("pro", "post_processing").toString()).toBe("0.0178");
    expect(unitPrice("starter", "audience_profile").toString()).toBe("0.147");
    const t = makeApp();
    const b = (await t.call("GET", "/v1/prices", { key: KEYS.bOwner })).json.data;
    expect(b).toEqual({
      currency: "usd",
      rate: 0.049,
      prices: { audience_profile: 0.147, mention: 0.049, post_processing: 0.0245, preview_generation: 0.049 },
      prices_credits: {
        audience_profile: "3.000000",
        mention: "1.000000",
        post_processing: "0.500000",
        preview_generation: "1.000000",
      },
      billing: { unit: "dollar", catalog_version: expect.any(String), precision: 6 },
    });
    expect((await t.call("GET", "/v1/prices", { key: null })).status).toBe(401);
  });

  it("/v1/me reports plan, members, teams and the usage block from the ledger", async () => {
    const t = makeApp();
    const me = (await t.call("GET", "/v1/me")).json.data;
    expect(me.plan).toMatchObject({
      name: "Pro",
      type: "monthly",
      features: { api_access: true, mcp: true },
      limits: { num_seats: 3 },
    });
    expect(me.members.filter((m: any) => m.type === "member").length).toBe(2);
    expect(me.members.some((m: any) => m.type === "invitation")).toBe(true);
    expect(me.usage).toEqual({
      balance: 178,
      balance_used: 0,
      balance_total: 178,
      currency: "usd",
      credits_used: 0,
      credits_total: 5000,
      renews_at: expect.any(Number),
    });
    expect(me).not.toHaveProperty("usage.credits_remaining");
  });
});

describe("ledger", () => {
  it("a reservation equal to the balance fits; one micro-dollar more does not", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.constantFrom("starter" as const, "pro" as const, "business" as const),
        (units, plan) => {
          const ledger = new Ledger(new ManualClock());
          const amount = ledger_quote(plan, units);
          ledger.open("exact", plan, amount);
          const r = ledger.reserve("exact", "mention", units, "insufficient_credits_dataset_run");
          expect(ledger.balance("exact").isZero()).toBe(true);
          ledger.release(r);
          ledger.open("short", plan, amount.sub("0.000001"));
          expect(() => ledger.reserve("short", "mention", units, "insufficient_credits_dataset_run")).toThrow(
            InsufficientCreditsError,
          );
          expect(ledger.balance("short").eq(amount.sub("0.000001"))).toBe(true);
        },
      ),
    );
  });

  it("reserve is all-or-nothing; settle refunds the rest; release refunds all; conservation holds", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.array(
          fc.record({
            units: fc.integer({ min: 0, max: 2000 }),
            used: fc.integer({ min: 0, max: 2000 }),
            fail: fc.boolean(),
          }),
          { maxLength: 30 },
        ),
        (cents, ops) => {
          const ledger = new Ledger(new ManualClock());
          const initial = money(cents).div(100);
          ledger.open("acc", "pro", initial);
          let charged = money(0);
          for (const op of ops) {
            const amount = ledger.quote("acc", "mention", op.units);
            const before = ledger.balance("acc");
            let r;
            try {
              r = ledger.reserve("acc", "mention", op.units, "insufficient_credits_dataset_run");
            } catch (e) {
              expect(e).toBeInstanceOf(InsufficientCreditsError);
              expect(before.lt(amount)).toBe(true);
              expect(ledger.balance("acc").eq(before)).toBe(true);
              continue;
            }
            expect(ledger.balance("acc").eq(before.sub(amount))).toBe(true);
            expect(initial.eq(ledger.balance("acc").add(ledger.held("acc")).add(charged))).toBe(true);
            if (op.fail) {
              ledger.release(r);
              expect(ledger.balance("acc").eq(before)).toBe(true);
            } else {
              const actual = ledger.quote("acc", "mention", Math.min(op.used, op.units));
              ledger.settle(r, op.used);
              charged = charged.add(actual);
              expect(ledger.balance("acc").eq(before.sub(actual))).toBe(true);
            }
            expect(ledger.balance("acc").isNegative()).toBe(false);
            expect(initial.eq(ledger.balance("acc").add(charged))).toBe(true);
          }
          expect(ledger.held("acc").isZero()).toBe(true);
          expect(ledger.charged("acc").eq(charged)).toBe(true);
        },
      ),
    );
  });
});

describe("billing through the API", () => {
  it("concurrent run creation never overdraws: exactly the runs that fit are accepted", async () => {
    const t = makeApp({ stepDelayMs: 100 });
    const id = await createDataset(t, "burst", KEYS.bOwner);
    // 3 runs of 100 mentions fit in 15 dollars at 0.049 (4.9 each); the 4th does not.
    t.ledger.open("acc_demoB", "starter", money(15));
    const body = { search_query: { type: "prompt", sources: ["reddit"], search_query: "burst test" }, count: 100 };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t.call("POST", `/v1/datasets/${id}/runs`, { key: KEYS.bOwner, body })),
    );
    expect(results.filter((r) => r.status === 202).length).toBe(3);
    expect(results.filter((r) => r.status === 402).length).toBe(7);
    expect(t.ledger.balance("acc_demoB").toFixed(6)).toBe("0.300000");
  });

  it("property: initial = balance + held + settled at every step; afterwards initial = balance + settled", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 100, max: 6000 }),
        fc.array(
          fc.record({
            count: fc.integer({ min: 20, max: 300 }),
            query: fc.constantFrom("oat milk", "kombucha", "zz top", "vinyl"),
            url: fc.boolean(),
            advance: fc.integer({ min: 0, max: 700 }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        async (cents, requests) => {
          const t = makeApp({ stepDelayMs: 200 });
          const id = await createDataset(t, "prop", KEYS.bOwner);
          const initial: Money = money(cents).div(100);
          t.ledger.open("acc_demoB", "starter", initial);
          const price = money("0.049");
          const accepted: string[] = [];
          const check = () => {
            const settled = t.ledger.charged("acc_demoB");
            expect(t.ledger.balance("acc_demoB").isNegative()).toBe(false);
            expect(initial.eq(t.ledger.balance("acc_demoB").add(t.ledger.held("acc_demoB")).add(settled))).toBe(true);
          };
          for (const r of requests) {
            const body = r.url
              ? {
                  search_query: {
                    type: "url",
                    source_urls: [
                      { source: "reddit", url: "https://www.reddit.com/r/x/comments/1/a/" },
                      { source: "tiktok", url: "https://nope.example/v/1" },
                    ],
                  },
                  count: r.count,
                }
              : {
                  search_query: { type: "prompt", sources: ["reddit", "linkedin"], search_query: r.query },
                  count: r.count,
                };
            const before = t.ledger.balance("acc_demoB");
            const res = await t.call("POST", `/v1/datasets/${id}/runs`, { key: KEYS.bOwner, body });
            if (res.status === 202) accepted.push(res.json.data.id);
            else {
              expect(res.status).toBe(402);
              expect(money(res.json.detail.required).gt(before)).toBe(true);
              expect(res.json.detail.available).toBe(before.toFixed(6));
            }
            check();
            await t.clock.advance(r.advance);
            check();
          }
          await t.clock.runAll();
          check();
          expect(t.ledger.held("acc_demoB").isZero()).toBe(true);
          let collected = 0;
          for (const runId of accepted) {
            const run = (await t.call("GET", `/v1/datasets/${id}/runs/${runId}`, { key: KEYS.bOwner })).json.data;
            expect(["completed", "failed"]).toContain(run.status.type);
            if (run.status.type === "completed") collected += run.mentions_count;
          }
          expect(t.ledger.charged("acc_demoB").eq(price.mul(collected))).toBe(true);
          expect(initial.eq(t.ledger.balance("acc_demoB").add(price.mul(collected)))).toBe(true);
          const history = (await t.call("GET", "/v1/me/usage_history?limit=100", { key: KEYS.bOwner })).json.data;
          const sum = history.reduce((s: Money, row: any) => s.add(money(String(row.quantity))), money(0));
          expect(sum.eq(price.mul(collected))).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("usage history is account-wide and cursor paginated newest first", async () => {
    const t = makeApp({ stepDelayMs: 0 });
    const id = await createDataset(t);
    for (const q of ["a1", "a2", "a3"]) {
      await t.call("POST", `/v1/datasets/${id}/runs`, {
        body: { search_query: { type: "prompt", sources: ["reddit"], search_query: q }, count: 20 },
      });
      await t.clock.runAll();
    }
    const owner = await t.call("GET", "/v1/me/usage_history?limit=2");
    const member = await t.call("GET", "/v1/me/usage_history?limit=2", { key: KEYS.aMember });
    expect(owner.json.data).toEqual(member.json.data);
    expect(owner.json.data.map((r: any) => r.id)).toEqual([3, 2]);
    const next = await t.call("GET", `/v1/me/usage_history?limit=2&cursor=${owner.json.cursor}`);
    expect(next.json.data.map((r: any) => r.id)).toEqual([1]);
    expect(next.json.has_next).toBe(false);
    expect((await t.call("GET", "/v1/me/usage_history", { key: KEYS.bOwner })).json.data).toEqual([]);
  });
});
