// The deviating deployment by hand: the proxy of the mutation harness with
// every deviation of deviations.ts (or all but some) in front of a reference.
//   npx tsx conformance/mutation/deviations-serve.ts --upstream http://127.0.0.1:3000 [--port 4900] [--drop cursor-422,usage-history-oldest-first]
//   npx tsx conformance/mutation/deviations-serve.ts --list
// --variant serves the seed-only variant instead (seed-only-variant.ts: every
// deviation plus the open points open-points.ts derives (statuses the seed
// does not show, fields it does not require, extra fields where it does not
// say "only"), capped run counts, URLs that share a post, money strings,
// lifted bounds and the early 413 before authentication); the upstream's
// pipeline speed is its own setting (STEP_DELAY_MS=0 or a slow one).
//   npx tsx conformance/mutation/deviations-serve.ts --variant --upstream http://127.0.0.1:3000 [--list]
import { Command } from "commander";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { deviatingDeployment, deviations } from "./deviations.ts";
import { startProxy } from "./proxy.ts";
import { seedOnlyVariant, startSeedOnlyVariant } from "./seed-only-variant.ts";

const o = new Command("deviating-deployment")
  .option("--upstream <url>", "deployment to put the proxy in front of", "http://127.0.0.1:3000")
  .option("--port <n>", "port (default: free)")
  .option("--drop <ids>", "deviations to leave out (comma separated)")
  .option("--list", "list the deviations")
  .option("--variant", "the seed-only variant (seed-only-variant.ts) instead of the deviating deployment")
  .parse()
  .opts();
const all = o.variant ? seedOnlyVariant : deviations;
if (o.list) {
  for (const d of all)
    console.log(
      `${d.id.padEnd(32)} ${d.decision.padEnd(22)} ${d.lenient ? "(lenient) " : d.unjudged ? "(unjudged) " : ""}${d.decides}${d.names?.length ? ` [also ${d.names.join(", ")}]` : ""}`,
    );
  process.exit(0);
}
const drop = String(o.drop ?? "")
  .split(",")
  .filter(Boolean);
const unknown = drop.filter((id) => !all.some((d) => d.id === id));
if (unknown.length) {
  console.error(`unknown deviation(s) ${unknown.join(", ")} (see --list)`);
  process.exit(2);
}
const list = all.filter((d) => !drop.includes(d.id));
const demo = JSON.parse(readFileSync(fileURLToPath(new URL("../../fixtures/demo-keys.json", import.meta.url)), "utf8"))
  .keys as Array<{ api_key: string; account_id: string; user_id: string }>;
const key = (acc: string, owner: boolean) =>
  demo.find((k) => k.account_id === acc && k.user_id.endsWith(owner ? "_owner" : "_member"))?.api_key;
const keys = {
  main: key("acc_demoA", true),
  second: key("acc_demoA", false),
  foreign: key("acc_demoB", true),
  poor: key("acc_poor", true),
};
const port = o.port ? Number(o.port) : 0;
const proxy = o.variant
  ? await startSeedOnlyVariant(o.upstream, keys, list, port)
  : await startProxy(o.upstream, deviatingDeployment(list), keys, port);
console.log(
  `${o.variant ? "seed-only variant" : "deviating deployment"} on ${proxy.baseUrl} → ${o.upstream}: ${list.length} deviation(s) on ${new Set(list.map((d) => d.decision)).size} decision(s)${drop.length ? ` (left out: ${drop.join(", ")})` : ""}`,
);
