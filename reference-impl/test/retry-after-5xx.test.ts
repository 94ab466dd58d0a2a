// D-RETRY-5XX: every 5xx whose body says `transient: true` carries a
// `Retry-After` in whole seconds: the assistant's 503 and 504, an injected
// 500, and a real unhandled fault.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { errorRenderer, RETRY_AFTER_5XX } from "../src/platform/errors.ts";
import { KEYS, makeApp } from "./helpers.ts";

describe("Retry-After on transient 5xx", () => {
  it("the assistant's 503 and 504 carry it", async () => {
    const t = makeApp();
    for (const [phrase, status] of [
      ["#simulate:ai_assistant_unavailable", 503],
      ["#simulate:ai_assistant_timeout", 504],
    ] as const) {
      const res = await t.call("POST", "/v1/ask", { body: { message: `Oat milk trends ${phrase}` } });
      expect(res.status).toBe(status);
      expect(res.json.transient).toBe(true);
      expect(res.headers.get("retry-after")).toBe(String(RETRY_AFTER_5XX[status]));
    }
  });

  it("an injected 500 carries it, with its rate-limit headers", async () => {
    const t = makeApp();
    const res = await t.app.request("/v1/datasets", { headers: { "x-api-key": KEYS.aOwner, prefer: "fault=500" } });
    expect(res.status).toBe(500);
    expect((await res.json()).transient).toBe(true);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("ratelimit-limit")).not.toBeNull();
  });

  it("an unhandled fault is a transient 500 with it", async () => {
    const app = new Hono();
    app.onError(errorRenderer(() => {}));
    app.get("/boom", () => {
      throw new Error("boom");
    });
    const res = await app.request("/boom");
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error_code: "internal_server_error", transient: true });
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("a 4xx does not carry it, except the 429 (which has its own)", async () => {
    const t = makeApp();
    const res = await t.call("GET", "/v1/datasets/ds_missing");
    expect(res.status).toBe(404);
    expect(res.headers.get("retry-after")).toBeNull();
  });
});
