// Ledger conservation through agent cycles and assistant turns (fast-check,
// seed printed): whatever mix of triggers, scheduled cycles, asks and clock
// advances runs, from any starting balance, money is neither created nor
// lost (balance + held + charged = opening balance), the balance never goes
// negative, a refused request changes nothing, and once all work is done
// nothing stays held.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { money } from "../src/platform/billing/money.ts";
import { createDataset, makeApp, promptRun, runToCompletion } from "./helpers.ts";

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`ledger conservation through cycles and turns: fast-check seed ${SEED} (rerun with FC_SEED=${SEED})`);

const ACC = "acc_demoA";
type Op = { kind: "trigger" } | { kind: "ask"; words: string } | { kind: "advance"; ms: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constant({ kind: "trigger" as const }),
  fc
    .constantFrom("oat milk", "froth", "brands", "preview of oat milk on reddit")
    .map((words) => ({ kind: "ask" as const, words })),
  fc.integer({ min: 0, max: 3 * 3_600_000 }).map((ms) => ({ kind: "advance" as const, ms })),
);

describe("ledger conservation (property)", () => {
  it("holds through random cycles and turns", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 400 }),
        async (ops, cents) => {
          const t = makeApp({ agentCycleSeconds: 3600 });
          const ds = await createDataset(t, "Conservation");
          await runToCompletion(t, ds, promptRun("oat milk", 20, { content_analysis_actions: ["sentiment"] }));
          const agent = await t.call("POST", "/v1/tracking_agents", {
            body: {
              name: "c",
              instructions: "c",
              dataset_ids: [ds],
              count: 40,
              schedule: { frequency: "daily", time: "10:00" },
            },
          });
          const opening = money(cents).div(100);
          t.ledger.open(ACC, "pro", opening);
          const check = () => {
            const balance = t.ledger.balance(ACC);
            expect(balance.isNegative()).toBe(false);
            expect(t.ledger.held(ACC).isNegative()).toBe(false);
            expect(balance.add(t.ledger.held(ACC)).add(t.ledger.charged(ACC)).toString()).toBe(opening.toString());
          };
          for (const o of ops) {
            const before = t.ledger.balance(ACC).add(t.ledger.held(ACC)).toString();
            if (o.kind === "advance") await t.clock.advance(o.ms);
            else {
              const res =
                o.kind === "trigger"
                  ? await t.call("POST", `/v1/tracking_agents/${agent.json.data.id}/trigger`)
                  : await t.call("POST", "/v1/ask", { body: { message: `What about ${o.words}?` } });
              expect([202, 402, 409]).toContain(res.status);
              // A refusal reserves and charges nothing.
              if (res.status !== 202) expect(t.ledger.balance(ACC).add(t.ledger.held(ACC)).toString()).toBe(before);
            }
            check();
          }
          await t.call("POST", `/v1/tracking_agents/${agent.json.data.id}/pause`);
          await t.clock.runAll(1000);
          check();
          expect(t.ledger.held(ACC).isZero()).toBe(true);
        },
      ),
      { seed: SEED, numRuns: 25 },
    );
  }, 120_000);
});
