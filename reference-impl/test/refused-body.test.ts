// A body over 1 MiB gets a 413 the client can read, on a real socket, even
// when the client keeps sending (slowly) after the answer and only reads once
// it has sent everything: the server keeps reading and discarding the body
// instead of closing under the client (which would reset the connection and
// lose the answer: EPIPE on the client's writes). A body far past any
// reasonable size is still cut off, after the answer had time to arrive.
import net from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../src/config.ts";
import { createLogger } from "../src/platform/request-log.ts";
import { startServer, type RunningServer } from "../src/server.ts";
import { KEYS } from "./helpers.ts";

const quietLog = createLogger({
  destination: new Writable({
    write(_chunk, _e, done) {
      done();
    },
  }),
});

let running: RunningServer;
let port: number;

beforeAll(async () => {
  const read = readConfig({ PORT: "0", HOST: "127.0.0.1", RATE_LIMIT_RPS: "1000" });
  if (!read.ok) throw new Error(read.errors.join("; "));
  running = await startServer(read.config, quietLog);
  port = Number(new URL(running.url).port);
});
afterAll(() => running?.close());

interface Outcome {
  response: string;
  writeError?: string;
  socketError?: string;
}

/**
 * Send `head` then `total` body bytes in 64 KiB chunks every `everyMs`,
 * reading nothing until the last chunk is written (a naive client), then
 * wait for the answer or the close.
 */
function slowUpload(head: string, total: number, everyMs: number, after = "", chunked = false): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { response: "" };
    const socket = net.connect(port, "127.0.0.1");
    socket.pause();
    socket.on("error", (e: NodeJS.ErrnoException) => (outcome.socketError ??= e.code));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const finish = () => {
      if (chunked && !socket.destroyed) socket.write("0\r\n\r\n");
      if (after && !socket.destroyed) socket.write(after);
      socket.on("data", (d) => (outcome.response += d));
      socket.resume();
      setTimeout(() => {
        socket.destroy();
        resolve(outcome);
      }, 1500).unref();
    };
    const step = () => {
      if (socket.destroyed) return finish();
      if (sent >= total) return finish();
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      const piece = chunk.subarray(0, n);
      const framed = chunked
        ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), piece, Buffer.from("\r\n")])
        : piece;
      socket.write(framed, (e) => {
        if (e) outcome.writeError ??= (e as NodeJS.ErrnoException).code;
      });
      setTimeout(step, everyMs);
    };
    socket.on("connect", () => {
      socket.write(head);
      step();
    });
  });
}

const head = (method: string, path: string, length: number | "chunked") =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${KEYS.aOwner}\r\n` +
  `content-type: application/json\r\n` +
  (length === "chunked" ? "transfer-encoding: chunked\r\n\r\n" : `content-length: ${length}\r\n\r\n`);
const followUp = `GET /v1/prices HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${KEYS.aOwner}\r\n\r\n`;
const statuses = (response: string) => [...response.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));

describe("a refused body on a real socket", () => {
  it.each([
    ["POST", "/v1/mentions"],
    ["GET", "/v1/prices"],
    ["POST", "/mcp/"],
  ])("%s %s: 2 MiB sent slowly gets a readable 413, no EPIPE or reset", async (method, path) => {
    const size = 2 * 1024 * 1024;
    const out = await slowUpload(head(method, path, size), size, 40, followUp);
    expect(out.writeError).toBeUndefined();
    expect(out.socketError).toBeUndefined();
    expect(out.response.startsWith("HTTP/1.1 413")).toBe(true);
    expect(out.response).toContain('"error_code":"payload_too_large"');
    // The connection stays usable: the next request on it is answered.
    expect(statuses(out.response)).toEqual([413, 200]);
  });

  it("GET /v1/me with a text/plain body gets the documented 415 (D-GET-BODY), with RateLimit-*, and the connection still serves", async () => {
    const body = "hello";
    const request =
      `GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${KEYS.aOwner}\r\n` +
      `content-type: text/plain\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
    const out = await slowUpload(request, 0, 10, followUp);
    expect(out.socketError).toBeUndefined();
    expect(statuses(out.response)).toEqual([415, 200]);
    expect(out.response).toContain('"error_code":"unsupported_media_type"');
    expect(out.response.toLowerCase()).toContain("ratelimit-limit:");
  });

  it("a chunked body cut at the limit: the 413 is readable and the connection still serves", async () => {
    const size = 2 * 1024 * 1024;
    const out = await slowUpload(head("POST", "/v1/mentions", "chunked"), size, 20, followUp, true);
    expect(out.writeError).toBeUndefined();
    expect(out.socketError).toBeUndefined();
    expect(statuses(out.response)).toEqual([413, 200]);
  });

  it("a body that keeps coming far past the limit is cut after the answer went out", async () => {
    const declared = 1024 * 1024 * 1024;
    const result = await new Promise<{ response: string; sent: number; closed: boolean }>((resolve) => {
      let response = "";
      let sent = 0;
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.write(head("POST", "/v1/mentions", declared));
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        const pump = () => {
          while (!socket.destroyed && sent < declared) {
            sent += chunk.length;
            if (!socket.write(chunk)) return void socket.once("drain", pump);
          }
        };
        pump();
      });
      socket.on("data", (d) => (response += d));
      socket.on("error", () => {});
      socket.on("close", () => resolve({ response, sent, closed: true }));
      setTimeout(() => {
        socket.destroy();
        resolve({ response, sent, closed: false });
      }, 20_000).unref();
    });
    expect(result.response.startsWith("HTTP/1.1 413")).toBe(true);
    expect(result.closed).toBe(true);
    expect(result.sent).toBeLessThan(1024 * 1024 * 1024);
  }, 30_000);
});
