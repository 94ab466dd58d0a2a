// Cassettes: every failing finding writes its exchanges as a HAR 1.2
// cassette (keys redacted), and `sl-conformance replay` sends them again and
// judges the same check: the finding shows again behind the same fault, and
// not against the reference without it.
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/cli.ts";
import { parseCassette } from "../src/cassettes/har.ts";
import { replay } from "../src/cassettes/replay.ts";
import { writeCassettes } from "../src/cassettes/write.ts";
import { runKit } from "../src/runner.ts";
import { faults } from "../mutation/faults.ts";
import { mcpFaults } from "../mutation/faults-mcp.ts";
import { startProxy, type RunningProxy } from "../mutation/proxy.ts";
import { demoKeys, settings, startReference, type Target } from "./helpers.ts";

const fault = (id: string) => faults.find((f) => f.id === id)!;
const keys = demoKeys();

describe("cassettes and replay", () => {
  let ref: Target;
  let createdAs200: RunningProxy;
  let notReadable: RunningProxy;
  let dir: string;
  beforeAll(async () => {
    ref = await startReference({ rateLimitPerSecond: 100 });
    createdAs200 = await startProxy(ref.baseUrl, fault("create-answers-200"), keys);
    notReadable = await startProxy(ref.baseUrl, fault("created-not-readable-at-once"), keys);
    dir = mkdtempSync(join(tmpdir(), "slk-cassettes-"));
  });
  afterAll(async () => {
    await createdAs200?.close();
    await notReadable?.close();
    await ref?.close();
  });

  it("writes one redacted HAR 1.2 file per failing finding and names it on the failure", async () => {
    const r = await runKit(
      settings(createdAs200.baseUrl, { only: ["valid-request-accepted", "documented-status-only"] }),
    );
    const failures = r.results.flatMap((x) => x.failures);
    expect(failures.length).toBeGreaterThan(0);
    const files = writeCassettes(dir, r);
    expect(files).toHaveLength(failures.length);
    for (const f of failures) expect(f.cassette).toMatch(/^cassettes\/.+\.har$/);
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const k of Object.values(keys)) expect(text.includes(k!), `a key in ${file}`).toBe(false);
      const har = parseCassette(text, file);
      expect(har.log.version).toBe("1.2");
      expect(har.log.creator.name).toBe("sl-conformance");
      for (const e of har.log.entries) {
        // the fields HAR 1.2 requires of an entry
        expect(Object.keys(e)).toEqual(
          expect.arrayContaining(["startedDateTime", "time", "request", "response", "cache", "timings"]),
        );
        expect(Object.keys(e.request)).toEqual(
          expect.arrayContaining([
            "method",
            "url",
            "httpVersion",
            "cookies",
            "headers",
            "queryString",
            "headersSize",
            "bodySize",
          ]),
        );
        expect(Object.keys(e.response)).toEqual(
          expect.arrayContaining([
            "status",
            "statusText",
            "httpVersion",
            "cookies",
            "headers",
            "content",
            "redirectURL",
            "headersSize",
            "bodySize",
          ]),
        );
        expect(Number.isNaN(Date.parse(e.startedDateTime))).toBe(false);
      }
      expect(text).toContain("${SLK_API_KEY}");
    }
  });

  it("replays a response-level finding: again behind the fault, gone on the reference", async () => {
    const file = readdirSync(join(dir, "cassettes")).find((f) => f.startsWith("documented-status-only-"))!;
    const har = parseCassette(readFileSync(join(dir, "cassettes", file), "utf8"), file);
    expect(har.log.entries[har.log._slConformance.failing].request.method).toBe("POST");
    const again = await replay(har, { baseUrl: createdAs200.baseUrl, keys, rerun: false });
    expect(again.reproduced).toBe(true);
    expect(again.verdict[0]).toMatch(/documented-status-only fails again on the replayed answer: .*undocumented 200/);
    // what the replay created is deleted again
    expect(again.cleanup.failed).toEqual([]);
    const fixed = await replay(har, { baseUrl: ref.baseUrl, keys, rerun: false });
    expect(fixed.reproduced).toBe(false);
    expect(fixed.steps.find((s) => s.index === har.log._slConformance.failing)!.differs).toEqual(["status 200 → 201"]);
    // the command line: exit 1 while the finding shows, 0 once it is gone
    const path = join(dir, "cassettes", file);
    expect(
      await main([
        "node",
        "sl-conformance",
        "replay",
        path,
        "--base-url",
        createdAs200.baseUrl,
        "--api-key",
        keys.main!,
      ]),
    ).toBe(1);
    expect(
      await main(["node", "sl-conformance", "replay", path, "--base-url", ref.baseUrl, "--api-key", keys.main!]),
    ).toBe(0);
    // a missing key the cassette needs is a usage error naming the flag
    expect(await main(["node", "sl-conformance", "replay", path, "--base-url", ref.baseUrl])).toBe(2);
  }, 60_000);

  it("replays an active check's finding, mapping the ids the new run hands out, and runs the check again", async () => {
    const r = await runKit(settings(notReadable.baseUrl, { only: ["created-readable-at-once"] }));
    const adir = mkdtempSync(join(tmpdir(), "slk-cassettes-"));
    const [file] = writeCassettes(adir, r);
    const har = parseCassette(readFileSync(file, "utf8"), file);
    expect(har.log._slConformance).toMatchObject({ check: "created-readable-at-once", kind: "active" });
    const again = await replay(har, { baseUrl: notReadable.baseUrl, keys, rerun: true });
    expect(again.reproduced).toBe(true);
    expect(again.rerun?.outcome).toBe("fail");
    // the recorded read named the recorded id; the replayed one names the id the replayed create returned
    const failing = again.steps[har.log._slConformance.failing];
    expect(failing.replayed).toBe("404 dataset_not_found");
    expect(failing.request).not.toContain(
      new URL(har.log.entries[har.log._slConformance.failing].request.url).pathname,
    );
    const fixed = await replay(har, { baseUrl: ref.baseUrl, keys, rerun: true });
    expect(fixed.reproduced).toBe(false);
    expect(fixed.rerun?.outcome).toBe("pass");
  }, 60_000);

  it("replays an MCP finding (JSON-RPC over the MCP endpoint, its Accept header kept) and runs the check again", async () => {
    const generic = await startProxy(
      ref.baseUrl,
      mcpFaults.find((f) => f.id === "mcp-tool-error-generic-code")!,
      keys,
    );
    try {
      const r = await runKit(settings(generic.baseUrl, { operations: undefined, only: ["mcp-tool-error-shape"] }));
      const files = writeCassettes(mkdtempSync(join(tmpdir(), "slk-cassettes-")), r);
      expect(files.length).toBeGreaterThan(0);
      const har = parseCassette(readFileSync(files[0], "utf8"), files[0]);
      expect(har.log.entries.some((e) => e._slc.mcp)).toBe(true);
      const again = await replay(har, { baseUrl: generic.baseUrl, keys, rerun: true });
      // every JSON-RPC call answers as recorded (no 406 for a lost Accept: text/event-stream)
      expect(again.steps.filter((st) => st.differs.length)).toEqual([]);
      expect(again.reproduced).toBe(true);
      const fixed = await replay(har, { baseUrl: ref.baseUrl, keys, rerun: true });
      expect(fixed.rerun?.outcome).toBe("pass");
      expect(fixed.reproduced).toBe(false);
    } finally {
      await generic.close();
    }
  }, 60_000);

  it("replays through a gateway: -H values are not in the cassette, the replay sends the ones it is given", async () => {
    // a gateway in front of the faulty deployment: without its token, 403
    const seen: string[] = [];
    const gateway = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const token = String(req.headers["x-gateway-token"] ?? "");
        seen.push(token);
        if (token !== "s3cret") {
          res
            .writeHead(403, { "content-type": "application/json" })
            .end('{"status":"client_error","error_code":"forbidden"}');
          return;
        }
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => !["host", "connection", "content-length"].includes(k)),
        ) as Record<string, string>;
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        fetch(createdAs200.baseUrl + req.url, { method: req.method, headers, body }).then(
          async (up) => {
            const text = await up.text();
            const out: Record<string, string> = {};
            up.headers.forEach((v, k) => {
              if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(k)) out[k] = v;
            });
            res.writeHead(up.status, out).end(text);
          },
          () => res.writeHead(502).end(),
        );
      });
    });
    await new Promise<void>((r) => gateway.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    try {
      const r = await runKit(
        settings(base, {
          only: ["documented-status-only", "valid-request-accepted"],
          headers: { "X-Gateway-Token": "s3cret" },
        }),
      );
      const gdir = mkdtempSync(join(tmpdir(), "slk-cassettes-"));
      writeCassettes(gdir, r);
      const file = readdirSync(join(gdir, "cassettes")).find((f) => f.startsWith("documented-status-only-"))!;
      const path = join(gdir, "cassettes", file);
      expect(readFileSync(path, "utf8")).not.toContain("s3cret");
      const har = parseCassette(readFileSync(path, "utf8"), file);
      // without the header: a usage error naming it, nothing sent
      const before = seen.length;
      await expect(replay(har, { baseUrl: base, keys, rerun: false })).rejects.toThrow(/-H x-gateway-token/);
      expect(await main(["node", "sl-conformance", "replay", path, "--base-url", base, "--api-key", keys.main!])).toBe(
        2,
      );
      expect(seen.length).toBe(before);
      // with it: every request carries the value given, and the finding shows again
      const again = await replay(har, { baseUrl: base, keys, rerun: false, headers: { "X-Gateway-Token": "s3cret" } });
      expect(seen.slice(before).every((t) => t === "s3cret")).toBe(true);
      expect(seen.length).toBeGreaterThan(before);
      expect(again.reproduced).toBe(true);
      const cli = ["node", "sl-conformance", "replay", path, "--base-url", base, "--api-key", keys.main!];
      expect(await main([...cli, "-H", "X-Gateway-Token: s3cret"])).toBe(1);
    } finally {
      await new Promise((r) => gateway.close(r));
    }
  }, 60_000);
});
