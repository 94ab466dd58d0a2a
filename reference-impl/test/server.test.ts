// Hardening on a real socket: the answers Node's HTTP layer gives before the
// app (431, 400, 408, 417) carry the error envelope, a trickling client is
// cut off by the request timeout, and a taken port is one clear message.
// The server binds 127.0.0.1 on a free port and is closed by the test.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { readConfig, type ServerConfig } from "../src/config.ts";
import { createLogger } from "../src/platform/request-log.ts";
import { startServer, type RunningServer } from "../src/server.ts";
import { KEYS } from "./helpers.ts";

const lines: Record<string, unknown>[] = [];
const quietLog = createLogger({
  destination: new Writable({
    write(chunk, _e, done) {
      for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  }),
});

function config(overrides: Record<string, string> = {}): ServerConfig {
  const read = readConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    HEADERS_TIMEOUT_MS: "1000",
    REQUEST_TIMEOUT_MS: "1000",
    ...overrides,
  });
  if (!read.ok) throw new Error(read.errors.join("; "));
  return read.config;
}

/** Write raw bytes, collect everything until the server closes (bounded by `limitMs`). */
function raw(port: number, write: (socket: net.Socket) => void, limitMs = 10_000): Promise<string> {
  return new Promise((resolve) => {
    let out = "";
    const socket = net.connect(port, "127.0.0.1", () => write(socket));
    socket.on("data", (d) => (out += d));
    socket.on("error", () => {});
    socket.on("close", () => resolve(out));
    setTimeout(() => {
      socket.destroy();
      resolve(out);
    }, limitMs).unref();
  });
}

function envelope(response: string) {
  const [head, body] = response.split("\r\n\r\n");
  return { statusLine: head!.split("\r\n")[0], headers: head!.toLowerCase(), body: JSON.parse(body!) };
}

let running: RunningServer;
let port: number;

beforeAll(async () => {
  // A generous rate limit: these tests send a few requests per second with one key.
  running = await startServer(config({ RATE_LIMIT_RPS: "1000" }), quietLog);
  port = Number(new URL(running.url).port);
});
afterAll(async () => {
  await running.close();
});

describe("transport answers (D-TRANSPORT-ERRORS)", () => {
  it("answers headers over 16 KiB with 431 and the envelope", async () => {
    const res = envelope(
      await raw(port, (s) => s.write(`GET /v1/prices HTTP/1.1\r\nHost: x\r\nx-big: ${"a".repeat(20_000)}\r\n\r\n`)),
    );
    expect(res.statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(res.headers).toContain("content-type: application/json");
    expect(res.body).toEqual({
      status: "client_error",
      error_code: "request_header_fields_too_large",
      detail: expect.any(String),
      transient: false,
    });
  });

  it("answers a request that is not HTTP with 400 bad_request", async () => {
    const res = envelope(await raw(port, (s) => s.write("GARBAGE\r\n\r\n")));
    expect(res.statusLine).toMatch(/^HTTP\/1.1 400/);
    expect(res.body.error_code).toBe("bad_request");
  });

  it("answers an unsupported Expect with 417 expectation_failed", async () => {
    const res = envelope(
      await raw(port, (s) =>
        s.write(`GET /v1/prices HTTP/1.1\r\nHost: x\r\nx-api-key: ${KEYS.aOwner}\r\nExpect: tea\r\n\r\n`),
      ),
    );
    expect(res.statusLine).toMatch(/^HTTP\/1.1 417/);
    expect(res.body.error_code).toBe("expectation_failed");
  });

  it("cuts off a client that trickles its body, with 408 request_timeout", async () => {
    let timer: NodeJS.Timeout | undefined;
    const out = await raw(port, (s) => {
      s.write(
        `POST /v1/mentions HTTP/1.1\r\nHost: x\r\nx-api-key: ${KEYS.aOwner}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{`,
      );
      timer = setInterval(() => s.writable && s.write(" "), 200);
    });
    clearInterval(timer);
    const res = envelope(out);
    expect(res.statusLine).toMatch(/^HTTP\/1.1 408/);
    expect(res.body).toMatchObject({ error_code: "request_timeout", transient: true });
  });

  it("logs an abandoned request as one short line, without a stack", async () => {
    await raw(
      port,
      (s) => {
        s.write(
          `POST /v1/mentions HTTP/1.1\r\nHost: x\r\nx-api-key: ${KEYS.aOwner}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"q":`,
        );
        setTimeout(() => s.destroy(), 50);
      },
      2000,
    );
    // The server notices the hang-up on its own schedule; wait for its line, bounded.
    for (let i = 0; i < 100 && !lines.some((l) => l.msg === "request aborted"); i++)
      await new Promise((r) => setTimeout(r, 20));
    quietLog.flush();
    expect(lines.filter((l) => l.msg === "request aborted").length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(lines)).not.toMatch(/stack|    at /);
  });
});

describe("platform headers on a real socket (throughput)", () => {
  // On Node the rate limiter writes its headers onto the ServerResponse, and
  // the key is read from Node's parsed headers: both paths exist only on a
  // socket, never through app.request().
  const rateHeaders = (res: Response) =>
    ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].map((h) => res.headers.get(h));

  it("stamps RateLimit-* on a success, with the remaining count going down", async () => {
    const first = await fetch(`${running.url}/v1/datasets`, { headers: { "x-api-key": KEYS.bOwner } });
    const second = await fetch(`${running.url}/v1/datasets`, { headers: { "x-api-key": KEYS.bOwner } });
    expect(first.status).toBe(200);
    const [limit, remaining1, reset] = rateHeaders(first);
    expect(Number(limit)).toBeGreaterThan(0);
    expect(Number(reset)).toBeGreaterThanOrEqual(1);
    // Same one-second window (or a fresh one): never more left after a request.
    expect(Number(rateHeaders(second)[1])).toBeLessThanOrEqual(Number(limit) - 1);
    expect(first.headers.get("content-type")).toMatch(/^application\/json/);
    expect(remaining1).not.toBeNull();
  });

  it("keeps RateLimit-* on an error answered after the limiter, and on an unknown /v1 route", async () => {
    const missing = await fetch(`${running.url}/v1/datasets/ds_doesnotexist`, {
      headers: { "x-api-key": KEYS.bOwner },
    });
    expect(missing.status).toBe(404);
    expect(rateHeaders(missing).every((v) => v !== null)).toBe(true);
    expect((await missing.json()).error_code).toBeDefined();
    const unknown = await fetch(`${running.url}/v1/no_such_route`, { headers: { "x-api-key": KEYS.bOwner } });
    expect(unknown.status).toBe(404);
    expect(rateHeaders(unknown).every((v) => v !== null)).toBe(true);
  });

  it("reads the key from Node's headers: a repeated x-api-key is refused like any unknown key", async () => {
    const res = await raw(port, (s) =>
      s.write(
        `GET /v1/datasets HTTP/1.1\r\nHost: x\r\nx-api-key: ${KEYS.bOwner}\r\nx-api-key: ${KEYS.bOwner}\r\nConnection: close\r\n\r\n`,
      ),
    );
    expect(res).toMatch(/^HTTP\/1.1 401/);
    expect(res.toLowerCase()).not.toContain("ratelimit-limit");
  });

  it("stamps RateLimit-* on MCP answers, the SDK's own Response and the quick path alike", async () => {
    const mcp = (body: object) =>
      fetch(`${running.url}/mcp/`, {
        method: "POST",
        headers: {
          "x-api-key": KEYS.bOwner,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(body),
      });
    const list = await mcp({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const call = await mcp({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "svc__get_me", arguments: {} },
    });
    for (const res of [list, call]) {
      expect(res.status).toBe(200);
      expect(rateHeaders(res).every((v) => v !== null)).toBe(true);
      expect((await res.json()).result).toBeDefined();
    }
  });

  it("logs one line per request with method, path, status and account, never the key", async () => {
    await fetch(`${running.url}/v1/datasets?limit=1`, { headers: { "x-api-key": KEYS.bOwner } });
    await new Promise<void>((resolve) => quietLog.flush(() => resolve()));
    const line = lines.findLast((l) => l.msg === "request" && l.path === "/v1/datasets");
    expect(line).toMatchObject({ method: "GET", status: 200, account: "acc_demoB" });
    expect(JSON.stringify(lines)).not.toContain(KEYS.bOwner);
  });
});

describe("starting", () => {
  it("reports a port in use as one sentence", async () => {
    const again = startServer(config({ PORT: String(port) }), quietLog);
    await expect(again).rejects.toThrow(new RegExp(`^PORT ${port} is already in use on 127.0.0.1`));
  });

  it("serves /openapi.json naming its own origin", async () => {
    const res = await fetch(`${running.url}/openapi.json`);
    expect((await res.json()).servers[0].url).toBe(running.url);
  });
});
