// Throughput: Hono's SmartRouter keeps RegExpRouter only when every
// route shape fits it; one literal segment beside a parameter at the same
// place (e.g. /docs/init.js beside /docs/:asset) silently drops the whole app
// to the slower TrieRouter. These checks fail when such a route comes back,
// and pin down that the routes folded into a parameter answer as before.
import { describe, expect, it } from "vitest";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { makeApp } from "./helpers.ts";

describe("route shapes", () => {
  it("every registered route fits RegExpRouter, so SmartRouter keeps it", async () => {
    const { app } = makeApp();
    const router = new RegExpRouter<unknown>();
    const refused: string[] = [];
    for (const route of app.routes) {
      try {
        router.add(route.method, route.path, route.handler);
      } catch {
        refused.push(`${route.method} ${route.path}`);
      }
    }
    expect(refused).toEqual([]);
    await app.request("/health");
    expect(app.router.name).toBe("SmartRouter + RegExpRouter");
  });

  it("POST /v1/custom_parameters/preview still previews; another segment is the unknown route", async () => {
    const { call } = makeApp();
    const preview = await call("POST", "/v1/custom_parameters/preview", { body: {} });
    expect(preview.status).toBe(422);
    expect(preview.json.detail[0].loc[0]).toBe("body");
    const other = await call("POST", "/v1/custom_parameters/cp_nothing", { body: {} });
    expect(other.status).toBe(404);
    expect(other.json).toMatchObject({ error_code: "not_found", detail: "No such route." });
    expect(other.headers.get("RateLimit-Limit")).not.toBeNull();
  });

  it("/docs/init.js and the other assets answer from the one /docs/:asset route", async () => {
    const { app } = makeApp();
    const init = await app.request("/docs/init.js");
    expect(init.status).toBe(200);
    expect(init.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(await init.text()).toContain("SwaggerUIBundle");
    expect((await app.request("/docs/swagger-ui.css")).status).toBe(200);
    expect((await app.request("/docs/nothing.js")).status).toBe(404);
  });
});
