// The settings of `npm start`, read from the environment (and `--quiet` /
// `--port N` on the command line) and checked all at once, so a mistake is
// one clear line naming the setting and what it accepts, never a NaN that
// surfaces later as odd behaviour.

import { FAULT_KINDS, parseFaults, type FaultRates } from "./platform/faults.ts";
import { parseLatency, type LatencySpec } from "./platform/latency.ts";

export type AssistantFaultSetting = "unavailable" | "timeout";

export const SCENARIOS = ["empty", "demo", "large"] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface ServerConfig {
  host: string;
  port: number;
  stepDelayMs: number;
  rateLimitPerSecond: number;
  logLevel: string;
  logRequests: boolean;
  /** `*` or an explicit list of browser origins allowed by CORS. */
  corsOrigins: "*" | string[];
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  agentCycleSeconds?: number;
  assistantFault?: AssistantFaultSetting;
  /** MCP tool name prefix (MCP_TOOL_PREFIX). */
  mcpToolPrefix: string;
  /** Longest hold of `svc__get_message`, ms (MCP_LONG_POLL_MS). */
  mcpLongPollMs: number;
  /** Extra host names the MCP endpoint answers to besides loopback (MCP_ALLOWED_HOSTS). */
  mcpAllowedHosts: string[];
  /** Development backend (D-REF-LATENCY): simulated latency of /v1 answers (LATENCY / --latency). */
  latency?: LatencySpec;
  /** Honour `Prefer: delay=N` (PREFER_DELAY / --prefer-delay). */
  preferDelay: boolean;
  /** Injected fault rates by kind (FAULTS / --faults). */
  faults: FaultRates;
  /** Honour `Prefer: fault=KIND` (PREFER_FAULTS). */
  preferFaults: boolean;
  /** How long a `timeout` fault holds a request before dropping it (FAULT_TIMEOUT_MS). */
  faultTimeoutMs: number;
  /** Seed of the latency and fault draws (SEED / --seed). */
  seed: number;
  /** The data loaded at start and restored by POST /_reference/reset (SCENARIO / --scenario). */
  scenario: ScenarioName;
  /** A folder of the user's own fixtures, loaded instead of the scenario's (FIXTURES_DIR / --fixtures). */
  fixturesDir?: string;
  /** File the state is saved to and restored from (STATE_FILE / --state); none = in memory only. */
  stateFile?: string;
  /** Interval of the periodic state snapshot, ms (STATE_INTERVAL_MS). */
  stateIntervalMs: number;
  /** The only key POST /_reference/reset accepts (RESET_KEY); unset = any API key of the loaded data. */
  resetKey?: string;
}

/** Each setting: its name, default, meaning (printed by `--help` and in docs/operating-the-reference.md). */
export const SETTINGS: { name: string; default: string; meaning: string }[] = [
  { name: "PORT", default: "3000", meaning: "TCP port, 0-65535 (0 picks a free port); `--port N` overrides" },
  { name: "HOST", default: "127.0.0.1", meaning: "interface to listen on (0.0.0.0 for every interface)" },
  {
    name: "STEP_DELAY_MS",
    default: "300",
    meaning: "delay before each pipeline step of a run, integer ms >= 0 (0 = runs finish at once)",
  },
  { name: "RATE_LIMIT_RPS", default: "5", meaning: "requests per second per API key, integer >= 1" },
  { name: "LOG_LEVEL", default: "info", meaning: "pino level: fatal, error, warn, info, debug, trace or silent" },
  { name: "LOG_REQUESTS", default: "true", meaning: "one log line per request (true/false); `--quiet` sets false" },
  {
    name: "CORS_ORIGINS",
    default: "*",
    meaning: "`*` or comma-separated origins (https://app.example.com) allowed to call from a browser",
  },
  {
    name: "HEADERS_TIMEOUT_MS",
    default: "10000",
    meaning: "time a client has to send the request line and headers, integer ms >= 1000",
  },
  {
    name: "REQUEST_TIMEOUT_MS",
    default: "30000",
    meaning: "time a client has to send the whole request, integer ms >= HEADERS_TIMEOUT_MS",
  },
  {
    name: "KEEP_ALIVE_TIMEOUT_MS",
    default: "5000",
    meaning: "idle time before a keep-alive connection is closed, integer ms >= 0",
  },
  {
    name: "AGENT_CYCLE_SECONDS",
    default: "(schedule)",
    meaning: "demo: tracking agents cycle every N seconds, integer >= 1",
  },
  {
    name: "ASSISTANT_FAULT",
    default: "(none)",
    meaning: "demo: every ask answers `unavailable` (503) or `timeout` (504)",
  },
  {
    name: "MCP_TOOL_PREFIX",
    default: "svc__",
    meaning: "prefix of the MCP tool names: letters, digits, `_` or `-`, ending in `_` or `-`",
  },
  {
    name: "MCP_LONG_POLL_MS",
    default: "45000",
    meaning: "longest hold of the MCP svc__get_message long poll, integer ms 0-120000",
  },
  {
    name: "MCP_ALLOWED_HOSTS",
    default: "(loopback)",
    meaning:
      "comma-separated host names the MCP endpoint accepts in Host/Origin besides localhost, 127.0.0.1 and [::1]",
  },
  {
    name: "LATENCY",
    default: "(none)",
    meaning: "dev backend: delay of each /v1 answer, `50`, `50-400` or `lognormal:120,0.5` (ms; seeded); `--latency X`",
  },
  {
    name: "PREFER_DELAY",
    default: "false",
    meaning: "dev backend: honour the request header `Prefer: delay=N` (ms, at most 60000); `--prefer-delay`",
  },
  {
    name: "FAULTS",
    default: "(none)",
    meaning: `dev backend: seeded fault rates, KIND:P,... with KIND in ${FAULT_KINDS.join(", ")}; \`--faults X\``,
  },
  {
    name: "PREFER_FAULTS",
    default: "true",
    meaning: "dev backend: honour the request header `Prefer: fault=KIND` (only that request fails)",
  },
  {
    name: "FAULT_TIMEOUT_MS",
    default: "15000",
    meaning: "dev backend: how long a `timeout` fault holds a request before dropping the connection, integer ms",
  },
  { name: "SEED", default: "1", meaning: "seed of the latency and fault draws (same seed, same sequence); `--seed N`" },
  {
    name: "SCENARIO",
    default: "demo",
    meaning:
      "data loaded at start: `empty` (accounts only), `demo` (fixtures/) or `large` (100k mentions); `--scenario X`",
  },
  {
    name: "FIXTURES_DIR",
    default: "(none)",
    meaning:
      "load your own fixtures (accounts.json, demo-keys.json, datasets.json, ...) from this folder; `--fixtures DIR`",
  },
  {
    name: "STATE_FILE",
    default: "(none)",
    meaning: "save every store to this SQLite file on stop and periodically, restore it at start; `--state FILE`",
  },
  {
    name: "STATE_INTERVAL_MS",
    default: "5000",
    meaning: "interval of the periodic state snapshot, integer ms >= 100 (what a kill -9 can lose)",
  },
  {
    name: "RESET_KEY",
    default: "(any key)",
    meaning: "the only x-api-key POST /_reference/reset accepts; unset = any API key of the loaded data",
  },
];

/** Command-line options and the setting each one sets (a flag without value sets "true"). */
const OPTIONS: Record<string, { setting: string; flag?: string }> = {
  "--quiet": { setting: "LOG_REQUESTS", flag: "false" },
  "--port": { setting: "PORT" },
  "--latency": { setting: "LATENCY" },
  "--prefer-delay": { setting: "PREFER_DELAY", flag: "true" },
  "--faults": { setting: "FAULTS" },
  "--seed": { setting: "SEED" },
  "--scenario": { setting: "SCENARIO" },
  "--fixtures": { setting: "FIXTURES_DIR" },
  "--state": { setting: "STATE_FILE" },
};

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export type ConfigResult = { ok: true; config: ServerConfig } | { ok: false; errors: string[] };

export function readConfig(env: Record<string, string | undefined>, argv: string[] = []): ConfigResult {
  const errors: string[] = [];
  const vars = { ...env };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf("=");
    const name = eq < 0 ? arg : arg.slice(0, eq);
    const option = OPTIONS[name];
    if (!option)
      errors.push(`${arg}: unknown option (accepted: ${Object.keys(OPTIONS).join(", ")}; npm start -- --help)`);
    else if (option.flag !== undefined) vars[option.setting] = eq < 0 ? option.flag : arg.slice(eq + 1);
    else if (eq >= 0) vars[option.setting] = arg.slice(eq + 1);
    else if (i + 1 < argv.length) vars[option.setting] = argv[++i]!;
    else errors.push(`${arg}: needs a value`);
  }

  const integer = (name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    const raw = vars[name];
    if (raw === undefined || raw === "") return fallback;
    if (!/^[+-]?\d+$/.test(raw.trim())) {
      errors.push(`${name}=${raw}: expected a whole number between ${min} and ${max}`);
      return fallback;
    }
    const value = Number(raw);
    if (value < min || value > max) errors.push(`${name}=${raw}: must be between ${min} and ${max}`);
    return value;
  };
  const boolean = (name: string, fallback: boolean): boolean => {
    const raw = vars[name];
    if (raw === undefined || raw === "") return fallback;
    const v = raw.trim().toLowerCase();
    if (["true", "1", "yes", "on"].includes(v)) return true;
    if (["false", "0", "no", "off"].includes(v)) return false;
    errors.push(`${name}=${raw}: expected true or false`);
    return fallback;
  };

  const host = (vars.HOST ?? "127.0.0.1").trim();
  if (host === "") errors.push("HOST is empty: give an interface address such as 127.0.0.1");
  const port = integer("PORT", 3000, 0, 65535);
  const stepDelayMs = integer("STEP_DELAY_MS", 300, 0, 3_600_000);
  const rateLimitPerSecond = integer("RATE_LIMIT_RPS", 5, 1, 1_000_000);
  const logLevel = (vars.LOG_LEVEL ?? "info").trim().toLowerCase();
  if (!LOG_LEVELS.includes(logLevel))
    errors.push(`LOG_LEVEL=${vars.LOG_LEVEL}: expected one of ${LOG_LEVELS.join(", ")}`);
  const logRequests = boolean("LOG_REQUESTS", true);
  const headersTimeoutMs = integer("HEADERS_TIMEOUT_MS", 10_000, 1000, 600_000);
  const requestTimeoutMs = integer("REQUEST_TIMEOUT_MS", 30_000, 1000, 3_600_000);
  if (requestTimeoutMs < headersTimeoutMs) {
    errors.push(
      `REQUEST_TIMEOUT_MS=${requestTimeoutMs}: must not be shorter than HEADERS_TIMEOUT_MS=${headersTimeoutMs}`,
    );
  }
  const keepAliveTimeoutMs = integer("KEEP_ALIVE_TIMEOUT_MS", 5000, 0, 600_000);

  let corsOrigins: "*" | string[] = "*";
  const corsRaw = vars.CORS_ORIGINS?.trim();
  if (corsRaw && corsRaw !== "*") {
    corsOrigins = corsRaw
      .split(",")
      .map((o) => o.trim())
      .filter((o) => o !== "");
    for (const origin of corsOrigins) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = undefined;
      }
      if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
        errors.push(
          `CORS_ORIGINS: "${origin}" is not an origin like https://app.example.com (scheme, host, optional port, no path)`,
        );
      }
    }
  }

  const agentCycleSeconds = vars.AGENT_CYCLE_SECONDS ? integer("AGENT_CYCLE_SECONDS", 0, 1, 86_400) : undefined;
  let assistantFault: AssistantFaultSetting | undefined;
  const fault = vars.ASSISTANT_FAULT?.trim();
  if (fault) {
    if (fault === "unavailable" || fault === "timeout") assistantFault = fault;
    else errors.push(`ASSISTANT_FAULT=${fault}: expected unavailable or timeout`);
  }

  const mcpToolPrefix = (vars.MCP_TOOL_PREFIX ?? "svc__").trim();
  if (!/^[A-Za-z][A-Za-z0-9_-]{0,30}[_-]$/.test(mcpToolPrefix)) {
    errors.push(
      `MCP_TOOL_PREFIX=${vars.MCP_TOOL_PREFIX}: expected letters, digits, _ or -, starting with a letter and ending in _ or - (e.g. acme__)`,
    );
  }
  const mcpLongPollMs = integer("MCP_LONG_POLL_MS", 45_000, 0, 120_000);
  const mcpAllowedHosts = (vars.MCP_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== "");
  for (const h of mcpAllowedHosts) {
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/.test(h))
      errors.push(`MCP_ALLOWED_HOSTS: "${h}" is not a host name (no scheme, port or path)`);
  }

  let latency: LatencySpec | undefined;
  if (vars.LATENCY?.trim()) {
    const parsed = parseLatency(vars.LATENCY);
    if (parsed.ok) latency = parsed.spec;
    else errors.push(`LATENCY=${parsed.error}`);
  }
  const preferDelay = boolean("PREFER_DELAY", false);
  let faults: FaultRates = {};
  if (vars.FAULTS?.trim()) {
    const parsed = parseFaults(vars.FAULTS);
    if (parsed.ok) faults = parsed.rates;
    else errors.push(`FAULTS=${parsed.error}`);
  }
  const preferFaults = boolean("PREFER_FAULTS", true);
  const faultTimeoutMs = integer("FAULT_TIMEOUT_MS", 15_000, 0, 600_000);
  const seed = integer("SEED", 1, -2_147_483_648, 2_147_483_647);
  const scenarioRaw = (vars.SCENARIO ?? "demo").trim() || "demo";
  if (!(SCENARIOS as readonly string[]).includes(scenarioRaw))
    errors.push(`SCENARIO=${scenarioRaw}: expected one of ${SCENARIOS.join(", ")}`);
  const scenario = scenarioRaw as ScenarioName;
  const fixturesDir = vars.FIXTURES_DIR?.trim() || undefined;
  const stateFile = vars.STATE_FILE?.trim() || undefined;
  const stateIntervalMs = integer("STATE_INTERVAL_MS", 5000, 100, 3_600_000);
  const resetKey = vars.RESET_KEY?.trim() || undefined;

  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    config: {
      host,
      port,
      stepDelayMs,
      rateLimitPerSecond,
      logLevel,
      logRequests,
      corsOrigins,
      headersTimeoutMs,
      requestTimeoutMs,
      keepAliveTimeoutMs,
      agentCycleSeconds,
      assistantFault,
      mcpToolPrefix,
      mcpLongPollMs,
      mcpAllowedHosts,
      latency,
      preferDelay,
      faults,
      preferFaults,
      faultTimeoutMs,
      seed,
      scenario,
      fixturesDir,
      stateFile,
      stateIntervalMs,
      resetKey,
    },
  };
}
