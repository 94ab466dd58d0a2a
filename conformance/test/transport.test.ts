// Connections a deployment closes must never turn into a finding of the next
// request. A plain node:http server on 127.0.0.1 plays the deployment and
// closes connections each way: `Connection: close` or a silent close right
// after an answer, an early 413 and a destroyed socket, a 1 s idle timeout, a
// reused connection dropped before its answer, an answer cut half-way. The
// server counts connections and requests, and how many requests each
// connection carried, so a test sees what the client reused, retried or
// opened anew. (undici spreads back-to-back requests over two connections, so
// a test waits for "a reused connection" rather than for "the second request".)
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Contract } from "../src/contract.ts";
import { HttpClient, TransportError, sleep, type Exchange } from "../src/http.ts";

/** Which request this is: of the server (from 1), and on its connection (1 = a fresh connection). */
type Nth = { request: number; onSocket: number };
type Handler = (req: IncomingMessage, res: ServerResponse, nth: Nth) => void;

interface Deployment {
  client: HttpClient;
  seen: { connections: number; requests: number; reused: number };
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

const contract = Contract.load();

/** A node:http server with its default settings unless `tune` changes them; the client's limit never makes it wait. */
async function deployment(handler: Handler, tune: (s: Server) => void = () => undefined): Promise<Deployment> {
  const seen = { connections: 0, requests: 0, reused: 0 };
  const perSocket = new WeakMap<Socket, number>();
  server = createServer((req, res) => {
    const onSocket = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, onSocket);
    if (onSocket > 1) seen.reused++;
    handler(req, res, { request: ++seen.requests, onSocket });
  });
  server.on("connection", () => seen.connections++);
  tune(server);
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new HttpClient({
    baseUrl,
    keys: { main: "sl_test_k" },
    contract,
    initialLimit: 1000,
    timeoutMs: 3000,
  });
  return { client, seen };
}

function ok(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ status: "success", data: {} }));
}

const get = (client: HttpClient, path = "/v1/me") => client.request({ method: "GET", path });
const retries = (client: HttpClient): Exchange[] => client.exchanges.filter((e) => e.retriedAfterClose);

describe("connections the deployment closes", () => {
  it("opens a fresh connection after `Connection: close`, and after the deployment closed an idle one", async () => {
    const d = await deployment((req, res, nth) => {
      if (nth.request % 2 === 1) return ok(res, { connection: "close" });
      ok(res);
      // a keep-alive answer, then the deployment closes the connection while it is idle
      setTimeout(() => req.socket.end(), 20);
    });
    for (let i = 0; i < 20; i++) {
      expect((await get(d.client)).status).toBe(200);
      if (i % 2 === 1) await sleep(50);
    }
    expect(d.client.transportErrors).toEqual([]);
    // not one request was written on a closed connection (it would be lost, or retried and counted twice)
    expect(retries(d.client)).toEqual([]);
    expect(d.seen).toMatchObject({ requests: 20, reused: 0 });
  });

  it("records an early 413 sent before the body was read, and the next request gets its answer", async () => {
    const d = await deployment((req, res) => {
      if (Number(req.headers["content-length"]) <= 1024 * 1024) {
        req.resume();
        return req.on("end", () => ok(res));
      }
      // refuses an oversized body from its length alone and drops the connection with the body unread
      res.writeHead(413, { "content-type": "application/json", connection: "close" });
      res.end(JSON.stringify({ status: "client_error", error_code: "payload_too_large" }));
      req.socket.destroy();
    });
    const rawBody = `{"a":"${"x".repeat(4 * 1024 * 1024)}"}`;
    for (let i = 0; i < 5; i++) {
      await get(d.client); // a warm keep-alive connection, as the kit has when it sends the large body
      expect((await d.client.request({ method: "POST", path: "/v1/datasets", rawBody })).status).toBe(413);
      expect((await d.client.request({ method: "POST", path: "/v1/datasets", body: { a: 1 } })).status).toBe(200);
    }
    expect(d.client.transportErrors).toEqual([]);
  });

  it("does not lose a request to a 1 s idle timeout the deployment does not announce", async () => {
    // node's own server announces `Keep-Alive: timeout=1` (never reused then); a proxy in front often does not.
    // Its close and the kit's next request cross on the wire, made certain here: a request that arrives on a
    // connection idle past the timeout finds it closing (destroyed unanswered).
    const idleSince = new WeakMap<Socket, number>();
    const d = await deployment(
      (req, res) => {
        const since = idleSince.get(req.socket);
        if (since !== undefined && Date.now() - since >= 1000) return req.socket.destroy();
        res.on("finish", () => idleSince.set(req.socket, Date.now()));
        ok(res, { connection: "keep-alive" }); // an explicit header: node then announces no timeout
      },
      (s) => (s.keepAliveTimeout = 1000),
    );
    for (let i = 0; i < 4; i++) {
      expect((await get(d.client)).status).toBe(200);
      await sleep(1100);
    }
    expect((await get(d.client)).status).toBe(200);
    expect(d.client.transportErrors).toEqual([]);
  });

  it("sends again once, on a fresh connection, when a reused connection closes before any byte of an answer", async () => {
    let dropped = 0;
    const d = await deployment((req, res, nth) => {
      if (nth.onSocket > 1 && dropped++ === 0) return req.socket.destroy();
      ok(res);
    });
    for (let i = 0; i < 6; i++) expect((await get(d.client)).status).toBe(200);
    expect(dropped).toBeGreaterThan(0);
    expect(retries(d.client).map((e) => e.retriedAfterClose)).toEqual([
      expect.stringMatching(/^connection closed .* and before any byte of one: sent again on a fresh connection$/),
    ]);
    expect(d.seen.requests).toBe(7);
    expect(d.client.transportErrors).toEqual([]);
  });

  it("never sends again once part of an answer arrived, nor after a timeout", async () => {
    const d = await deployment((req, res, nth) => {
      if (nth.onSocket === 1) return ok(res);
      if (req.url === "/v1/me") {
        // the headers and half the body, then the server dies
        res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
        res.write('{"status":"succ');
        return setTimeout(() => req.socket.destroy(), 20);
      }
      if (req.url === "/v1/usage") {
        // only the status line, then the server dies: no answer reaches the client, yet it had begun
        req.socket.write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n");
        return setTimeout(() => req.socket.destroy(), 20);
      }
      // anything else on a reused connection stalls until the client gives up
    });
    for (const path of ["/v1/me", "/v1/usage", "/v1/prices"]) {
      let failure: unknown;
      for (let i = 0; i < 6 && failure === undefined; i++)
        failure = await get(d.client, path).then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(failure, path).toBeInstanceOf(TransportError);
      expect(failure, path).toMatchObject({ kind: path === "/v1/prices" ? "timeout" : "closed" });
    }
    expect(retries(d.client)).toEqual([]);
    // every request the client made reached the server once: nothing was sent again
    expect(d.seen.requests).toBe(d.client.requestCount);
    expect(d.client.transportErrors).toHaveLength(3);
  }, 20_000);
});
