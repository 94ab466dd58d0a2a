// Latency (D-REF-LATENCY): seeded, deterministic delays applied after the answer is
// decided, only on /v1 (never /health or /openapi.json), and a per-request
// `Prefer: delay=N` honoured only when enabled. These tests wait on real
// timers of a few hundred ms at most and compare lower bounds only (never an
// upper bound: the machine is shared). Throughput across tenants is measured
// by bench/latency-tenants.ts, not asserted here.
import { describe, expect, it } from "vitest";
import { readConfig } from "../src/config.ts";
import { LatencyDraw, parseLatency } from "../src/platform/latency.ts";
import { KEYS, makeApp } from "./helpers.ts";

const timed = async (fn: () => unknown) => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};

describe("latency", () => {
  it("parses the three forms and rejects anything else with one line", () => {
    expect(parseLatency("50")).toEqual({ ok: true, spec: { kind: "fixed", ms: 50 } });
    expect(parseLatency("50-400")).toEqual({ ok: true, spec: { kind: "range", min: 50, max: 400 } });
    expect(parseLatency("lognormal:120,0.5")).toEqual({
      ok: true,
      spec: { kind: "lognormal", median: 120, sigma: 0.5 },
    });
    for (const bad of ["fast", "400-50", "-5", "lognormal:0,1", "99999999"]) expect(parseLatency(bad).ok).toBe(false);
    const read = readConfig({}, ["--latency", "50-400", "--seed", "9", "--prefer-delay"]);
    expect(read.ok && read.config.latency).toEqual({ kind: "range", min: 50, max: 400 });
    expect(read.ok && read.config.preferDelay).toBe(true);
    expect(readConfig({ LATENCY: "slow" })).toMatchObject({ ok: false, errors: [expect.stringMatching(/^LATENCY=/)] });
  });

  it("draws are seeded: the same seed gives the same sequence, within the range", () => {
    const seq = (seed: number) => {
      const d = new LatencyDraw({ kind: "range", min: 50, max: 400 }, seed);
      return Array.from({ length: 50 }, () => d.next());
    };
    expect(seq(3)).toEqual(seq(3));
    expect(seq(3)).not.toEqual(seq(4));
    for (const v of seq(3)) expect(v >= 50 && v <= 400).toBe(true);
  });

  it("lognormal draws centre on the median", () => {
    const d = new LatencyDraw({ kind: "lognormal", median: 120, sigma: 0.5 }, 1);
    const values = Array.from({ length: 4001 }, () => d.next()).sort((a, b) => a - b);
    const median = values[2000]!;
    expect(median).toBeGreaterThan(110);
    expect(median).toBeLessThan(130);
  });

  it("delays /v1 answers, never /health or /openapi.json, and decides the answer before waiting", async () => {
    const t = makeApp({ latency: { spec: { kind: "fixed", ms: 600 } } });
    expect(
      await timed(() => t.app.request("/v1/me", { headers: { "x-api-key": KEYS.aOwner } })),
    ).toBeGreaterThanOrEqual(590);
    // A 401 is delayed too: the client cannot tell a slow network by status.
    expect(await timed(() => t.app.request("/v1/me"))).toBeGreaterThanOrEqual(590);
    let fast = Infinity;
    for (let i = 0; i < 3; i++)
      fast = Math.min(
        fast,
        await timed(() => t.app.request("/health")),
        await timed(() => t.app.request("/openapi.json")),
      );
    expect(fast).toBeLessThan(500);

    // The dataset exists while its answer is still waiting on the timer.
    const pending = t.app.request("/v1/datasets", {
      method: "POST",
      headers: { "x-api-key": KEYS.aOwner, "content-type": "application/json" },
      body: JSON.stringify({ name: "Decided first" }),
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(t.services.datasets.live("acc_demoA").some((d) => d.name === "Decided first")).toBe(true);
    expect((await pending).status).toBe(201);
  });

  it("Prefer: delay=N is ignored unless enabled, then replaces the drawn delay", async () => {
    const off = makeApp();
    expect(
      await timed(() => off.app.request("/v1/me", { headers: { "x-api-key": KEYS.aOwner, prefer: "delay=5000" } })),
    ).toBeLessThan(4000);
    const on = makeApp({ latency: { preferDelay: true } });
    expect(
      await timed(() => on.app.request("/v1/me", { headers: { "x-api-key": KEYS.aOwner, prefer: "delay=300" } })),
    ).toBeGreaterThanOrEqual(290);
  });
});
