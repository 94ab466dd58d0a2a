// Issue 11 on a real socket: the answers Node's HTTP layer gives before the
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
  const read = readConfig({ PORT: "0", HOST: "127.0.0.1", HEADERS_TIMEOUT_MS: "1000", REQUEST_TIMEOUT_MS: "1000", ...overrides });
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
  running = await startServer(config(), quietLog);
  port = Number(new URL(running.url).port);
});
afterAll(async () => {
  await running.close();
});

describe("transport answers (D-TRANSPORT-ERRORS)", () => {
  it("answers headers over 16 KiB with 431 and the envelope", async () => {
    const res = envelope(await raw(port, (s) => s.write(`GET /v1/prices HTTP/1.1\r\nHost: x\r\nx-big: ${"a".repeat(20_000)}\r\n\r\n`)));
    expect(res.statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(res.headers).toContain("content-type: application/json");
    expect(res.body).toEqual({ status: "client_error", error_code: "request_header_fields_too_large", detail: expect.any(String), transient: false });
  });

  it("answers a request that is not HTTP with 400 bad_request", async () => {
    const res = envelope(await raw(port, (s) => s.write("GARBAGE\r\n\r\n")));
    expect(res.statusLine).toMatch(/^HTTP\/1.1 400/);
    expect(res.body.error_code).toBe("bad_request");
  });

  it("answers an unsupported Expect with 417 expectation_failed", async () => {
    const res = envelope(await raw(port, (s) => s.write(`GET /v1/prices HTTP/1.1\r\nHost: x\r\nx-api-key: ${KEYS.aOwner}\r\nExpect: tea\r\n\r\n`)));
    expect(res.statusLine).toMatch(/^HTTP\/1.1 417/);
    expect(res.body.error_code).toBe("expectation_failed");
  });

  it("cuts off a client that trickles its body, with 408 request_timeout", async () => {
    let timer: NodeJS.Timeout | undefined;
    const out = await raw(port, (s) => {
      s.write(`POST /v1/mentions HTTP/1.1\r\nHost: x\r\nx-api-key: ${KEYS.aOwner}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{`);
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
        s.write(`POST /v1/mentions HTTP/1.1\r\nHost: x\r\nx-api-key: ${KEYS.aOwner}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"q":`);
        setTimeout(() => s.destroy(), 50);
      },
      2000,
    );
    // The server notices the hang-up on its own schedule; wait for its line, bounded.
    for (let i = 0; i < 100 && !lines.some((l) => l.msg === "request aborted"); i++) await new Promise((r) => setTimeout(r, 20));
    quietLog.flush();
    expect(lines.filter((l) => l.msg === "request aborted").length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(lines)).not.toMatch(/stack|    at /);
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
