// Mutation harness, shard 1 (the harness itself is mutation-harness.ts): the
// WHOLE kit (every check, the whole contract) runs behind each single-rule
// fault and must fail the check the fault names; it runs behind each lenient
// control and must pass (with the lenient warning); and it passes behind the
// proxy with no fault. This file also holds the fault list's own rules.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { faults } from "../mutation/faults.ts";
import { MUTATION_SHARDS, mutationShard, shardOf } from "./mutation-harness.ts";

describe("mutation faults", () => {
  it("holds at least 100 distinct single-rule faults and a lenient control for each response-level lenient rule", () => {
    const real = faults.filter((f) => !f.control);
    expect(new Set(faults.map((f) => f.id)).size).toBe(faults.length);
    expect(real.length).toBeGreaterThanOrEqual(100);
    expect(faults.filter((f) => f.control).length).toBeGreaterThanOrEqual(2);
  });

  it("a shard file runs each shard, so every fault runs exactly once", () => {
    // a shard file is one that calls mutationShard(i); MUTATION_SHARDS must match them
    const dir = fileURLToPath(new URL(".", import.meta.url));
    const called = readdirSync(dir)
      .filter((f) => f.endsWith(".test.ts"))
      .flatMap((f) =>
        [...readFileSync(dir + f, "utf8").matchAll(/^mutationShard\((\d+)\);$/gm)].map((m) => Number(m[1])),
      );
    expect(called.sort()).toEqual(Array.from({ length: MUTATION_SHARDS }, (_, i) => i));
    const ids = called.flatMap((i) => shardOf(i).map((f) => f.id));
    expect(ids.sort()).toEqual(faults.map((f) => f.id).sort());
  });
});

mutationShard(0);
