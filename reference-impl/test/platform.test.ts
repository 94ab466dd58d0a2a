import { describe, expect, it } from "vitest";
import { KEYS, makeApp } from "./helpers.ts";

describe("auth", () => {
  it("401 unauthorized without a key, with no rate-limit headers", async () => {
    const t = makeApp();
    const res = await t.call("GET", "/v1/datasets", { key: null });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({
      status: "client_error",
      error_code: "unauthorized",
      detail: expect.any(String),
      transient: false,
    });
    expect(res.headers.get("RateLimit-Limit")).toBeNull();
  });

  it("401 for an unknown key and for a key differing in one character", async () => {
    const t = makeApp();
    expect((await t.call("GET", "/v1/me", { key: "sl_test_nope" })).status).toBe(401);
    const near = KEYS.aOwner.slice(0, -1) + (KEYS.aOwner.endsWith("a") ? "b" : "a");
    expect((await t.call("GET", "/v1/me", { key: near })).status).toBe(401);
  });

  it("resolves the key to its account and seat", async () => {
    const t = makeApp();
    const owner = await t.call("GET", "/v1/me", { key: KEYS.aOwner });
    const member = await t.call("GET", "/v1/me", { key: KEYS.aMember });
    expect(owner.json.data.account_id).toBe("acc_demoA");
    expect(owner.json.data.id).toBe("usr_a_owner");
    expect(member.json.data.account_id).toBe("acc_demoA");
    expect(member.json.data.id).toBe("usr_a_member");
  });

  it("stores only SHA-256 digests of keys", async () => {
    const { readFileSync } = await import("node:fs");
    const accounts = readFileSync(new URL("../../fixtures/accounts.json", import.meta.url), "utf8");
    for (const key of Object.values(KEYS)) expect(accounts).not.toContain(key);
  });
});

describe("rate limit", () => {
  it("allows 5 requests per second per key, then 429 with Retry-After and retry_after_seconds", async () => {
    const t = makeApp({ rateLimitPerSecond: undefined });
    await t.clock.advance(250); // 750 ms left in this window
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.call("GET", "/v1/datasets");
      expect(res.status).toBe(200);
      expect(res.headers.get("RateLimit-Limit")).toBe("5");
      remaining.push(res.headers.get("RateLimit-Remaining")!);
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
    const over = await t.call("GET", "/v1/datasets");
    expect(over.status).toBe(429);
    expect(over.json).toEqual({
      status: "client_error",
      error_code: "too_many_requests",
      detail: expect.any(String),
      transient: true,
      retry_after_seconds: 0.75,
    });
    expect(over.headers.get("Retry-After")).toBe("1");
    expect(over.headers.get("RateLimit-Remaining")).toBe("0");
    // Another key has its own bucket.
    expect((await t.call("GET", "/v1/datasets", { key: KEYS.aMember })).status).toBe(200);
    // The next window admits requests again.
    await t.clock.advance(750);
    expect((await t.call("GET", "/v1/datasets")).status).toBe(200);
  });

  it("carries RateLimit headers on authenticated errors too", async () => {
    const t = makeApp({ rateLimitPerSecond: 3 });
    const res = await t.call("GET", "/v1/datasets/ds_missing");
    expect(res.status).toBe(404);
    expect(res.headers.get("RateLimit-Limit")).toBe("3");
    expect(res.headers.get("RateLimit-Remaining")).toBe("2");
    expect(res.headers.get("RateLimit-Reset")).toBe("1");
    const bad = await t.call("GET", "/v1/datasets?limit=0");
    expect(bad.status).toBe(422);
    expect(bad.headers.get("RateLimit-Remaining")).toBe("1");
  });

  it("is configurable per server start", async () => {
    const t = makeApp({ rateLimitPerSecond: 2 });
    expect((await t.call("GET", "/v1/me")).status).toBe(200);
    expect((await t.call("GET", "/v1/me")).status).toBe(200);
    expect((await t.call("GET", "/v1/me")).status).toBe(429);
  });
});

describe("errors", () => {
  it("unknown routes answer the 404 not_found envelope", async () => {
    const t = makeApp();
    for (const path of ["/nope", "/v1/nope", "/v1/credit_prices"]) {
      const res = await t.call("GET", path);
      expect(res.status).toBe(404);
      expect(res.json).toEqual({
        status: "client_error",
        error_code: "not_found",
        detail: expect.any(String),
        transient: false,
      });
    }
  });

  it("an unknown /v1 route still carries the RateLimit headers of an authenticated response", async () => {
    const t = makeApp();
    const res = await t.call("GET", "/v1/credit_prices");
    expect(res.status).toBe(404);
    expect(res.headers.get("RateLimit-Limit")).toBe("10000");
    expect(res.headers.get("RateLimit-Remaining")).not.toBeNull();
    expect(res.headers.get("RateLimit-Reset")).not.toBeNull();
  });

  it("an unexpected fault is a transient 500, logged without the key", async () => {
    const logs: string[] = [];
    const t = makeApp({ logger: (entry) => logs.push(JSON.stringify(entry)) });
    t.app.get("/v1/boom", () => {
      throw new Error("kaboom");
    });
    const res = await t.call("GET", "/v1/boom");
    expect(res.status).toBe(500);
    expect(res.json).toEqual({
      status: "server_error",
      error_code: "internal_server_error",
      detail: expect.any(String),
      transient: true,
    });
    expect(logs.length).toBe(1);
    expect(logs[0]).toContain("kaboom");
    expect(logs[0]).not.toContain(KEYS.aOwner);
  });
});

describe("docs", () => {
  it("serves /openapi.json and /docs without a key, with no CDN", async () => {
    const t = makeApp();
    const doc = await t.call("GET", "/openapi.json", { key: null });
    expect(doc.status).toBe(200);
    expect(doc.json.openapi).toMatch(/^3\.1/);
    expect(doc.json.info.version).toBe("0.1.0");
    const page = await t.call("GET", "/docs", { key: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain("swagger-ui-bundle.js");
    expect(page.text).not.toMatch(/https?:\/\//);
    const js = await t.call("GET", "/docs/swagger-ui-bundle.js", { key: null });
    expect(js.status).toBe(200);
    expect(js.text.length).toBeGreaterThan(100_000);
  });
});
