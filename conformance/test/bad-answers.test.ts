// Bad input: a deployment that times out, answers HTML or closes
// the connection gets a finished report with those findings, never a crash
// of the kit. A tiny 127.0.0.1 server forwards to the reference and breaks
// one route each way.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allChecks } from "../src/registry.ts";
import { runKit } from "../src/runner.ts";
import type { ActiveCheck } from "../src/types.ts";
import { writeReports } from "../src/reporters/files.ts";
import { parseCassette } from "../src/cassettes/har.ts";
import { writeCassettes } from "../src/cassettes/write.ts";
import { settings, startReference, type Target } from "./helpers.ts";

async function bodyOf(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length ? Buffer.concat(chunks).toString("utf8") : undefined;
}

/** GET /v1/prices never answers, POST /v1/mentions drops the socket, /v1/datasets answers an HTML page; the rest is the reference. */
function badServer(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const path = req.url ?? "/";
    const body = await bodyOf(req);
    if (req.method === "GET" && path.startsWith("/v1/prices")) return; // hangs until the client gives up
    if (req.method === "POST" && path.startsWith("/v1/mentions")) return req.socket.destroy();
    if (path.startsWith("/v1/datasets")) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end("<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>");
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === "string" && !["host", "content-length", "connection"].includes(k)) headers[k] = v;
    const up = await fetch(upstream + path, { method: req.method, headers, body });
    const out: Record<string, string> = {};
    up.headers.forEach((v, k) => (out[k] = v));
    delete out["content-length"];
    delete out["content-encoding"];
    delete out["transfer-encoding"];
    res.writeHead(up.status, out);
    res.end(up.status === 204 ? undefined : await up.text());
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => {
          server.closeAllConnections();
          return new Promise<void>((r) => server.close(() => r()));
        },
      }),
    ),
  );
}

describe("a deployment that times out, answers HTML or closes connections", () => {
  let ref: Target;
  let bad: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    ref = await startReference({ rateLimitPerSecond: 100 });
    bad = await badServer(ref.baseUrl);
  });
  afterAll(async () => {
    await bad?.close();
    await ref?.close();
  });

  it("finishes the run and reports each as a finding of the check that met it", async () => {
    // a check that trusts the body (as a careless one would): the HTML page stops it, and that is the deployment's finding
    const naive: ActiveCheck = {
      kind: "active",
      id: "naive-reader",
      phase: "requests",
      rule: "reads data.length of the list",
      section: "test",
      severity: "minor",
      profiles: ["standard"],
      mock: false,
      async run(ctx) {
        const ex = await ctx.req({ method: "GET", path: "/v1/datasets?limit=2" });
        ctx.expect((ex.json as { data: unknown[] }).data.length <= 2, { title: "naive-reader: too many" }, ex);
      },
    };
    const only = [
      "prices-match-unit-ratios",
      "mentions-sort-applied",
      "pagination-full-walk",
      "naive-reader",
      "json-content-type",
    ];
    // 3 s, not less: the preflight's GET /v1/me must not time out on a loaded machine
    const r = await runKit(settings(bad.url, { operations: undefined, only, requestTimeoutMs: 3000 }), {
      checks: [...allChecks, naive],
    });
    const by = (id: string) => r.results.find((x) => x.id === id)!;
    expect(r.results.filter((x) => x.outcome === "error").map((x) => `${x.id}: ${x.error}`)).toEqual([]);
    expect(by("prices-match-unit-ratios").outcome).toBe("fail");
    expect(by("prices-match-unit-ratios").failures[0].title).toBe(
      "prices-match-unit-ratios: no answer: GET /v1/prices no answer within 3 s (timed out)",
    );
    expect(by("mentions-sort-applied").outcome).toBe("fail");
    expect(by("mentions-sort-applied").failures[0].title).toMatch(
      /^mentions-sort-applied: no answer: POST \/v1\/mentions connection closed before a complete answer/,
    );
    expect(by("mentions-sort-applied").failures[0].curl).toMatch(/"x-api-key: \$SLK_API_KEY"/);
    expect(by("pagination-full-walk").outcome).toBe("fail");
    expect(by("naive-reader").failures[0]).toMatchObject({
      title: "naive-reader: unreadable answer: GET /v1/datasets?limit=2 → 200 text/html; charset=utf-8",
      received: expect.stringMatching(/^<!doctype html>/),
      expected: "a JSON body (application/json)",
    });
    expect(by("json-content-type").outcome).toBe("fail");
    // a probe without an answer keeps its group: nothing is hidden behind "not served"
    expect(r.servedGroups!.probes.find((p) => p.group === "prices")).toMatchObject({
      served: true,
      reason: expect.stringMatching(/^no answer/),
    });
    expect(r.servedGroups!.probes.find((p) => p.group === "mentions")).toMatchObject({
      served: true,
      reason: expect.stringMatching(/^no answer/),
    });
    const dir = mkdtempSync(join(tmpdir(), "slk-bad-"));
    writeCassettes(dir, r);
    writeReports(dir, r);
    // the cassette of a request without an answer ends with a status-0 entry (as browsers record one)
    const timeout = by("prices-match-unit-ratios").failures[0];
    const har = parseCassette(readFileSync(join(dir, timeout.cassette!), "utf8"), timeout.cassette!);
    expect(har.log.entries[har.log._slConformance.failing]).toMatchObject({
      request: { method: "GET" },
      response: { status: 0 },
      _slc: { noAnswer: "no answer within 3 s (timed out)" },
    });
    expect(by("naive-reader").failures[0].cassette).toBeTruthy();
    expect(existsSync(join(dir, "report.html"))).toBe(true);
    const json = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
    expect(json.results.find((x: { id: string }) => x.id === "prices-match-unit-ratios").outcome).toBe("fail");
  }, 60_000);
});
