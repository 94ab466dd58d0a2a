// Child process of the benchmark: serves either the full reference app or a
// bare Hono route returning the same dataset body, on 127.0.0.1 and the port
// its parent gave (BENCH_SERVER_PORT; 0: a free one), then prints one JSON
// line {port, path, key}.
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createApp } from "../src/app.ts";
import { demoKeys } from "../src/fixtures/load.ts";
import { serverPort } from "./ports.ts";

const mode = process.argv[2] === "bare" ? "bare" : "full";
// The per-key rate limit stays in the stack but is raised so it does not cap the run.
const handle = createApp({ rateLimitPerSecond: 1_000_000_000, logger: () => {} });
const key = demoKeys().find((k) => k.account_id === "acc_demoA")!.api_key;
const list = await handle.app.request("/v1/datasets", { headers: { "x-api-key": key } });
const datasetId = ((await list.json()) as { data: { id: string }[] }).data[0]!.id;
const path = `/v1/datasets/${datasetId}`;

let fetcher = handle.app.fetch;
if (mode === "bare") {
  const body = await (await handle.app.request(path, { headers: { "x-api-key": key } })).json();
  const bare = new Hono();
  bare.get("/v1/datasets/:dataset_id", (c) => c.json(body as object));
  fetcher = bare.fetch;
}

const server = serve({ fetch: fetcher, hostname: "127.0.0.1", port: serverPort() }, (info) => {
  console.log(JSON.stringify({ port: info.port, path, key, mode }));
});
process.on("SIGTERM", () => {
  server.close();
  process.exit(0);
});
