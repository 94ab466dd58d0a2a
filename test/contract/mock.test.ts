// The Prism mock, started exactly as `npm run mock` starts it (on a free
// port): it must boot without warnings and answer every GET with the example
// the contract documents for it.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deref, loadDocument, operationsOf } from "./document.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const doc = loadDocument();
const gets = operationsOf(doc).filter((o) => o.method === "get");
let prism: ChildProcess;
let port = 0;
let log = "";
let startupLog = "";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Waits for Prism's "listening" line; what it printed until then is its startup log. */
async function waitUntilListening(): Promise<string> {
  for (let attempt = 0; attempt < 240; attempt++) {
    if (/is listening/.test(log)) return log;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Prism did not start:\n${log}`);
}

/**
 * Prism's own lines carry a level after their source tag ("[CLI] ℹ  info");
 * only a warning, error or fatal level is a problem. The level is read rather
 * than any "error" in the line: Prism lists every route with random Latin
 * words for path parameters at start, and "error" is one of them. A line in
 * another shape (a stack trace) counts when it mentions a warning or error.
 */
const PRISM_LINE = /^\[[^\]]+\]\s+›\s+\[[^\]]+\]\s+\S+\s+(\w+)/;
function isProblem(line: string): boolean {
  const m = PRISM_LINE.exec(line);
  return m ? /^(warn|warning|error|fatal)$/i.test(m[1]!) : /warn|error/i.test(line);
}

/** The path with every `{param}` replaced by the value of the first example, or a placeholder. */
function concretePath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => `${name.replace(/_id$/, "")}_example`);
}

beforeAll(async () => {
  port = await freePort();
  prism = spawn(
    `${root}node_modules/.bin/prism`,
    ["mock", "generated/openapi.json", "--host", "127.0.0.1", "--port", String(port)],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  prism.stdout!.on("data", (d) => (log += d));
  prism.stderr!.on("data", (d) => (log += d));
  startupLog = await waitUntilListening();
});

afterAll(() => {
  prism?.kill("SIGTERM");
});

describe("Prism mock", () => {
  it("starts without warnings or errors", () => {
    const startup = startupLog.split("\n").filter(isProblem);
    expect(startup).toEqual([]);
  });

  it.each(gets.map((g) => [g.path, g] as const))("GET %s answers its documented example", async (_, g) => {
    const res = await fetch(`http://127.0.0.1:${port}${concretePath(g.path)}`, {
      headers: { "x-api-key": "sl_test_mock" },
    });
    expect(res.status).toBe(200);
    const media = deref(doc, g.operation.responses["200"]).content["application/json"];
    const examples = Object.values<any>(media.examples ?? {}).map((e) => e.value);
    expect(examples.length).toBeGreaterThan(0);
    expect(examples).toContainEqual(await res.json());
    expect(res.headers.get("ratelimit-limit")).not.toBeNull();
  });

  it("answers an invalid request with the operation's validation example, naming a real field", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/datasets`, {
      method: "POST",
      headers: { "x-api-key": "sl_test_mock", "content-type": "application/json" },
      body: JSON.stringify({ name: 5 }),
    });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.detail[0].loc).toEqual(["body", "name"]);
  });

  it("answers a requested error with its realistic example", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/chats/chat_example`, {
      headers: { "x-api-key": "sl_test_mock", prefer: "code=404" },
    });
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body.error_code).toBe("chat_not_found");
    expect(body.detail).not.toBe("string");
  });
});
