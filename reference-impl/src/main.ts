// npm start: the reference server on 127.0.0.1:3000, seeded from fixtures/,
// printing the demo accounts and keys. Every setting is checked before
// anything starts; each mistake is one line (see config.ts for the list).
import { readConfig, SETTINGS } from "./config.ts";
import { DEMO_FIXTURES, demoBearerTokens, demoKeys } from "./fixtures/load.ts";
import { FixtureError, fixturesUrl } from "./scenarios/scenario.ts";
import { preloadNlp } from "./nlp-preload.ts";
import { toDecimalString } from "./platform/billing/money.ts";
import { startServer } from "./server.ts";

if (process.argv.includes("--help")) {
  console.log("Settings (environment variables):");
  for (const s of SETTINGS) console.log(`  ${s.name.padEnd(22)} default ${s.default.padEnd(11)} ${s.meaning}`);
  process.exit(0);
}

const read = readConfig(process.env, process.argv.slice(2));
if (!read.ok) {
  for (const line of read.errors) console.error(`config: ${line}`);
  console.error("config: the server did not start (npm start -- --help lists every setting)");
  process.exit(1);
}
const config = read.config;

try {
  // Throughput: the NLP models (a few hundred ms to build) are ready before the first request, not built inside one.
  preloadNlp();
  const running = await startServer(config);
  const { directory, ledger } = running.handle;
  const base = running.url;
  const fixtures = config.fixturesDir ? fixturesUrl(config.fixturesDir) : DEMO_FIXTURES;
  console.log(
    `Social Listening reference server on ${base}  (docs: ${base}/docs, contract: ${base}/openapi.json, health: ${base}/health)`,
  );
  console.log(
    `Data: ${running.backend.origin}; POST ${base}/_reference/reset puts back ${config.fixturesDir ? `fixtures ${config.fixturesDir}` : `scenario ${config.scenario}`}.`,
  );
  if (config.stateFile)
    console.log(
      `State: saved to ${config.stateFile} every ${config.stateIntervalMs} ms while it changes, and on stop.`,
    );
  console.log("API keys (send as x-api-key):");
  for (const k of demoKeys(fixtures)) {
    const account = directory.account(k.account_id);
    const balance = account ? toDecimalString(ledger.balance(account.id)) : "?";
    console.log(`  ${k.api_key}  ${k.label}  [${account?.plan ?? "?"}, balance $${balance}]`);
  }
  console.log(
    `MCP endpoint: ${base}/mcp/  (x-api-key as above, or one of these demo OAuth bearer tokens as Authorization: Bearer <token>):`,
  );
  for (const t of demoBearerTokens(fixtures)) console.log(`  ${t.access_token}  ${t.label}`);
  if (!config.logRequests) console.log("Request logging is off (--quiet / LOG_REQUESTS=false).");

  // `npm start` execs node, so a signal sent to npm's PID reaches this process
  // (npm forwards SIGINT and SIGTERM to its script). Ctrl-C in a terminal
  // delivers SIGINT twice (from the terminal and from npm): stop once.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // close() saves the state first (synchronously), then the exit timer starts.
    void running.close().then(() => process.exit(0));
    running.log.flush();
    setTimeout(() => process.exit(0), 2000).unref();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, stop);
  // Started by a script with an IPC channel (scripts/lib/reference-process.ts):
  // stop when that script is gone, even if it crashed without stopping us.
  if (process.channel) {
    process.on("disconnect", stop);
    process.channel.unref();
  }
} catch (error) {
  if (error instanceof FixtureError) {
    for (const line of error.problems) console.error(`fixtures: ${line}`);
    console.error(
      `fixtures: the server did not start (${error.dir} is not in the fixture format; see docs/dev-backend.md)`,
    );
  } else console.error(`start: ${(error as Error).message}`);
  process.exit(1);
}
