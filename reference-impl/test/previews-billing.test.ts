// Ledger conservation across any sequence of research previews: whatever the
// balance, the bodies and provider failures, money is never created or lost,
// nothing stays held after a synchronous preview, a 402 or a failed scrape
// changes nothing, and every success charges exactly its rule.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { providerScraper } from "../src/domain/previews/service.ts";
import { money, type Money } from "../src/platform/billing/money.ts";
import { KEYS, makeApp } from "./helpers.ts";

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`previews billing properties: fast-check seed ${SEED} (rerun with FC_SEED=${SEED})`);

const STARTER_UNIT = money("0.049");
// Each URL with whether it returns a profile (see simulators/profiles.ts).
const POOL: { source: string; url: string; returns: boolean }[] = [
  { source: "instagram", url: "https://www.instagram.com/minimalistbaker/", returns: true },
  { source: "tiktok", url: "https://www.tiktok.com/@brewwithjonas", returns: true },
  { source: "youtube", url: "https://www.youtube.com/@cargo.bike.reviews", returns: true },
  { source: "linkedin", url: "https://www.linkedin.com/in/jane-doe", returns: true },
  { source: "instagram", url: "https://www.instagram.com/private_life/", returns: false },
  { source: "reddit", url: "https://www.reddit.com/user/removed_account", returns: false },
  { source: "tiktok", url: "https://www.youtube.com/@wrong_host", returns: false },
];
const SOURCES = ["reddit", "tiktok", "youtube", "instagram", "linkedin"] as const;

const op = fc.oneof(
  fc.record({
    type: fc.constant("prompt" as const),
    sources: fc.array(fc.constantFrom(...SOURCES), { minLength: 1, maxLength: 5 }),
    fail: fc.boolean(),
  }),
  fc.record({
    type: fc.constant("url" as const),
    picks: fc.array(fc.integer({ min: 0, max: POOL.length - 1 }), { minLength: 1, maxLength: 10 }),
    fail: fc.boolean(),
  }),
);

describe("research preview billing", () => {
  it("property: initial = balance + charged after every preview; each success charges exactly its rule", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 120 }),
        fc.array(op, { minLength: 1, maxLength: 8 }),
        async (cents, ops) => {
          const t = makeApp();
          const initial: Money = money(cents).div(100);
          t.ledger.open("acc_poor", "starter", initial);
          let failNext = false;
          const failing =
            <A extends unknown[], R>(fn: (...a: A) => R) =>
            (...a: A): R => {
              if (failNext) throw new Error("provider down");
              return fn(...a);
            };
          t.services.previews.scraper = {
            search: failing(providerScraper.search),
            volume: providerScraper.volume,
            profile: failing(providerScraper.profile),
          };
          let stored = 0;
          for (const o of ops) {
            failNext = o.fail;
            const before = t.ledger.balance("acc_poor");
            const body =
              o.type === "prompt"
                ? { type: "prompt", search_query: "cold brew", sources: o.sources, time_filter: "past_week" }
                : { type: "url", source_urls: o.picks.map((i) => ({ source: POOL[i]!.source, url: POOL[i]!.url })) };
            const res = await t.call("POST", "/v1/research_previews", { key: KEYS.poor, body });
            const spent = before.sub(t.ledger.balance("acc_poor"));
            const reserved = o.type === "prompt" ? new Set(o.sources).size : new Set(o.picks).size;
            if (res.status === 201) {
              stored++;
              const expected =
                o.type === "prompt" ? reserved : [...new Set(o.picks)].filter((i) => POOL[i]!.returns).length;
              if (o.type === "url") expect(res.json.data.profiles.length).toBe(expected);
              expect(spent.eq(STARTER_UNIT.mul(expected))).toBe(true);
              expect(o.fail).toBe(false);
            } else if (res.status === 402) {
              expect(STARTER_UNIT.mul(reserved).gt(before)).toBe(true);
              expect(money(res.json.detail.required).eq(STARTER_UNIT.mul(reserved))).toBe(true);
              expect(spent.isZero()).toBe(true);
            } else {
              expect(res.status).toBe(500);
              expect(o.fail).toBe(true);
              expect(spent.isZero()).toBe(true);
            }
            expect(t.ledger.held("acc_poor").isZero()).toBe(true);
            expect(t.ledger.balance("acc_poor").isNegative()).toBe(false);
            expect(initial.eq(t.ledger.balance("acc_poor").add(t.ledger.charged("acc_poor")))).toBe(true);
          }
          expect(t.services.tables.previews.live("acc_poor").length).toBe(stored);
          const history = (await t.call("GET", "/v1/me/usage_history?limit=100", { key: KEYS.poor })).json.data;
          const sum = history.reduce((s: Money, row: any) => s.add(money(String(row.quantity))), money(0));
          expect(sum.eq(t.ledger.charged("acc_poor"))).toBe(true);
          for (const row of history) expect(row.category).toBe("preview_generation");
        },
      ),
      { seed: SEED, numRuns: 60 },
    );
  });
});
