// Benchmark child (throughput): one of three servers answering
// GET /v1/datasets/{id} with the same bytes, on 127.0.0.1 and the port its
// parent gave (BENCH_SERVER_PORT; 0: a free one):
//   full  the reference exactly as `npm start` runs it (server.ts: timeouts,
//         transport errors, CORS, auth, rate limit, body guards) with request
//         logging ON (pino through the batched destination `npm start` uses,
//         written to /dev/null so the parent's pipe is not
//         the bottleneck)
//   hono  a bare Hono route on @hono/node-server
//   node  a bare node:http handler
// Prints one JSON line {port, path, key}.
import { createServer } from "node:http";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { readConfig } from "../src/config.ts";
import { demoKeys } from "../src/fixtures/load.ts";
import { batchedStdout } from "../src/platform/log-destination.ts";
import { createLogger } from "../src/platform/request-log.ts";
import { startServer } from "../src/server.ts";
import { serverPort } from "./ports.ts";

const mode = process.argv[2] ?? "full";
const key = demoKeys().find((k) => k.account_id === "acc_demoA")!.api_key;
const read = readConfig({
  PORT: String(mode === "full" ? serverPort() : 0),
  HOST: "127.0.0.1",
  RATE_LIMIT_RPS: "1000000",
  LOG_REQUESTS: "true",
});
if (!read.ok) throw new Error(read.errors.join("; "));
const log = createLogger({ destination: batchedStdout("/dev/null") });
// Every mode serves the bytes the full stack answers for the same dataset.
const running = await startServer(read.config, log);
const list = await running.handle.app.request("/v1/datasets", { headers: { "x-api-key": key } });
const datasetId = ((await list.json()) as { data: { id: string }[] }).data[0]!.id;
const path = `/v1/datasets/${datasetId}`;
const bytes = await (await running.handle.app.request(path, { headers: { "x-api-key": key } })).text();

let port: number;
if (mode === "full") {
  port = Number(new URL(running.url).port);
} else if (mode === "hono") {
  const bare = new Hono();
  bare.get("/v1/datasets/:dataset_id", (c) => c.body(bytes, 200, { "content-type": "application/json" }));
  port = await new Promise<number>((resolve) =>
    serve({ fetch: bare.fetch, hostname: "127.0.0.1", port: serverPort() }, (info) => resolve(info.port)),
  );
} else {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(bytes) });
    res.end(bytes);
  });
  port = await new Promise<number>((resolve) =>
    server.listen(serverPort(), "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
  );
}
console.log(JSON.stringify({ port, path, key, mode }));
process.on("SIGTERM", () => process.exit(0));
