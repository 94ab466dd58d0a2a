// The whole kit, N times in a row, against one reference app served by
// node:http with its default settings (usage below). Exits 1 when any run
// lost an answer.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runKit, type RunReport } from "../conformance/src/runner.ts";
import { settings, startReference } from "../conformance/test/helpers.ts";
import { helpOnRequest, portArg } from "./lib/reference-process.ts";
import { stopOnSignal } from "./lib/stop-on-signal.ts";

helpOnRequest(`
npm run transport-soak [-- --runs 10 --rps N --port P]

The whole kit (every check, the whole contract), N times in a row, against one
reference app in this process served by node:http with its default settings
(5 s keep-alive idle timeout, @hono/node-server's serve). Counts what the
transport would get wrong: findings that say a request got no answer, checks
stopped by a transport error, and requests without an answer anywhere in the
run (probes and cleanup included). Prints the requests sent again on a fresh
connection (a connection closed before any byte of its answer) for information.

  --runs N    kit runs (default 10)
  --rps N     the reference's rate limit per key (default: its own)
  --port P    port of the server (default 0: a free port)

SIGINT or SIGTERM to this script's PID closes the server.
`);

const arg = (name: string) => process.argv.find((_, i) => process.argv[i - 1] === name);
const runs = Number(arg("--runs") ?? 10);
const rps = arg("--rps") === undefined ? undefined : Number(arg("--rps"));

// the main seat's demo OAuth access token, so the MCP checks run too
const bearerToken = (
  JSON.parse(readFileSync(fileURLToPath(new URL("../fixtures/demo-keys.json", import.meta.url)), "utf8")) as {
    bearer_tokens: Array<{ access_token: string; account_id: string; user_id: string }>;
  }
).bearer_tokens.find((t) => t.account_id === "acc_demoA" && t.user_id === "usr_a_owner")?.access_token;

interface Tally {
  requests: number;
  /** failures titled "<check>: no answer: …" (run/answer-finding.ts) */
  findings: string[];
  /** checks that ended in an error of the kit naming a transport failure */
  errors: string[];
  /** requests that got no answer, wherever they were sent */
  noAnswer: number;
  /** requests sent again on a fresh connection (their answer arrived) */
  retried: number;
}

function tally(r: RunReport): Tally {
  const failures = r.results.flatMap((x) => [...x.failures, ...(x.demoted ?? []), ...(x.accepted ?? [])]);
  return {
    requests: r.requestCount,
    findings: failures.map((f) => f.title).filter((t) => /: no answer: /.test(t)),
    errors: r.results
      .filter(
        (x) =>
          x.outcome === "error" && /TransportError|no answer|fetch failed|ECONNRESET|EPIPE|UND_ERR/.test(x.error ?? ""),
      )
      .map((x) => `${x.id}: ${x.error?.split("\n")[0]}`),
    noAnswer: r.transportErrors.length,
    retried: r.exchanges.filter((e) => e.retriedAfterClose).length,
  };
}

const started = Date.now();
const ref = await startReference({ rateLimitPerSecond: rps, port: portArg() });
stopOnSignal(() => ref.close());
const totals = { requests: 0, findings: 0, errors: 0, noAnswer: 0, retried: 0 };
try {
  for (let i = 1; i <= runs; i++) {
    const r = await runKit(settings(ref.baseUrl, { operations: undefined, numRuns: 1, seed: i, bearerToken }));
    const t = tally(r);
    totals.requests += t.requests;
    totals.findings += t.findings.length;
    totals.errors += t.errors.length;
    totals.noAnswer += t.noAnswer;
    totals.retried += t.retried;
    console.log(
      `run ${i}/${runs}: ${t.requests} requests, ${t.findings.length} no-answer findings, ${t.errors.length} transport errors, ` +
        `${t.noAnswer} requests without an answer, ${t.retried} sent again; ${(r.ms / 1000).toFixed(1)} s`,
    );
    for (const line of [...t.findings, ...t.errors]) console.log(`  ${line.slice(0, 240)}`);
  }
} finally {
  await ref.close();
}
console.log(
  `${runs} runs, ${totals.requests} requests: ${totals.findings} no-answer findings, ${totals.errors} transport errors, ` +
    `${totals.noAnswer} requests without an answer, ${totals.retried} sent again on a fresh connection; ` +
    `${((Date.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(totals.findings + totals.errors + totals.noAnswer > 0 ? 1 : 0);
