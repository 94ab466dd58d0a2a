// The shared run lifecycle and the ledger's multi-part and after-the-fact
// charges, on a ManualClock: states move in order, steps are stamped,
// completion settles to what was delivered, a failure releases everything.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Ledger } from "../src/platform/billing/ledger.ts";
import { money } from "../src/platform/billing/money.ts";
import { ManualClock } from "../src/platform/clock.ts";
import { InsufficientCreditsError } from "../src/platform/errors.ts";
import { Pipeline } from "../src/platform/pipeline.ts";
import { RunLifecycle, type LifecycleRow, type RunKind } from "../src/platform/runs/lifecycle.ts";

const KIND: RunKind<"processing" | "completed" | "failed"> = {
  label: "test run",
  states: { pending: "processing", working: "processing", completed: "completed", failed: "failed" },
  recordsSteps: true,
  category: "post_processing",
  insufficientCode: "insufficient_credits_content_analysis",
};

function setup(balance = "100") {
  const clock = new ManualClock();
  const ledger = new Ledger(clock);
  ledger.open("acc", "pro", money(balance));
  const lifecycle = new RunLifecycle(clock, ledger, new Pipeline(clock, { stepDelayMs: 1000 }));
  return { clock, ledger, lifecycle };
}

describe("run lifecycle", () => {
  it("reserves at creation, stamps each recorded step, settles to the delivered quantity", async () => {
    const { clock, ledger, lifecycle } = setup();
    const reservation = lifecycle.reserve(KIND, "acc", 100);
    expect(ledger.held("acc").toFixed(6)).toBe("1.780000"); // 100 x 0.5 x 0.0356
    const row: LifecycleRow<string> = { status: lifecycle.initialStatus(KIND), updated_ms: clock.now() };
    const seen: string[] = [];
    lifecycle.start({
      kind: KIND,
      row,
      reservation,
      delivered: () => 40,
      steps: [
        { name: "a", run: () => void seen.push("a") },
        { name: "hidden", record: false, run: () => void seen.push("hidden") },
        { name: "b", run: async () => void seen.push("b") },
      ],
    });
    expect(row.status).toEqual({ type: "processing", steps: [] });
    await clock.advance(1000);
    expect(row.status.type).toBe("processing");
    await clock.runAll();
    expect(seen).toEqual(["a", "hidden", "b"]);
    expect(row.status.type).toBe("completed");
    expect(row.status.steps!.map((s) => s.name)).toEqual(["a", "b"]);
    expect(ledger.held("acc").isZero()).toBe(true);
    expect(ledger.charged("acc").toFixed(6)).toBe("0.712000"); // 40 x 0.5 x 0.0356
    expect(ledger.rows("acc")[0]!.category).toBe("post_processing");
  });

  it("a throwing step fails the run with its message and releases the whole reservation", async () => {
    const { clock, ledger, lifecycle } = setup();
    const reservation = lifecycle.reserve(KIND, "acc", 10);
    const row: LifecycleRow<string> = { status: lifecycle.initialStatus(KIND), updated_ms: 0 };
    lifecycle.start({
      kind: KIND,
      row,
      reservation,
      delivered: () => 10,
      steps: [
        {
          name: "boom",
          run: () => {
            throw new Error("provider down");
          },
        },
      ],
    });
    await clock.runAll();
    expect(row.status).toEqual({ type: "failed", steps: [], error_message: "provider down" });
    expect(ledger.balance("acc").toFixed(6)).toBe("100.000000");
    expect(ledger.rows("acc")).toHaveLength(0);
  });

  it("a 402 is thrown before anything is held", () => {
    const { ledger, lifecycle } = setup("0.01");
    expect(() => lifecycle.reserve(KIND, "acc", 1000)).toThrow(InsufficientCreditsError);
    expect(ledger.held("acc").isZero()).toBe(true);
  });
});

describe("ledger: multi-part reservations and after-the-fact charges", () => {
  it("property: reserveAll holds every part or none; conservation holds (seed printed on failure)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20_000 }),
        fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 6 }),
        (cents, parts) => {
          const clock = new ManualClock();
          const ledger = new Ledger(clock);
          const initial = money(cents).div(100);
          ledger.open("acc", "starter", initial);
          const total = parts.reduce((s, q) => s.add(ledger.quote("acc", "mention", q)), money(0));
          try {
            const held = ledger.reserveAll(
              "acc",
              parts.map((quantity) => ({ category: "mention", quantity })),
              "insufficient_credits",
            );
            expect(total.lte(initial)).toBe(true);
            expect(held).toHaveLength(parts.length);
            held.forEach((r, i) => (i % 2 ? ledger.release(r) : ledger.settle(r, Math.floor(parts[i]! / 2))));
          } catch (e) {
            expect(e).toBeInstanceOf(InsufficientCreditsError);
            expect(total.gt(initial)).toBe(true);
          }
          expect(ledger.held("acc").isZero()).toBe(true);
          expect(initial.eq(ledger.balance("acc").add(ledger.charged("acc")))).toBe(true);
        },
      ),
    );
  });

  it("chargeAfter never overdraws and writes one row in its category", () => {
    const { ledger } = setup("1");
    ledger.chargeAfter("acc", "post_processing", money("0.4"));
    ledger.chargeAfter("acc", "post_processing", money("5"));
    expect(ledger.balance("acc").toFixed(6)).toBe("0.000000");
    expect(ledger.rows("acc").map((r) => r.amount.toFixed(6))).toEqual(["0.400000", "0.600000"]);
  });

  it("usage row ids are numbered per account, so they reveal nothing about other accounts", () => {
    const clock = new ManualClock();
    const ledger = new Ledger(clock);
    ledger.open("a", "pro", money(10));
    ledger.open("b", "pro", money(10));
    ledger.chargeAfter("a", "mention", money(1));
    ledger.chargeAfter("b", "mention", money(1));
    ledger.chargeAfter("a", "mention", money(1));
    expect(ledger.rows("a").map((r) => r.id)).toEqual([1, 2]);
    expect(ledger.rows("b").map((r) => r.id)).toEqual([1]);
  });
});
