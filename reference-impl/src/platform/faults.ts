// Faults on demand (D-REF-FAULTS): the reference server as a development backend
// answers, on purpose, the failures the contract documents for an operation,
// so a client can exercise its error paths. One mechanism serves the seeded
// rates of `--faults 429:0.02,503:0.01`, the per-request `Prefer: fault=429`
// header, and the assistant's older switches (ASSISTANT_FAULT and the
// `#simulate:` phrases), which now reach this module too.
//
// Statuses and codes come from the error catalogue for the addressed
// operation (never chosen here), and every injected answer leaves no trace:
// 429 and 5xx answer before the handler runs; 402 lets the handler run its
// own checks and makes its first reservation fail with the real amounts (the
// ledger asks `shortfallForced()`), so nothing is created or charged; a failed
// run is a real run whose first step fails, refunding its reservation in full.
import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";
import { Random } from "./random.ts";
import { documentedErrors } from "./error-catalogue.ts";
import { ApiError, TooManyRequestsError, type ErrorCode } from "./errors.ts";
import type { AppEnv } from "./env.ts";
import { operationOf } from "./operations.ts";
import { preferences } from "./prefer.ts";
import { nodeBindings, requestHeader } from "./request-headers.ts";

export const FAULT_KINDS = ["429", "500", "503", "504", "5xx", "402", "timeout", "run-failed"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Operations that start an asynchronous run (or assistant turn): the only ones `run-failed` applies to. */
export const RUN_OPERATIONS: ReadonlySet<string> = new Set([
  "DatasetRuns_create",
  "AudienceDatasets_createRun",
  "PatternDetections_create",
  "CustomParameters_createRun",
  "TrackingAgents_trigger",
  "Ask_ask",
]);

export type FaultRates = Partial<Record<FaultKind, number>>;

/** Parse `--faults 429:0.02,503:0.01,timeout:0.005` (kind:probability, probability 0-1). */
export function parseFaults(text: string): { ok: true; rates: FaultRates } | { ok: false; error: string } {
  const rates: FaultRates = {};
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")) {
    const m = part.match(/^([a-z0-9-]+):(\d*\.?\d+)$/i);
    if (!m) return { ok: false, error: `"${part}": expected KIND:PROBABILITY (e.g. 429:0.02)` };
    const kind = m[1]!.toLowerCase() as FaultKind;
    if (!FAULT_KINDS.includes(kind))
      return { ok: false, error: `"${part}": unknown kind ${m[1]} (accepted: ${FAULT_KINDS.join(", ")})` };
    const p = Number(m[2]);
    if (!(p >= 0 && p <= 1)) return { ok: false, error: `"${part}": probability must be between 0 and 1` };
    rates[kind] = p;
  }
  return { ok: true, rates };
}

export interface FaultOptions {
  rates?: FaultRates;
  seed?: number;
  /** Honour `Prefer: fault=KIND` (default on: it only ever affects the request that asks). */
  preferFaults?: boolean;
  /** How long a `timeout` fault holds the request before dropping the connection (ms). */
  timeoutMs?: number;
  /** Operations every request of which answers this kind. */
  always?: { operationId: string; kind: FaultKind }[];
  /** Requests per second of a key without its own limit (the RateLimit-Limit an injected 429 shows). */
  rateLimitPerSecond?: number;
}

interface InjectedWork {
  /** The handler's first reservation fails with its 402 (real amounts). */
  shortfall?: boolean;
  /** The run (or assistant turn) this request starts fails; its message. */
  failRun?: string;
}

const injected = new AsyncLocalStorage<InjectedWork>();

/** True while handling a request that was told to answer its 402 (the ledger asks). */
export function shortfallForced(): boolean {
  return injected.getStore()?.shortfall === true;
}

/** The failure message when the run this request starts must fail, else undefined (run lifecycle and assistant ask). */
export function injectedRunFailure(): string | undefined {
  return injected.getStore()?.failRun;
}

export const RUN_FAILURE_MESSAGE =
  "Injected fault (run-failed): this run failed on purpose; its reservation is refunded in full.";

/**
 * Run the rest of the request with `work` in force, and only the request:
 * timers it schedules inherit the context, so the work is disarmed once the
 * answer is decided (a later run step or agent cycle must not fail too).
 */
function within(work: InjectedWork, next: () => Promise<void>): Promise<void> {
  return injected.run(work, next).finally(() => {
    work.shortfall = false;
    work.failRun = undefined;
  });
}

/** The code the operation documents with this status, if any. */
function codeFor(operationId: string, status: number): ErrorCode | undefined {
  for (const [code, s] of documentedErrors(operationId)) if (s === status) return code as ErrorCode;
  return undefined;
}

/** Whether the operation documents the failure `kind` stands for. */
export function applies(kind: FaultKind, operationId: string): boolean {
  switch (kind) {
    case "429":
    case "500":
    case "503":
    case "504":
    case "402":
      return codeFor(operationId, Number(kind)) !== undefined;
    case "5xx":
      return fiveHundredOf(operationId) !== undefined;
    case "timeout":
      return true;
    case "run-failed":
      return RUN_OPERATIONS.has(operationId);
  }
}

/** The operation's most specific 5xx: a 503/504 when it has one (ask), else its 500. */
function fiveHundredOf(operationId: string): number | undefined {
  const statuses = [...documentedErrors(operationId).values()].filter((s) => s >= 500);
  return statuses.find((s) => s !== 500) ?? statuses.find((s) => s === 500);
}

const DETAILS: Record<number, string> = {
  500: "Injected fault: the server failed this request on purpose; nothing was changed. Retry.",
  503: "Injected fault: the service is temporarily unavailable; nothing was changed. Retry in a few seconds.",
  504: "Injected fault: the request timed out upstream; nothing was changed. Retry in a few seconds.",
};

function serverError(operationId: string, status: number): ApiError {
  const code = codeFor(operationId, status);
  if (!code) throw new Error(`${operationId} documents no ${status}`);
  return new ApiError(code, DETAILS[status] ?? DETAILS[500]!);
}

/**
 * The answer of a server-side fault kind for an operation. The assistant's
 * ASSISTANT_FAULT setting and `#simulate:` phrases answer through this too
 * (its MCP tool as well as REST).
 */
export function faultError(operationId: string, kind: "500" | "503" | "504" | "5xx"): ApiError {
  return serverError(operationId, kind === "5xx" ? fiveHundredOf(operationId)! : Number(kind));
}

/**
 * The middleware: after key, rate limit and body guards (so a real 401, 429,
 * 413 or 415 still wins), before the handler. Requests to routes the contract
 * does not have are left alone.
 */
export function faults(options: FaultOptions): MiddlewareHandler<AppEnv> {
  const random = new Random(options.seed ?? 1);
  const rated = Object.entries(options.rates ?? {}).filter(([, p]) => p > 0) as [FaultKind, number][];
  const preferFaults = options.preferFaults ?? true;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const always = new Map((options.always ?? []).map((a) => [a.operationId, a.kind]));

  const choose = (
    c: Parameters<MiddlewareHandler<AppEnv>>[0],
    operationId: string,
  ): { kind: FaultKind; asked: boolean } | undefined => {
    if (preferFaults) {
      const asked = preferences(c).fault?.toLowerCase() as FaultKind | undefined;
      // A preference the operation cannot honour is ignored (RFC 7240): the
      // answer is the normal one and carries no Preference-Applied.
      if (asked && FAULT_KINDS.includes(asked) && applies(asked, operationId)) return { kind: asked, asked: true };
    }
    const fixed = always.get(operationId);
    if (fixed) return { kind: fixed, asked: false };
    if (rated.length === 0) return undefined;
    // Every kind is drawn on every request, so the sequence depends only on
    // the seed and the order of requests, not on which operations they hit.
    let hit: FaultKind | undefined;
    for (const [kind, p] of rated) if (random.float() < p && !hit && applies(kind, operationId)) hit = kind;
    return hit ? { kind: hit, asked: false } : undefined;
  };

  return function injectFaults(c, next) {
    // The common case (no rates, no Prefer header) costs one header read.
    if (rated.length === 0 && always.size === 0 && (!preferFaults || requestHeader(c, "prefer") === undefined))
      return next();
    const operationId = operationOf(c.req.method, c.req.path);
    if (!operationId) return next();
    const choice = choose(c, operationId);
    if (!choice) return next();
    const { kind } = choice;
    if (choice.asked) c.header("Preference-Applied", `fault=${kind}`);
    switch (kind) {
      case "429": {
        const limit = String(c.get("principal")?.account.rate_limit ?? options.rateLimitPerSecond ?? 5);
        throw new TooManyRequestsError(1, {
          "RateLimit-Limit": limit,
          "RateLimit-Remaining": "0",
          "RateLimit-Reset": "1",
        });
      }
      case "500":
      case "503":
      case "504":
        throw serverError(operationId, Number(kind));
      case "5xx":
        throw serverError(operationId, fiveHundredOf(operationId)!);
      case "timeout":
        // The contract's own timeout where the operation has one (ask: 504);
        // elsewhere the request is held, then the connection is dropped with
        // no answer, as a gateway that gave up would.
        if (codeFor(operationId, 504)) throw serverError(operationId, 504);
        return new Promise<void>((resolve) => setTimeout(resolve, timeoutMs)).then(() => {
          const socket = nodeBindings(c).incoming?.socket;
          // The answer rendered after this goes nowhere; off Node
          // (app.request) there is no connection to drop, so it is the answer.
          socket?.destroy();
          throw serverError(operationId, 500);
        });
      case "402":
        return within({ shortfall: true }, next);
      case "run-failed":
        return within({ failRun: RUN_FAILURE_MESSAGE }, next);
    }
  };
}
