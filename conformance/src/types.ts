// Shared types of the kit: settings, checks, results.
import type { Contract } from "./contract.ts";
import type { Exchange, HttpClient, KeyRole, RequestOptions } from "./http.ts";
import type { LenientId } from "./lenient.ts";
import type { Asserts } from "./grounding/assertions.ts";
import type { Fact } from "./grounding/facts.ts";

/** Which kind of rule a finding enforces (attribution.ts classifies them). */
export type RuleKind = "seed" | "decision";

export interface Attribution {
  kind: RuleKind;
  /** the D- id (kind decision) */
  decision?: string;
  /** the seed's own words: the rule (kind seed) or what it leaves open (kind decision) */
  seed?: string;
  /** what the contract decided (kind decision) */
  decided?: string;
  /** the seed-ledger rows the finding judges (kind seed, from the check's assertion) */
  rows?: string[];
  /** the facts the assertion takes from its sentence (or fixes, for a decision) */
  facts?: Fact[];
}

/** One entry of a deviations file (deviations.ts reads and judges them). */
export interface DeviationEntry {
  decision?: string;
  check?: string;
  operation?: string;
  reason: string;
  /** YYYY-MM-DD, the last day the entry applies */
  expires: string;
}

export type Profile = "readonly" | "standard" | "full";
export const PROFILES: Profile[] = ["readonly", "standard", "full"];
export type Severity = "critical" | "major" | "minor" | "advisory";

export interface Settings {
  baseUrl: string;
  keys: Partial<Record<KeyRole, string>>;
  profile: Profile;
  budgetUsd?: number;
  /**
   * The most that negative cases (requests a conformant deployment refuses)
   * may keep committed when the deployment accepts them: under the default
   * budget, its room for one such case, so cases a deployment legitimately
   * accepts cannot starve the checks the plan was sized for. Undefined (an
   * explicit --budget): only the budget bounds them.
   */
  negativeRoomUsd?: number;
  only?: string[];
  reportDir?: string;
  seed: number;
  /** the target is a stateless mock: run only the checks declared mock-applicable */
  mock: boolean;
  /** the target is a contract-validating proxy (prism proxy --errors) in front of the deployment */
  validatingProxy?: boolean;
  contractPath?: string;
  /** restrict the contract to these path prefixes or operationId groups (e.g. /v1/datasets, Account) */
  operations?: string[];
  /** fast-check replay path (with --seed) */
  fcPath?: string;
  /** fast-check runs per property (negative and positive data) */
  numRuns: number;
  /** how long to wait for asynchronous runs to settle */
  runTimeoutMs: number;
  quiet: boolean;
  /** print each exchange (debug) */
  verbose?: boolean;
  /** fail the run when fewer than this percentage of documented operation × status pairs were exercised */
  minCoverage?: number;
  /** the MCP endpoint (default: <base-url>/mcp/) */
  mcpUrl?: string;
  /** an OAuth access token for the MCP endpoint (bearer checks are skipped without it) */
  bearerToken?: string;
  /** skip the preflight (tests that drive the runner directly against a known target) */
  skipPreflight?: boolean;
  /** an unserved group (served-groups preflight) fails the run instead of a warning */
  requireGroups?: boolean;
  /** how long one request may take, answer included, before it is a "no answer" finding (default 30 s) */
  requestTimeoutMs?: number;
  /** also run against the reference server and report per step where the two differ */
  differential?: boolean;
  /** --differential against this running reference (default: one started in-process) */
  referenceUrl?: string;
  /** --differential: the reference's demo-keys.json */
  referenceKeys?: string;
  /** contract (default): every strict decision fails; seed: only seed rules fail, decisions on open points warn */
  level?: "contract" | "seed";
  /** accepted deviations (--deviations FILE), already validated */
  deviations?: DeviationEntry[];
  /** where the deviations came from (reports) */
  deviationsFile?: string;
  /** -H 'Name: value': headers sent on every request, under the ones the kit and the checks set (http.ts) */
  headers?: Record<string, string>;
}

export interface Failure {
  check: string;
  title: string;
  message?: string;
  received?: unknown;
  expected?: unknown;
  curl?: string;
  operation?: string;
  status?: number;
  seed?: number;
  path?: string;
  replay?: string;
  /** the recorded exchange the failure is about (its cassette ends there) */
  seq?: number;
  /** the HAR cassette written for this failure (relative to the report folder) */
  cassette?: string;
  /** the contract decision this failure judges, when the check knows it (a constraint marked @decided); attribution.ts honours it first */
  decision?: string;
  /** the seed's words this failure judges, when the check knows them (a constraint marked @seed) */
  seedQuote?: string;
  /** the name of the check's assertion (`asserts`) this failure judges */
  judges?: string;
  /** the seed rule or contract decision this failure enforces (attribution.ts) */
  attribution?: Attribution;
  /** the deviations-file entry that accepts this failure */
  deviation?: { reason: string; expires: string; entry: number };
}

export type Outcome = "pass" | "fail" | "skip" | "error";

export interface CheckResult {
  id: string;
  outcome: Outcome;
  failures: Failure[];
  warnings: string[];
  skipReason?: string;
  error?: string;
  ms: number;
  requests: number;
  /** assertions that held or failed: a check that asserted nothing is skipped, never passed */
  exercised?: number;
  /** parts of the rule the check could not exercise (e.g. a group whose create was refused), with the reason */
  unexercised?: string[];
  /** --level seed: failures of contract decisions, reported as warnings */
  demoted?: Failure[];
  /** failures a deviations-file entry accepts */
  accepted?: Failure[];
}

export interface CheckMeta {
  /** the rule id: file name, failure title prefix, catalogue row and report name */
  id: string;
  /** the rule in one sentence */
  rule: string;
  /** where the rule comes from (seed section / decision id) */
  section: string;
  severity: Severity;
  profiles: Profile[];
  /** can run against a stateless mock (Prism) */
  mock: boolean;
  /** operations (`METHOD /path`) that must be in the contract for the check to apply */
  requires?: string[];
  /** sends requests that break the contract on purpose (a validating proxy answers those itself) */
  invalidRequests?: boolean;
  /** "anonymous": sends only unauthenticated requests, so it runs alongside the keyed checks */
  lane?: "anonymous";
  /** keys that must be configured */
  keys?: KeyRole[];
  /** ids of the spec/DECISIONS.md rows this check enforces (strict) or tolerates (lenient); derived from `asserts` when the check declares them */
  decisions?: string[];
  /**
   * What each assertion of the check judges, by name: a seed rule (ledger rows
   * and the facts taken from them), a decision, or the contract's marks. Every
   * failure of a check that declares them names one (`judges`).
   */
  asserts?: Asserts;
}

/**
 * The phases active checks run in, in this order. Each phase names what its
 * checks do to the deployment, which is why the order matters: requests that
 * create nothing first, the resource and list rules next, money and the
 * groups' runs after them, then the checks that look across keys, and last the
 * bursts that spend the rate limit (REST, then MCP) so that no other check
 * meets their 429s.
 */
export const PHASES = [
  "requests",
  "resources",
  "lists",
  "billing",
  "groups",
  "isolation",
  "rate-limit",
  "mcp",
] as const;
export type Phase = (typeof PHASES)[number];

export interface ActiveCheck<J extends string = string> extends CheckMeta {
  kind: "active";
  /** when the check runs (PHASES); within a phase, by id unless `after` says otherwise */
  phase: Phase;
  /** ids of checks of the same phase that must run before this one */
  after?: string[];
  run(ctx: CheckContext<J>): Promise<void>;
}

export interface ResponseCheck<J extends string = string> extends CheckMeta {
  kind: "response";
  /** inspects one recorded exchange; return without calling fail for "not applicable" */
  inspect(ex: Exchange, ctx: InspectContext<J>): void;
}

/**
 * A failure as a check reports it: `judges` names the assertion. Once the
 * check declares `asserts` a failure without it is a defect of the kit, which
 * the run reports as the check's error (run/result.ts assertionNamed); the
 * type keeps it optional so shared helpers take any check's context.
 */
export type FailureSpec<J extends string = string> = Omit<Failure, "check" | "judges"> & { judges?: J };

export type Check = ActiveCheck | ResponseCheck;

export interface InspectContext<J extends string = string> {
  contract: Contract;
  settings: Settings;
  fail(ex: Exchange, f: FailureSpec<J>): void;
  pass(ex: Exchange): void;
  warn(message: string, ex?: Exchange): void;
  /** the lenient rule of spec/DECISIONS.md that tolerates this exchange, if any (warns when it applies) */
  lenient(decision: LenientId, ex: Exchange): boolean;
}

export interface CheckContext<J extends string = string> {
  readonly id: string;
  readonly settings: Settings;
  readonly contract: Contract;
  readonly client: HttpClient;
  readonly runId: string;
  req(o: RequestOptions): Promise<Exchange>;
  fail(f: FailureSpec<J>, ex?: Exchange): void;
  /** record a failure unless `cond`; returns cond */
  expect(cond: boolean, f: FailureSpec<J>, ex?: Exchange): boolean;
  pass(ex: Exchange): void;
  warn(message: string, ex?: Exchange): void;
  skip(reason: string): never;
  /** part of the rule could not be exercised (reported; if nothing was exercised the check is skipped) */
  notExercised(reason: string): void;
  /** the lenient rule of spec/DECISIONS.md that tolerates this exchange, if any (warns once when it applies) */
  lenient(decision: LenientId, ex: Exchange): boolean;
  /** a resource name carrying the run id */
  name(label: string): string;
  /**
   * budget guard: call before every chargeable request; returns a release for when nothing was charged.
   * `negative`: a case a conformant deployment refuses (it also fits in Settings.negativeRoomUsd).
   */
  charge(usd: number | string, what: string, o?: { negative?: boolean }): () => void;
  /** guard for anything that creates state (readonly profile never does) */
  mutates(what: string): void;
  /** register something the kit created, deleted at the end (also after a failure) */
  track(kind: string, deletePath: string, key?: KeyRole): void;
  untrack(deletePath: string): void;
  /** a scenario shared by several checks, run once per kit run */
  shared<T>(name: string, fn: () => Promise<T>): Promise<T>;
  fcSeed(): number;
  hasKey(role: KeyRole): boolean;
}
