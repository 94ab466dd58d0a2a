import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { ManualClock } from "../src/platform/clock.ts";
import { coerceQuery } from "../src/platform/query-coercion.ts";
import { KEYS } from "./helpers.ts";

describe("fixtures", () => {
  const boot = () => createApp({ clock: new ManualClock(), rateLimitPerSecond: 1000, logger: () => {} });

  it("every demo key resolves; account A is Pro with two seats, B is Starter", async () => {
    const { app } = boot();
    const me = async (key: string) =>
      (await (await app.request("/v1/me", { headers: { "x-api-key": key } })).json()) as any;
    const a1 = await me(KEYS.aOwner);
    const a2 = await me(KEYS.aMember);
    const b = await me(KEYS.bOwner);
    expect(a1.data.plan.type).toBe("monthly"); // D-PLAN-TYPE: the billing kind, not the plan name
    expect(a1.data.account_id).toBe(a2.data.account_id);
    expect(a1.data.id).not.toBe(a2.data.id);
    expect(b.data.plan.type).toBe("monthly");
    expect((await me(KEYS.poor)).data.usage.balance).toBeLessThan(1000 * 0.049);
  });

  it("seeds datasets with completed runs and charges them like any run", async () => {
    const { app, ledger } = boot();
    const list = (await (await app.request("/v1/datasets", { headers: { "x-api-key": KEYS.aOwner } })).json()) as any;
    expect(list.data.length).toBeGreaterThanOrEqual(2);
    for (const d of list.data) {
      expect(d.mentions_count).toBeGreaterThan(0);
      const runs = (await (
        await app.request(`/v1/datasets/${d.id}/runs`, { headers: { "x-api-key": KEYS.aOwner } })
      ).json()) as any;
      expect(runs.data.every((r: any) => r.status.type === "completed" && r.status.steps.length === 3)).toBe(true);
    }
    expect(ledger.balance("acc_demoA").plus(ledger.charged("acc_demoA")).toFixed(6)).toBe("178.000000");
    const mentions = (await (
      await app.request("/v1/mentions", { method: "POST", headers: { "x-api-key": KEYS.aOwner }, body: "{}" })
    ).json()) as any;
    expect(mentions.data.length).toBe(20);
  });
});

describe("query coercion", () => {
  it("coerces by the parameter schema and leaves unparsable text for zod", () => {
    const types = new Map<string, any>([
      ["i", { type: "integer" }],
      ["n", { type: "number" }],
      ["b", { type: "boolean" }],
      ["a", { type: "array", items: { type: "integer" } }],
      ["s", { type: "string" }],
    ]);
    expect(coerceQuery({ i: ["12"], n: ["1.5"], b: ["true"], a: ["1,2", "3"], s: ["007"] }, types)).toEqual({
      i: 12,
      n: 1.5,
      b: true,
      a: [1, 2, 3],
      s: "007",
    });
    expect(coerceQuery({ i: ["1e3"], n: ["abc"], b: ["yes"], a: ["x"], other: ["v"] }, types)).toEqual({
      i: "1e3",
      n: "abc",
      b: "yes",
      a: ["x"],
      other: "v",
    });
    expect(coerceQuery({ i: ["1", "2"] }, types)).toEqual({ i: ["1", "2"] });
  });
});
