// Run the fault-injecting proxy by hand, in front of a running deployment or
// of a reference app in this process (as the mutation harness runs it):
//   npx tsx conformance/mutation/serve.ts --upstream http://127.0.0.1:3000 --fault page-overlaps-previous [--port 4800]
//   npx tsx conformance/mutation/serve.ts --reference --fault page-overlaps-previous [--port 4800]
//   npx tsx conformance/mutation/serve.ts --list
import { Command } from "commander";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { faults } from "./faults.ts";
import { startProxy } from "./proxy.ts";
import { createApp } from "../../reference-impl/src/app.ts";

const o = new Command("mutation-proxy")
  .option("--upstream <url>", "deployment to put the proxy in front of", "http://127.0.0.1:3000")
  .option("--fault <id>", "fault to inject (none: a transparent proxy)")
  .option("--port <n>", "port (default: free)")
  .option(
    "--reference",
    "a reference app in this process instead of --upstream (50 requests/s, 50 ms pipeline steps, as in the harness)",
  )
  .option("--list", "list the faults")
  .parse()
  .opts();
if (o.list) {
  for (const f of faults)
    console.log(
      `${f.id.padEnd(34)} ${f.control ? "(control) " : ""}breaks: ${f.breaks}  → expect ${f.expect} to ${f.control ? "pass" : "fail"}`,
    );
  process.exit(0);
}
const fault = o.fault ? faults.find((f) => f.id === o.fault) : undefined;
if (o.fault && !fault) {
  console.error(`unknown fault ${o.fault} (see --list)`);
  process.exit(2);
}
const demo = JSON.parse(readFileSync(fileURLToPath(new URL("../../fixtures/demo-keys.json", import.meta.url)), "utf8"))
  .keys as Array<{ api_key: string; account_id: string; user_id: string }>;
const key = (acc: string, owner: boolean) =>
  demo.find((k) => k.account_id === acc && k.user_id.endsWith(owner ? "_owner" : "_member"))?.api_key;
const upstream = o.reference ? createApp({ rateLimitPerSecond: 50, stepDelayMs: 50 }).app.fetch : o.upstream;
const proxy = await startProxy(
  upstream,
  fault,
  {
    main: key("acc_demoA", true),
    second: key("acc_demoA", false),
    foreign: key("acc_demoB", true),
    poor: key("acc_poor", true),
  },
  o.port ? Number(o.port) : 0,
);
console.log(
  `mutation proxy on ${proxy.baseUrl} → ${o.reference ? "a reference app in this process" : o.upstream}${fault ? ` with fault ${fault.id} (${fault.breaks}); expect ${fault.expect} to ${fault.control ? "pass" : "fail"}` : " (no fault)"}`,
);
