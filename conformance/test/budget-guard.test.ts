// The budget guard on its own: the limit, releases, and the room of the
// negative cases, which a deployment that accepts them (as it may where the
// seed leaves a bound open) cannot grow past what the budget holds beyond
// the plan.
import { describe, expect, it } from "vitest";
import { Budget } from "../src/run/budget.ts";
import { SkipError } from "../src/skip.ts";

describe("budget guard", () => {
  it("refuses a commitment past the limit and takes it after a release", () => {
    const b = new Budget(10);
    const release = b.charge("6", "first");
    expect(() => b.charge("5", "second")).toThrow(SkipError);
    release();
    release(); // once
    b.charge("5", "second");
    expect(b.spentUsd()).toBe("5");
  });

  it("negative cases keep at most their room committed; refused ones give it back; the plan keeps the rest", () => {
    const b = new Budget(100, () => 0, 40);
    // refused at once (released): the room is whole again
    b.charge("35", "case A", { negative: true })();
    // accepted: its commitment stays, and the next case no longer fits the room
    b.charge("35", "case B", { negative: true });
    expect(() => b.charge("35", "case C", { negative: true })).toThrow(/room of \$40/);
    expect(b.commitments.at(-1)).toMatchObject({ what: "case B", negative: true, released: false });
    // the plan's own commitments still have the limit less what is held
    b.charge("60", "a planned run");
    expect(() => b.charge("6", "one more")).toThrow(/\$95 of \$100 is committed/);
    expect(b.spentUsd()).toBe("95");
  });

  it("without a room, only the limit bounds negative cases", () => {
    const b = new Budget(100);
    b.charge("60", "case A", { negative: true });
    expect(() => b.charge("60", "case B", { negative: true })).toThrow(/\$60 of \$100/);
  });
});
