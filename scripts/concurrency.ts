// N concurrent chargeable requests over real sockets against a balance that
// funds exactly K of them (usage below). Goal: no race spends money twice;
// exits 1 otherwise.
import { readConfig } from "../reference-impl/src/config.ts";
import { money, toDecimalString, ZERO } from "../reference-impl/src/platform/billing/money.ts";
import { createLogger } from "../reference-impl/src/platform/request-log.ts";
import { startServer } from "../reference-impl/src/server.ts";
import { arg, demoKeys, helpOnRequest, portArg } from "./lib/reference-process.ts";
import { stopOnSignal } from "./lib/stop-on-signal.ts";

helpOnRequest(`
npm run concurrency [-- --requests N --funded K --port P]

N concurrent POST /v1/datasets/{id}/runs (20 mentions each) over real sockets,
against a reference server started in this process on 127.0.0.1, with a
balance that funds exactly K of them. Exits 0 only when exactly K are accepted
(202), the rest refused 402 insufficient_credits_dataset_run, the balance never
goes negative while they land, and the ledger is exact to the micro-dollar once
every run settles (opening balance = closing balance + every usage row).

  --requests N   concurrent requests (default 200)
  --funded K     how many the opening balance funds (default 37)
  --port P       port of the server (default 0: a free port)

SIGINT or SIGTERM to this script's PID closes the server.
`);

const N = Number(arg("requests", "200"));
const K = Number(arg("funded", "37"));
const COUNT = 20;
const ACCOUNT = "acc_demoB";

async function main() {
  const read = readConfig({
    PORT: String(portArg()),
    HOST: "127.0.0.1",
    RATE_LIMIT_RPS: "1000000",
    STEP_DELAY_MS: "0",
    LOG_REQUESTS: "false",
  });
  if (!read.ok) throw new Error(read.errors.join("; "));
  const running = await startServer(read.config, createLogger({ level: "silent" }));
  const unregister = stopOnSignal(() => running.close());
  const { ledger } = running.handle;
  const key = demoKeys().find((k) => k.account_id === ACCOUNT)!.api_key;
  const headers = { "x-api-key": key, "content-type": "application/json" };
  const failures: string[] = [];
  try {
    const created = await fetch(`${running.url}/v1/datasets`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "concurrency" }),
    });
    const datasetId = ((await created.json()) as { data: { id: string } }).data.id;

    // A fresh book: enough for K runs of COUNT mentions and not one more.
    const price = ledger.quote(ACCOUNT, "mention", COUNT);
    const opening = price.mul(K).add(price.div(2));
    ledger.open(ACCOUNT, ledger.plan(ACCOUNT), opening);
    console.log(
      `concurrency: ${N} requests, each reserving $${toDecimalString(price)}; opening balance $${toDecimalString(opening)} funds ${K}`,
    );

    let lowest = opening;
    const watch = setInterval(() => {
      const b = ledger.balance(ACCOUNT);
      if (b.lt(lowest)) lowest = b;
    }, 1);
    const body = JSON.stringify({
      search_query: { type: "prompt", sources: ["reddit"], search_query: "oat milk" },
      count: COUNT,
    });
    const answers = await Promise.all(
      Array.from({ length: N }, () =>
        fetch(`${running.url}/v1/datasets/${datasetId}/runs`, { method: "POST", headers, body }).then(async (res) => ({
          status: res.status,
          json: (await res.json()) as { error_code?: string },
        })),
      ),
    );
    const accepted = answers.filter((a) => a.status === 202).length;
    const refused = answers.filter(
      (a) => a.status === 402 && a.json.error_code === "insufficient_credits_dataset_run",
    ).length;
    const other = answers.length - accepted - refused;

    // Let every accepted run settle (bounded wait).
    for (let i = 0; i < 600 && !ledger.held(ACCOUNT).isZero(); i++) await new Promise((r) => setTimeout(r, 50));
    clearInterval(watch);
    const closing = ledger.balance(ACCOUNT);
    const charged = ledger.rows(ACCOUNT).reduce((sum, row) => sum.add(row.amount), ZERO);
    const held = ledger.held(ACCOUNT);
    const drift = opening.sub(closing).sub(charged).sub(held);
    const me = (await (await fetch(`${running.url}/v1/me`, { headers })).json()) as {
      data: { usage: { balance: number; balance_used: number; balance_total: number } };
    };

    console.log(`concurrency: accepted ${accepted}, refused 402 ${refused}, other ${other}`);
    console.log(
      `concurrency: lowest balance seen $${toDecimalString(lowest)}, closing $${toDecimalString(closing)}, charged $${toDecimalString(charged)} in ${ledger.rows(ACCOUNT).length} rows, still held $${toDecimalString(held)}`,
    );
    console.log(`concurrency: opening - closing - charged - held = $${toDecimalString(drift)}`);
    if (accepted !== K) failures.push(`accepted ${accepted}, expected exactly ${K}`);
    if (other !== 0) failures.push(`${other} answers were neither 202 nor 402`);
    if (lowest.isNegative()) failures.push(`balance went negative: ${toDecimalString(lowest)}`);
    if (!drift.isZero()) failures.push(`ledger off by $${toDecimalString(drift)}`);
    if (!held.isZero()) failures.push(`$${toDecimalString(held)} still held after the runs`);
    const u = me.data.usage;
    if (!money(u.balance).add(money(u.balance_used)).eq(money(u.balance_total)))
      failures.push(`/v1/me usage does not add up: ${JSON.stringify(u)}`);
  } finally {
    unregister();
    await running.close();
  }
  for (const f of failures) console.log(`concurrency: FAIL ${f}`);
  console.log(failures.length === 0 ? "concurrency: goal met" : "concurrency: goal missed");
  process.exitCode = failures.length === 0 ? 0 : 1;
}

await main();
