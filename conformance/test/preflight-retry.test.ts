// The key preflight asks GET /v1/me again after an answer the seed says may
// pass (429, or a 5xx with transient: true), at most twice; any other answer
// ends the run at once as a usage error. A tiny 127.0.0.1 server plays the
// deployment, so each answer is exactly the one under test.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Contract } from "../src/contract.ts";
import { HttpClient } from "../src/http.ts";
import { UsageError, preflight } from "../src/preflight.ts";
import type { Settings } from "../src/types.ts";

const me = { status: "success", data: { id: "usr_1", account_id: "acc_1" } };
let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** Serves the given answers to GET /v1/me in order (the last one repeats); counts the calls. */
async function deployment(answers: Array<{ status: number; body: unknown; headers?: Record<string, string> }>) {
  const seen = { calls: 0 };
  server = createServer((req, res) => {
    const a = answers[Math.min(seen.calls++, answers.length - 1)];
    res.writeHead(a.status, { "content-type": "application/json", ...(a.headers ?? {}) });
    res.end(JSON.stringify(a.body));
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  const baseUrl = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  const client = new HttpClient({ baseUrl, keys: { main: "sl_test_k" }, contract: Contract.load() });
  return { seen, run: () => preflight({ baseUrl, keys: { main: "sl_test_k" } } as Settings, client) };
}

describe("key preflight and passing faults", () => {
  it("asks again after a transient 503 and a 429, then goes on", async () => {
    const d = await deployment([
      {
        status: 503,
        body: { status: "server_error", error_code: "internal_server_error", detail: "busy", transient: true },
      },
      {
        status: 429,
        body: {
          status: "client_error",
          error_code: "too_many_requests",
          detail: "slow down",
          transient: true,
          retry_after_seconds: 1,
        },
        headers: { "retry-after": "1" },
      },
      { status: 200, body: me },
    ]);
    const ids = await d.run();
    expect(ids).toEqual([{ role: "main", userId: "usr_1", accountId: "acc_1" }]);
    expect(d.seen.calls).toBe(3);
  }, 20_000);

  it("stops at once on a 5xx that is not transient, and after three passing faults in a row", async () => {
    const hard = await deployment([
      {
        status: 500,
        body: { status: "server_error", error_code: "internal_server_error", detail: "boom", transient: false },
      },
    ]);
    await expect(hard.run()).rejects.toThrow(UsageError);
    expect(hard.seen.calls).toBe(1);
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    const busy = await deployment([
      {
        status: 503,
        body: { status: "server_error", error_code: "internal_server_error", detail: "busy", transient: true },
      },
    ]);
    await expect(busy.run()).rejects.toThrow(/answered 503/);
    expect(busy.seen.calls).toBe(3);
  }, 20_000);
});
