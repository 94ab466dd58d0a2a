// The MCP endpoint at the HTTP level, with raw requests where the SDK client
// would hide the rule (it follows 307s and turns 401/429 into exceptions):
// 307 before auth, Host/Origin guard, 401 with the metadata challenge and the
// document, the order of credentials, the plan gate, 405, body guards, and
// the rate-limit bucket shared with REST.
import { afterEach, describe, expect, it } from "vitest";
import { zMcpProtectedResourceMetadata } from "../../generated/client/zod.gen.ts";
import { PLANS } from "../src/platform/billing/plans.ts";
import { KEYS, makeApp } from "./helpers.ts";
import { connect, dataOf, raw, rawCall, TOKENS } from "./mcp-helpers.ts";

const METADATA = "http://localhost/.well-known/oauth-protected-resource/mcp/";
const initialize = {
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

describe("routing before credentials", () => {
  it("answers /mcp with 307 to a relative Location resolving to /mcp/, before any credential check", async () => {
    const t = makeApp();
    for (const auth of [{}, { key: "sl_test_wrong" }, { key: KEYS.aOwner }]) {
      for (const method of ["POST", "GET"]) {
        const res = await raw(t, { path: "/mcp", method, auth, rpc: initialize });
        expect(res.status).toBe(307);
        const location = res.headers.get("location")!;
        expect(location).not.toMatch(/^https?:/);
        expect(new URL(location, "http://localhost/mcp").pathname).toBe("/mcp/");
        expect(res.headers.get("ratelimit-limit")).toBeNull();
      }
    }
  });

  it("refuses a foreign Origin or Host with 403 (DNS rebinding) and accepts loopback ones", async () => {
    const t = makeApp();
    const foreignOrigin = await raw(t, {
      auth: { key: KEYS.aOwner },
      headers: { origin: "https://evil.example" },
      rpc: initialize,
    });
    expect(foreignOrigin.status).toBe(403);
    expect(foreignOrigin.json.error.code).toBe(-32000);
    const rebound = await raw(t, {
      auth: { key: KEYS.aOwner },
      headers: { host: "evil.example:3000", origin: "http://evil.example:3000" },
      rpc: initialize,
    });
    expect(rebound.status).toBe(403);
    const local = await raw(t, {
      auth: { key: KEYS.aOwner },
      headers: { host: "127.0.0.1:3000", origin: "http://localhost:6274" },
      rpc: initialize,
    });
    expect(local.status).toBe(200);
    const configured = makeApp({ mcp: { allowedHosts: ["mcp.example.com"] } });
    const named = await raw(configured, {
      auth: { key: KEYS.aOwner },
      headers: { host: "mcp.example.com", origin: "https://mcp.example.com" },
      rpc: initialize,
    });
    expect(named.status).toBe(200);
  });
});

describe("credentials", () => {
  it("401 without credentials: REST body, quoted resource_metadata challenge, no RateLimit headers", async () => {
    const t = makeApp();
    for (const rpc of [
      initialize,
      { method: "tools/list" },
      { method: "tools/call", params: { name: "svc__get_me", arguments: {} } },
    ]) {
      const res = await raw(t, { rpc });
      expect(res.status).toBe(401);
      expect(res.json).toEqual({
        status: "client_error",
        error_code: "unauthorized",
        detail: expect.any(String),
        transient: false,
      });
      expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${METADATA}"`);
      expect(res.headers.get("ratelimit-limit")).toBeNull();
    }
  });

  it("serves the RFC 9728 metadata with and without the trailing slash and at the root, without credentials", async () => {
    const t = makeApp();
    const docs = [];
    for (const path of [
      "/.well-known/oauth-protected-resource/mcp/",
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
    ]) {
      const res = await t.app.request(`http://localhost${path}`);
      expect(res.status).toBe(200);
      docs.push(zMcpProtectedResourceMetadata.parse(await res.json()));
    }
    expect(docs[0]).toMatchObject({ resource: "http://localhost/mcp/", authorization_servers: ["http://localhost"] });
    expect(docs[1]).toEqual(docs[0]);
    expect(docs[2]).toEqual(docs[0]);
  });

  it("checks x-api-key first, falls back to the bearer token, and never lets a bad key shadow a good token", async () => {
    const t = makeApp();
    const me = async (auth: { key?: string; bearer?: string }) => {
      const res = await rawCall(t, "svc__get_me", {}, auth);
      return res.status === 200
        ? `${res.json.result.structuredContent.account_id}/${res.json.result.structuredContent.id}`
        : res.status;
    };
    expect(await me({ key: KEYS.aOwner })).toBe("acc_demoA/usr_a_owner");
    expect(await me({ bearer: TOKENS.aMember })).toBe("acc_demoA/usr_a_member");
    expect(await me({ key: "sl_test_not_a_key", bearer: TOKENS.aMember })).toBe("acc_demoA/usr_a_member");
    expect(await me({ key: KEYS.bOwner, bearer: TOKENS.aOwner })).toBe("acc_demoB/usr_b_owner");
    expect(await me({ key: KEYS.aOwner, bearer: "not-a-token" })).toBe("acc_demoA/usr_a_owner");
    expect(await me({ key: "sl_test_not_a_key" })).toBe(401);
    expect(await me({ bearer: "not-a-token" })).toBe(401);
    // A bearer token is an MCP credential only.
    expect((await t.app.request("/v1/me", { headers: { authorization: `Bearer ${TOKENS.aOwner}` } })).status).toBe(401);
  });

  it("the SDK client connects with a bearer token alone", async () => {
    const t = makeApp();
    const client = await connect(t, { bearer: TOKENS.bOwner });
    expect(dataOf(await client.callTool({ name: "svc__get_me", arguments: {} })).account_id).toBe("acc_demoB");
  });

  describe("a plan without the mcp feature", () => {
    const saved = PLANS.starter.features.mcp;
    afterEach(() => {
      PLANS.starter.features.mcp = saved;
    });
    it("is 401 unauthorized over MCP for key and token alike, while REST still serves the key", async () => {
      const t = makeApp();
      PLANS.starter.features.mcp = false;
      for (const auth of [{ key: KEYS.bOwner }, { bearer: TOKENS.bOwner }]) {
        const res = await rawCall(t, "svc__get_me", {}, auth);
        expect(res.status).toBe(401);
        expect(res.json).toMatchObject({ error_code: "unauthorized", transient: false });
        expect(res.json.detail).toContain("MCP");
      }
      expect((await t.call("GET", "/v1/me", { key: KEYS.bOwner })).status).toBe(200);
      expect((await rawCall(t, "svc__get_me", {}, { key: KEYS.aOwner })).status).toBe(200);
    });
  });
});

describe("methods and bodies", () => {
  it("answers GET and DELETE with 405 and Allow: POST (after credentials, counted by the rate limit)", async () => {
    const t = makeApp();
    for (const method of ["GET", "DELETE"]) {
      const res = await raw(t, { method, auth: { key: KEYS.aOwner } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(res.headers.get("ratelimit-limit")).not.toBeNull();
    }
    expect((await raw(t, { method: "GET" })).status).toBe(401);
  });

  it("refuses an oversized body with 413 and a non-JSON body with 415, in the REST envelope", async () => {
    const t = makeApp();
    // app.request sends no Content-Length of its own; a socket client always does.
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(1024 * 1024) } });
    const big = await raw(t, {
      auth: { key: KEYS.aOwner },
      headers: { "content-length": String(Buffer.byteLength(body)) },
      body,
    });
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ error_code: "payload_too_large" });
    const text = await raw(t, {
      auth: { key: KEYS.aOwner },
      headers: { "content-type": "text/plain", "content-length": "4" },
      body: "ping",
    });
    expect(text.status).toBe(415);
    expect(text.json).toMatchObject({ error_code: "unsupported_media_type" });
    // Without a declared length the transport still stops reading past the same limit.
    expect((await raw(t, { auth: { key: KEYS.aOwner }, body })).status).toBe(413);
  });
});

describe("answer forms", () => {
  it("answers quick calls with one JSON body and the get_message long poll with an SSE stream; malformed JSON is a -32700", async () => {
    const t = makeApp();
    const me = await rawCall(t, "svc__get_me", {}, { key: KEYS.aOwner });
    expect(me.headers.get("content-type")).toContain("application/json");
    const asked = (await rawCall(t, "svc__ask", { prompt: "Oat milk?" }, { key: KEYS.aOwner })).json.result
      .structuredContent;
    await t.clock.runAll();
    const polled = await rawCall(
      t,
      "svc__get_message",
      { chat_id: asked.chat_id, message_id: asked.message_id },
      { key: KEYS.aOwner },
    );
    expect(polled.headers.get("content-type")).toContain("text/event-stream");
    for (const answer of [me, polled]) expect(answer.headers.get("ratelimit-limit")).not.toBeNull();
    expect(polled.json.result.structuredContent.status).toBe("completed");
    const broken = await raw(t, { auth: { key: KEYS.aOwner }, body: "{not json" });
    expect(broken.status).toBe(400);
    expect(broken.json.error.code).toBe(-32700);
  });
});

describe("the rate limit shared with REST", () => {
  it("a REST burst empties the key's bucket, the next MCP call is a 429 transport error with the REST body; a second later MCP works", async () => {
    const t = makeApp({ rateLimitPerSecond: 5 });
    for (let i = 0; i < 5; i++) expect((await t.call("GET", "/v1/prices")).status).toBe(200);
    const limited = await rawCall(t, "svc__get_me", {}, { key: KEYS.aOwner });
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({
      status: "client_error",
      error_code: "too_many_requests",
      detail: expect.any(String),
      transient: true,
      retry_after_seconds: expect.any(Number),
    });
    expect(Number(limited.headers.get("retry-after"))).toBe(Math.ceil(limited.json.retry_after_seconds));
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    await t.clock.advance(Number(limited.headers.get("retry-after")) * 1000);
    const after = await rawCall(t, "svc__get_me", {}, { key: KEYS.aOwner });
    expect(after.status).toBe(200);
    expect(after.headers.get("ratelimit-limit")).toBe("5");
    expect(after.headers.get("ratelimit-remaining")).toBe("4");
    // The next REST call sees the MCP call in the same bucket.
    expect((await t.call("GET", "/v1/prices")).headers.get("ratelimit-remaining")).toBe("3");
  });

  it("every HTTP request to /mcp/ counts, notifications included; a bearer token has its own bucket", async () => {
    const t = makeApp({ rateLimitPerSecond: 5 });
    const remaining: string[] = [];
    remaining.push((await raw(t, { auth: { key: KEYS.aOwner }, rpc: initialize })).headers.get("ratelimit-remaining")!);
    remaining.push(
      (
        await raw(t, {
          auth: { key: KEYS.aOwner },
          body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
        })
      ).headers.get("ratelimit-remaining")!,
    );
    remaining.push(
      (await raw(t, { auth: { key: KEYS.aOwner }, rpc: { method: "tools/list" } })).headers.get("ratelimit-remaining")!,
    );
    expect(remaining).toEqual(["4", "3", "2"]);
    await raw(t, { auth: { key: KEYS.aOwner } });
    await raw(t, { auth: { key: KEYS.aOwner } });
    expect((await raw(t, { auth: { key: KEYS.aOwner } })).status).toBe(429);
    const viaToken = await rawCall(t, "svc__get_me", {}, { bearer: TOKENS.aOwner });
    expect(viaToken.status).toBe(200);
    expect(viaToken.headers.get("ratelimit-remaining")).toBe("4");
  });

  it("an SDK client's connect costs three HTTP requests (initialize, initialized, the refused GET stream)", async () => {
    const t = makeApp({ rateLimitPerSecond: 5 });
    await connect(t, { key: KEYS.aOwner });
    expect((await t.call("GET", "/v1/prices")).headers.get("ratelimit-remaining")).toBe("1");
  });
});
