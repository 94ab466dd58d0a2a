// The whole kit (every check, the whole contract) against the reference in
// this process at several pipeline speeds (usage below). A deployment's speed
// is its own choice, never a finding: every run must pass.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createApp } from "../reference-impl/src/app.ts";
import { runKit, type RunReport } from "../conformance/src/runner.ts";
import { startProxy } from "../conformance/mutation/proxy.ts";
import { demoKeys, settings, startReference } from "../conformance/test/helpers.ts";
import { helpOnRequest, portArg } from "./lib/reference-process.ts";
import { stopOnSignal } from "./lib/stop-on-signal.ts";

helpOnRequest(`
npm run kit-speeds [-- --delays 0,2000,instant --rps 50 --only id,id --timeout-s 60 --detail --port P]

Runs the whole kit against the reference at each pipeline speed, at once:
steps at 0 ms, at 2000 ms (a run stays pending or working for several reads),
and "instant" (steps at 0 ms behind a proxy that holds every answer until the
pipeline is idle, so every run has ended before the kit reads it). Prints
pass/fail/skip and request counts, every check that did not pass and the
checks that met an unplanned 429; exits 1 when any check failed.

  --delays LIST    speeds to run (default 0,2000,instant)
  --rps N          the reference's rate limit per key (default 50)
  --only IDS       only these checks
  --timeout-s S    the kit's --run-timeout (default 60)
  --detail         also each check's unexercised parts and warnings
  --port P         first port of the servers (one per speed: P, P+1, ...;
                   default 0: free ports)

SIGINT or SIGTERM to this script's PID closes the servers.
`);

const arg = (name: string) => process.argv.find((_, i) => process.argv[i - 1] === name);
const delays = (arg("--delays") ?? "0,2000,instant").split(",");
const rps = Number(arg("--rps") ?? 50);
const only = arg("--only")?.split(",").filter(Boolean);
const runTimeoutMs = Number(arg("--timeout-s") ?? 60) * 1000;
const firstPort = portArg();

// the main seat's demo OAuth access token, so the MCP bearer rules run too
const bearerToken = (
  JSON.parse(readFileSync(fileURLToPath(new URL("../fixtures/demo-keys.json", import.meta.url)), "utf8")) as {
    bearer_tokens: Array<{ access_token: string; account_id: string; user_id: string }>;
  }
).bearer_tokens.find((t) => t.account_id === "acc_demoA" && t.user_id === "usr_a_owner")?.access_token;

/** The reference with steps at 0 ms behind a proxy that answers only once no run is in flight. */
async function instantReference(port: number): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const { app, pipeline } = createApp({ rateLimitPerSecond: rps, stepDelayMs: 0, logger: () => undefined });
  const idle = async () => {
    while (pipeline.running > 0) await new Promise((r) => setTimeout(r, 1));
  };
  return startProxy(app.fetch, { response: async (_q, res) => (await idle(), res) }, demoKeys(), port);
}

async function at(speed: string, i: number): Promise<RunReport> {
  const port = firstPort === 0 ? 0 : firstPort + i;
  const ref =
    speed === "instant"
      ? await instantReference(port)
      : await startReference({ rateLimitPerSecond: rps, stepDelayMs: Number(speed), port });
  const unregister = stopOnSignal(() => ref.close());
  try {
    return await runKit(
      settings(ref.baseUrl, { operations: undefined, numRuns: 1, seed: 7, runTimeoutMs, bearerToken, only }),
    );
  } finally {
    unregister();
    await ref.close();
  }
}

const count = (r: RunReport, ...o: string[]) => r.results.filter((x) => o.includes(x.outcome)).length;
const reports = await Promise.all(delays.map((d, i) => at(d, i)));
let bad = 0;
for (const [i, r] of reports.entries()) {
  const fails = count(r, "fail", "error");
  bad += fails;
  console.log(
    `steps at ${delays[i]}${delays[i] === "instant" ? "" : " ms"}: pass ${count(r, "pass")} / fail ${fails} / skip ${count(r, "skip")}; ` +
      `${r.requestCount} requests ${JSON.stringify(r.requestsByKey)}; ${(r.ms / 1000).toFixed(1)} s; unplanned 429 ${r.unplanned429}`,
  );
  const retried = r.exchanges.filter((e) => e.meta.retried).map((e) => `${e.check} ${e.method} ${e.path}`);
  if (retried.length) console.log(`  unplanned 429 met by: ${retried.join("; ")}`);
  for (const x of r.results.filter((y) => y.outcome !== "pass"))
    console.log(
      `  ${x.outcome.padEnd(5)} ${x.id}: ${(x.skipReason ?? x.failures[0]?.title ?? x.error?.split("\n")[0] ?? "").slice(0, 240)}`,
    );
  if (process.argv.includes("--detail"))
    for (const x of r.results.filter((y) => y.unexercised?.length || y.warnings.length))
      console.log(
        `  detail ${x.id}: ${JSON.stringify({ unexercised: x.unexercised, warnings: x.warnings }).slice(0, 400)}`,
      );
}
process.exit(bad > 0 ? 1 : 0);
