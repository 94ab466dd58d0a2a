// Seeded malformed and random requests across every operation of the
// generated document, against a reference server it starts as a child process
// (usage below). Goal: malformed input never breaks the server, so no answer
// >= 500 and every 4xx in a documented body; exits 1 otherwise.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Random } from "../reference-impl/src/platform/random.ts";
import { undocumented } from "./lib/documented-body.ts";
import { arg, demoKeys, helpOnRequest, portArg, root, startReference } from "./lib/reference-process.ts";

helpOnRequest(`
npm run fuzz [-- --requests N --seed S --concurrency C --port P]

Mutated and random bodies, deeply nested and oversized bodies, malformed JSON,
wrong or missing content types, random query strings, path ids and keys, sent
to a reference server this script starts on 127.0.0.1. Prints counts by status
and exits 1 when any answer is >= 500 or a 4xx body is not documented.

  --requests N     requests to send (default 10000)
  --seed S         seed of the generator (default: from the clock, printed)
  --concurrency C  requests in flight at once (default 16)
  --port P         port of the server it starts (default 0: a free port)

SIGINT or SIGTERM to this script's PID stops the server it started.
`);

interface Operation {
  method: string;
  path: string;
  query: string[];
  example?: unknown;
  hasBody: boolean;
}

const REQUESTS = Number(arg("requests", "10000"));
const SEED = Number(arg("seed", String(Date.now() % 1_000_000)));
const CONCURRENCY = Number(arg("concurrency", "16"));

/** The parts of generated/openapi.json the fuzzer reads. */
interface Parameter {
  in: string;
  name: string;
}
interface OperationObject {
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> };
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: { parameters?: Record<string, Parameter> };
}

function operations(): Operation[] {
  const doc = JSON.parse(readFileSync(path.join(root, "generated/openapi.json"), "utf8")) as OpenApiDocument;
  const params = doc.components.parameters ?? {};
  const out: Operation[] = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const query = (op.parameters ?? [])
        .map((x) => ("$ref" in x ? params[x.$ref.split("/").pop()!] : x))
        .filter((x) => x.in === "query")
        .map((x) => x.name);
      const media = op.requestBody?.content?.["application/json"];
      const example = media ? Object.values(media.examples ?? {})[0]?.value : undefined;
      out.push({ method: method.toUpperCase(), path: p, query, example, hasBody: !!media });
    }
  }
  return out;
}

function randomJson(r: Random, depth = 0): unknown {
  const kind = r.int(0, depth > 3 ? 4 : 7);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53, r.int(-1000, 100_000)]);
    case 3:
      return r.pick([
        "",
        "x".repeat(r.logInt(1, 20_000)),
        "ds_" + r.token(8),
        "2026-02-30",
        "\u0000\ud800",
        "☃".repeat(50),
        "<script>",
      ]);
    case 4:
      return r.token(r.int(1, 30));
    case 5:
      return Array.from({ length: r.logInt(0, 200) }, () => randomJson(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = r.int(0, 6); i > 0; i--)
        o[r.pick(["q", "name", "count", "filters", "search_query", "limit", "cursor", "dataset_ids", r.token(5)])] =
          randomJson(r, depth + 1);
      return o;
    }
  }
}

/** Replace one value somewhere inside `value` with random JSON. */
function mutate(r: Random, value: unknown): unknown {
  if (Array.isArray(value)) {
    if (value.length === 0 || r.chance(0.3)) return r.chance(0.5) ? randomJson(r) : [...value, randomJson(r)];
    const copy = [...value];
    const i = r.int(0, copy.length - 1);
    copy[i] = mutate(r, copy[i]);
    return copy;
  }
  if (value && typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 0 || r.chance(0.25))
      return r.chance(0.5) ? randomJson(r) : { ...value, [r.token(4)]: randomJson(r) };
    const k = r.pick(keys);
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    if (r.chance(0.2)) delete copy[k];
    else copy[k] = mutate(r, copy[k]);
    return copy;
  }
  return randomJson(r);
}

function nested(r: Random): string {
  const depth = r.logInt(100, 200_000);
  return r.chance(0.5) ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

interface Built {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

function build(r: Random, ops: Operation[], base: string, keys: string[], datasetIds: string[]): Built {
  const op = r.pick(ops);
  const path = op.path.replace(/\{[^}]+\}/g, () =>
    encodeURIComponent(
      r.weighted<string>([
        [r.pick(datasetIds), 3],
        [r.token(r.int(1, 12)), 3],
        ["x".repeat(r.logInt(100, 6000)), 1],
        ["..%2F..", 1],
        ["☃", 1],
      ]),
    ),
  );
  const query = new URLSearchParams();
  for (const name of op.query) {
    if (r.chance(0.5))
      query.append(
        name,
        r.pick(["1", "2.5", "-3", "101", "abc", "", "desc", "asc", "eyJ4IjoxfQ", "x".repeat(r.logInt(1, 3000))]),
      );
  }
  if (r.chance(0.1)) query.append(r.token(4), r.token(4));
  const headers: Record<string, string> = {};
  const keyChoice = r.weighted<string | null>([
    [r.pick(keys), 17],
    ["sl_test_" + r.token(12), 2],
    [null, 1],
  ]);
  if (keyChoice) headers["x-api-key"] = keyChoice;
  let body: string | undefined;
  let contentType: string | undefined = "application/json";
  if (op.hasBody || r.chance(0.05)) {
    const strategy = r.weighted<string>([
      ["example", 15],
      ["mutated", 30],
      ["random", 15],
      ["nested", 5],
      ["oversized", 3],
      ["malformed", 10],
      ["content-type", 7],
      ["none", 10],
      ["long-array", 5],
    ]);
    const example = op.example ?? {};
    switch (strategy) {
      case "example":
        body = JSON.stringify(example);
        break;
      case "mutated":
        body = JSON.stringify(mutate(r, example));
        break;
      case "random":
        body = JSON.stringify(randomJson(r));
        break;
      case "nested":
        body = nested(r);
        break;
      case "oversized":
        body = JSON.stringify({ q: "oat milk ".repeat(r.int(120_000, 250_000)) });
        break;
      case "malformed": {
        const text = JSON.stringify(example);
        body = text.slice(0, r.int(0, Math.max(0, text.length - 1))) + r.pick(["", "}", ",", "\u0000", "'"]);
        break;
      }
      case "content-type":
        body = JSON.stringify(example);
        contentType = r.pick([
          undefined,
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/xml",
          "application/jsonx",
        ]);
        break;
      case "none":
        body = undefined;
        break;
      case "long-array":
        body = JSON.stringify({
          ...(example as object),
          dataset_ids: Array.from({ length: r.logInt(100, 50_000) }, (_, i) => `ds_${i}`),
        });
        break;
    }
  }
  if (body !== undefined && contentType) headers["content-type"] = contentType;
  const method = r.chance(0.02) ? r.pick(["PUT", "DELETE", "PATCH", "GET"]) : op.method;
  const qs = query.toString();
  return { method, url: `${base}${path}${qs ? `?${qs}` : ""}`, headers, body: method === "GET" ? undefined : body };
}

async function main() {
  console.log(`fuzz: ${REQUESTS} requests, seed ${SEED}, concurrency ${CONCURRENCY}`);
  const server = await startReference({ RATE_LIMIT_RPS: "1000000", STEP_DELAY_MS: "50", PORT: String(portArg()) });
  const keys = demoKeys().map((k) => k.api_key);
  try {
    const created = await fetch(`${server.url}/v1/datasets`, {
      method: "POST",
      headers: { "x-api-key": keys[0]!, "content-type": "application/json" },
      body: JSON.stringify({ name: "fuzz" }),
    });
    const datasetIds = [((await created.json()) as { data: { id: string } }).data.id, "ds_missing"];
    const ops = operations();
    const r = new Random(SEED);
    const plans = Array.from({ length: REQUESTS }, () => build(r, ops, server.url, keys, datasetIds));
    const byStatus = new Map<number, number>();
    const problems: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < plans.length) {
        const i = next++;
        const req = plans[i]!;
        let status = 0;
        let text = "";
        try {
          const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body });
          status = res.status;
          text = await res.text();
        } catch (error) {
          problems.push(`#${i} ${req.method} ${req.url.slice(0, 120)}: network error ${(error as Error).message}`);
          continue;
        }
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        const why = status >= 500 ? `status ${status}` : undocumented(status, json);
        if (why && problems.length < 200)
          problems.push(
            `#${i} ${req.method} ${req.url.replace(server.url, "").slice(0, 100)} -> ${status}: ${why} ${text.slice(0, 160)}`,
          );
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
    console.log(`fuzz: ${total} answers in ${seconds.toFixed(1)} s`);
    for (const [status, n] of [...byStatus].sort((a, b) => a[0] - b[0])) console.log(`  ${status}: ${n}`);
    const fives = [...byStatus].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);
    console.log(
      `fuzz: ${fives} answers >= 500; ${problems.length} problems (5xx, undocumented 4xx bodies, network errors)`,
    );
    for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
    if (server.stderr().trim()) console.log(`server stderr:\n${server.stderr().slice(0, 2000)}`);
    process.exitCode = problems.length === 0 ? 0 : 1;
  } finally {
    await server.stop();
  }
}

await main();
