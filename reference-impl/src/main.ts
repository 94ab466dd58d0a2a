// npm start: the reference server on 127.0.0.1:3000 (PORT and HOST override),
// seeded from fixtures/, printing the demo accounts and keys.
import { serve } from "@hono/node-server";
import { createApp } from "./app.ts";
import { demoKeys } from "./fixtures.ts";
import { toDecimalString } from "./platform/billing/money.ts";

const host = process.env.HOST ?? "127.0.0.1";
const port = Number(process.env.PORT ?? 3000);
const stepDelayMs = process.env.STEP_DELAY_MS !== undefined ? Number(process.env.STEP_DELAY_MS) : undefined;
const rateLimitPerSecond = process.env.RATE_LIMIT_RPS !== undefined ? Number(process.env.RATE_LIMIT_RPS) : undefined;

const agentCycleSeconds = process.env.AGENT_CYCLE_SECONDS !== undefined ? Number(process.env.AGENT_CYCLE_SECONDS) : undefined;
const assistantFault = process.env.ASSISTANT_FAULT === "unavailable" || process.env.ASSISTANT_FAULT === "timeout" ? process.env.ASSISTANT_FAULT : undefined;

const { app, directory, ledger } = createApp({ stepDelayMs, rateLimitPerSecond, agentCycleSeconds, assistantFault });

const server = serve({ fetch: app.fetch, hostname: host, port }, (info) => {
  const base = `http://${host}:${info.port}`;
  console.log(`Social Listening reference server on ${base}  (docs: ${base}/docs, contract: ${base}/openapi.json)`);
  console.log("Demo API keys (send as x-api-key):");
  for (const k of demoKeys()) {
    const account = directory.account(k.account_id);
    const balance = account ? toDecimalString(ledger.balance(account.id)) : "?";
    console.log(`  ${k.api_key}  ${k.label}  [${account?.plan ?? "?"}, balance $${balance}]`);
  }
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}
