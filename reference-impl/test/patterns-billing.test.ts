// Ledger conservation across any interleaving of pattern detections, clock
// advances and dataset deletions: money is never created or lost, a 402 or
// 400 holds nothing, completed detections pay 0.5 units per post of the
// latest completed run, failed ones pay nothing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { money, type Money } from "../src/platform/billing/money.ts";
import { createDataset, KEYS, makeApp, promptRun, runToCompletion } from "./helpers.ts";

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`pattern billing properties: fast-check seed ${SEED} (rerun with FC_SEED=${SEED})`);

const HALF_UNIT = money("0.0245"); // starter: 0.049 per unit, post_processing is 0.5 units

const op = fc.oneof(
  fc.record({ kind: fc.constant("detect" as const), dataset: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 900 }) }),
  fc.record({ kind: fc.constant("delete" as const) }),
);

describe("pattern detection billing", () => {
  it("property: initial = balance + held + charged throughout; completed runs pay their posts, failed runs nothing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 400 }),
        fc.array(op, { minLength: 1, maxLength: 10 }),
        async (cents, ops) => {
          const t = makeApp({ stepDelayMs: 300 });
          const key = KEYS.bOwner;
          // Dataset 0 and 1 have a completed run (1 may be deleted); dataset 2 has none.
          const ids = [
            await createDataset(t, "a", key),
            await createDataset(t, "b", key),
            await createDataset(t, "c", key),
          ];
          const posts = [
            (await runToCompletion(t, ids[0]!, promptRun("oat milk", 40), key)).mentions_count as number,
            (await runToCompletion(t, ids[1]!, promptRun("cold brew", 25), key)).mentions_count as number,
          ];
          const initial: Money = money(cents).div(100);
          t.ledger.open("acc_demoB", "starter", initial);
          const check = () => {
            expect(t.ledger.balance("acc_demoB").isNegative()).toBe(false);
            expect(
              initial.eq(
                t.ledger.balance("acc_demoB").add(t.ledger.held("acc_demoB")).add(t.ledger.charged("acc_demoB")),
              ),
            ).toBe(true);
          };
          const accepted: { runId: string; posts: number }[] = [];
          let deleted = false;
          for (const o of ops) {
            if (o.kind === "advance") await t.clock.advance(o.ms);
            else if (o.kind === "delete") {
              if (!deleted) expect((await t.call("DELETE", `/v1/datasets/${ids[1]}`, { key })).status).toBe(204);
              deleted = true;
            } else {
              const before = t.ledger.balance("acc_demoB");
              const res = await t.call("POST", "/v1/pattern_detections", {
                key,
                body: { dataset_id: ids[o.dataset], name: "n", research_question: "price?" },
              });
              if (o.dataset === 2) expect([res.status, res.json.error_code]).toEqual([400, "nothing_to_analyze"]);
              else if (o.dataset === 1 && deleted) expect(res.json.error_code).toBe("dataset_not_found");
              else if (res.status === 202) {
                accepted.push({ runId: res.json.data.run_id, posts: posts[o.dataset]! });
                expect(before.sub(t.ledger.balance("acc_demoB")).eq(HALF_UNIT.mul(posts[o.dataset]!))).toBe(true);
              } else {
                expect(res.json.error_code).toBe("insufficient_credits_pattern_detection");
                expect(HALF_UNIT.mul(posts[o.dataset]!).gt(before)).toBe(true);
              }
              if (res.status !== 202) expect(t.ledger.balance("acc_demoB").eq(before)).toBe(true);
            }
            check();
          }
          await t.clock.runAll();
          check();
          expect(t.ledger.held("acc_demoB").isZero()).toBe(true);
          let expected = money(0);
          for (const a of accepted) {
            const run = (await t.call("GET", `/v1/pattern_detections/${a.runId}`, { key })).json.data;
            expect(["completed", "failed"]).toContain(run.status.type);
            if (run.status.type === "completed") expected = expected.add(HALF_UNIT.mul(a.posts));
            else expect(run).not.toHaveProperty("pattern_id");
          }
          expect(t.ledger.charged("acc_demoB").eq(expected)).toBe(true);
          for (const row of t.ledger.rows("acc_demoB")) expect(row.category).toBe("post_processing");
        },
      ),
      { seed: SEED, numRuns: 30 },
    );
  });
});
