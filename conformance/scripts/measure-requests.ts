// Measures what a run costs, per rule, so a deployment team can budget one:
// the kit against the reference in-process at the default 5 requests per
// second (pipeline delay as `npm start`), whole contract, standard and
// readonly profiles. Prints Markdown tables for the README and, with
// --write, refreshes src/request-budget.ts (the progress estimate).
//   npx tsx conformance/scripts/measure-requests.ts [--write] [--rps 5]
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runKit, type RunReport } from "../src/runner.ts";
import { settings, startReference } from "../test/helpers.ts";

const arg = (name: string) => process.argv.find((a, i) => process.argv[i - 1] === name);
const rps = Number(arg("--rps") ?? 5);

async function measure(profile: "standard" | "readonly"): Promise<RunReport> {
  const ref = await startReference({ rateLimitPerSecond: rps });
  try {
    return await runKit(settings(ref.baseUrl, { profile, operations: undefined, quiet: true }));
  } finally {
    await ref.close();
  }
}

const standard = await measure("standard");
const readonly = await measure("readonly");
const line = (r: RunReport, label: string) =>
  `| ${label} | ${(r.ms / 1000).toFixed(0)} s | ${r.requestCount} | ${Object.entries(r.requestsByKey)
    .map(([k, v]) => `${k} ${v}`)
    .join(
      ", ",
    )} | ${r.results.filter((x) => x.outcome === "pass").length} / ${r.results.filter((x) => x.outcome === "fail" || x.outcome === "error").length} / ${r.results.filter((x) => x.outcome === "skip").length} |`;
console.log(`Against the reference at ${rps} requests/second, whole contract:\n`);
console.log("| Profile | Wall time | Requests | Per key | Pass / fail / skip |\n|---|---|---|---|---|");
console.log(line(standard, "standard"));
console.log(line(readonly, "readonly"));
console.log("\n| Check | Requests (standard) | Requests (readonly) |\n|---|---|---|");
const ro = new Map(readonly.results.map((r) => [r.id, r]));
for (const r of standard.results)
  console.log(
    `| \`${r.id}\` | ${r.outcome === "skip" ? "skipped" : r.requests} | ${ro.get(r.id)?.outcome === "skip" ? "skipped" : (ro.get(r.id)?.requests ?? "-")} |`,
  );
const inspected = standard.results.filter((r) => r.requests === 0 && r.outcome !== "skip").length;
console.log(
  `\n${inspected} response-level checks cost no request (they inspect the traffic above); unplanned 429: ${standard.unplanned429}.`,
);
if (process.argv.includes("--write")) {
  const path = fileURLToPath(new URL("../src/request-budget.ts", import.meta.url));
  const rows = standard.results.filter((r) => r.requests > 0).map((r) => `  ${JSON.stringify(r.id)}: ${r.requests},`);
  writeFileSync(
    path,
    `// Requests each check typically sends (measured against the reference, whole
// contract, standard profile, ${rps} requests/second; \`npx tsx conformance/scripts/measure-requests.ts --write\`
// rewrites it). Used only for the progress estimate and the README's budget
// table: a deployment team can add up the checks it selects.
export const REQUESTS_PER_CHECK: Record<string, number> = {
${rows.join("\n")}
};

/** Requests still to come for these checks (unknown checks count 5). */
export function expectedRequests(ids: string[]): number {
  return ids.reduce((n, id) => n + (REQUESTS_PER_CHECK[id] ?? 5), 0);
}
`,
  );
  console.log(`wrote ${path}`);
}
process.exit(0);
