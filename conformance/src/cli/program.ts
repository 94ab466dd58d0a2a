// The main command's flags, each with its SLK_* variable and default; the
// target options (base URL, keys) are shared with `replay` (target-options.ts).
import { Command, Option } from "commander";
import { withTargetOptions, headerOption } from "../target-options.ts";
import { PROFILES } from "../types.ts";

/** The options as the program hands them over (flags, SLK_* variables, then a config file under them). */
export interface CliOptions {
  baseUrl?: string;
  apiKey?: string;
  foreignKey?: string;
  secondSeatKey?: string;
  poorKey?: string;
  bearerToken?: string;
  profile?: string;
  budget?: string;
  plan?: boolean;
  only?: string | string[];
  exclude?: string | string[];
  header?: string | string[];
  hooks?: string;
  report?: string;
  seed?: string;
  fcPath?: string;
  numRuns?: string;
  mock?: boolean | string;
  validatingProxy?: boolean | string;
  runTimeout?: string;
  contract?: string;
  operations?: string | string[];
  mcpUrl?: string;
  requireGroups?: boolean | string;
  requestTimeout?: string;
  level?: string;
  deviations?: string;
  writeDeviations?: string;
  differential?: boolean | string;
  referenceUrl?: string;
  referenceKeys?: string;
  referencePort?: string;
  minCoverage?: string;
  config?: string;
  list?: boolean;
  catalogue?: boolean;
  seedCoverage?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

export function buildProgram(): Command {
  const program = withTargetOptions(new Command("sl-conformance"))
    .description("Check a deployment of the Social Listening Research Service against its contract, rule by rule.")
    .addOption(
      new Option(
        "--profile <profile>",
        "readonly never creates or charges; standard creates and deletes; full also runs long scenarios",
      )
        .choices(PROFILES)
        .default("standard")
        .env("SLK_PROFILE"),
    )
    .addOption(
      new Option(
        "--budget <usd|none>",
        "most US dollars the kit may commit (checked before every chargeable call; a check that would pass it is skipped). Default for standard and full: the plan's worst case for the selected checks at the deployment's prices plus 10%; none lifts it",
      ).env("SLK_BUDGET"),
    )
    .addOption(
      new Option(
        "--plan",
        "print every selected check with its requests and worst-case commitment at the deployment's prices (reads GET /v1/prices and GET /v1/me, charges nothing) and exit",
      ).env("SLK_PLAN"),
    )
    .addOption(
      new Option(
        "--only <check...>",
        "run only these checks: ids (--list) or groups (a phase: requests, resources, lists, billing, groups, isolation, rate-limit, mcp; response; or a resource group: datasets, audiences, …); comma or space separated, repeatable",
      ).env("SLK_ONLY"),
    )
    .addOption(
      new Option("--exclude <check...>", "leave out these checks: ids or groups, as --only; wins over --only").env(
        "SLK_EXCLUDE",
      ),
    )
    .addOption(headerOption())
    .addOption(
      new Option(
        "--hooks <module>",
        "an ES module exporting beforeCheck(check, run) and/or afterCheck(check, result, run), awaited around each active check (your setup and teardown; see the kit's README)",
      ).env("SLK_HOOKS"),
    )
    .addOption(
      new Option(
        "--report <dir>",
        "write junit.xml, coverage.json, coverage.md, results.json, summary.md and report.html (self-contained, failures first) here",
      ).env("SLK_REPORT_DIR"),
    )
    .addOption(
      new Option("--seed <n>", "fast-check seed (printed on every run; pass it back to replay)").env("SLK_SEED"),
    )
    .addOption(
      new Option("--fc-path <path>", "fast-check counterexample path to replay (with --seed and --only)").env(
        "SLK_FC_PATH",
      ),
    )
    .addOption(
      new Option("--num-runs <n>", "fast-check runs per property (on top of the deterministic sweep of every bound)")
        .default("5")
        .env("SLK_NUM_RUNS"),
    )
    .addOption(
      new Option("--mock", "the target is a stateless mock (Prism): run only mock-applicable checks").env("SLK_MOCK"),
    )
    .addOption(
      new Option(
        "--validating-proxy",
        "the target is a contract-validating proxy (prism proxy --errors): skip checks that send contract-invalid requests",
      ).env("SLK_VALIDATING_PROXY"),
    )
    .addOption(
      new Option("--run-timeout <seconds>", "how long to wait for asynchronous runs to settle")
        .default("120")
        .env("SLK_RUN_TIMEOUT"),
    )
    .addOption(
      new Option(
        "--contract <path>",
        "OpenAPI document to check against (default: the package's generated/openapi.json)",
      ).env("SLK_CONTRACT"),
    )
    .addOption(
      new Option(
        "--operations <scope...>",
        "check only these operations: path prefixes (/v1/datasets) or operationId groups (Account); default all",
      ).env("SLK_OPERATIONS"),
    )
    .addOption(
      new Option("--mcp-url <url>", "MCP endpoint, trailing slash included (default: <base-url>/mcp/)").env(
        "SLK_MCP_URL",
      ),
    )
    .addOption(
      new Option(
        "--require-groups",
        "fail the run when the served-groups preflight finds a group of the contract not served (default: one warning per group, its checks skipped)",
      ).env("SLK_REQUIRE_GROUPS"),
    )
    .addOption(
      new Option(
        "--request-timeout <seconds>",
        "how long one request may take, answer included, before it is reported as no answer",
      )
        .default("30")
        .env("SLK_REQUEST_TIMEOUT"),
    )
    .addOption(
      new Option(
        "--level <level>",
        "contract: every strict decision of the contract fails; seed: only the seed's own rules fail, decisions on points the seed leaves open are warnings naming the decision",
      )
        .choices(["contract", "seed"])
        .default("contract")
        .env("SLK_LEVEL"),
    )
    .addOption(
      new Option(
        "--deviations <file>",
        "accepted deviations (JSON: decision or check, optional operation, reason, expires); a covered finding is reported as accepted, an entry that matches nothing fails the run as stale",
      ).env("SLK_DEVIATIONS"),
    )
    .addOption(
      new Option(
        "--write-deviations <file>",
        "after the run, write today's contract-decision failures to this file as a starting deviations file",
      ).env("SLK_WRITE_DEVIATIONS"),
    )
    .addOption(
      new Option(
        "--differential",
        "run the same checks with the same seed against the reference server too (started in-process when the kit runs from the repository) and report per step where the two differ",
      ).env("SLK_DIFFERENTIAL"),
    )
    .addOption(
      new Option(
        "--reference-url <url>",
        "--differential against this running reference instead of one started in-process (an installed kit does not carry the reference)",
      ).env("SLK_REFERENCE_URL"),
    )
    .addOption(
      new Option(
        "--reference-keys <file>",
        "--differential: the reference's demo-keys.json (default: the repository's fixtures/demo-keys.json)",
      ).env("SLK_REFERENCE_KEYS"),
    )
    .addOption(
      new Option(
        "--reference-port <port>",
        "--differential: the port of the reference the kit starts in-process on 127.0.0.1 (default 0: a free port)",
      ).env("SLK_REFERENCE_PORT"),
    )
    .addOption(
      new Option(
        "--min-coverage <pct>",
        "exit 1 when less than this percentage of documented operation × status pairs was exercised",
      ).env("SLK_MIN_COVERAGE"),
    )
    .addOption(
      new Option(
        "--config <path>",
        "settings file (JSON, keys as the long flags: base-url, profile, budget, …); default ./sl-conformance.config.json when present",
      ).env("SLK_CONFIG"),
    )
    .addOption(new Option("--list", "print the check ids and rules and exit"))
    .addOption(new Option("--catalogue", "print the catalogue as a Markdown table and exit"))
    .addOption(
      new Option(
        "--seed-coverage",
        "print the seed-rule ledger (each rule of the seed, the checks that judge it or why none does) as Markdown and exit",
      ),
    )
    .addOption(new Option("-q, --quiet", "print only the failures, one line each, and the final verdict line"))
    .addOption(
      new Option(
        "-v, --verbose",
        "print every request, each failure in full (received, documented, curl) and the parts a passing check could not exercise",
      ),
    )
    .addHelpText(
      "after",
      "\nSend a finding's HAR cassette (<report>/cassettes/*.har) again and judge the same check:\n  sl-conformance replay FILE.har --base-url <url> --api-key <key> [other keys] [-H …] [--no-rerun]   (replay --help)",
    );
  return program;
}
