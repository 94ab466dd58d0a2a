// createApp(options): the Hono app plus handles tests need (clock, services,
// rate limiter). One Hono per resource, mounted with app.route; auth and the
// rate limit guard /v1/*; errors render in one onError.
import { Hono, type MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AssistantFault } from "./domain/assistant/service.ts";
import { Services } from "./compose.ts";
import { loadAccounts, seedDatasets } from "./fixtures/load.ts";
import { AccountDirectory } from "./platform/accounts.ts";
import { apiKeyAuth } from "./platform/auth.ts";
import { Ledger } from "./platform/billing/ledger.ts";
import { SystemClock, type Clock } from "./platform/clock.ts";
import type { AppEnv } from "./platform/env.ts";
import { consoleErrorLogger, errorRenderer, NotFoundError, type ErrorLogger } from "./platform/errors.ts";
import { Pipeline } from "./platform/pipeline.ts";
import { RateLimiter, rateLimit } from "./platform/rate-limit.ts";
import { bodyGuards } from "./platform/body-guards.ts";
import { faults, type FaultOptions } from "./platform/faults.ts";
import { latency, type LatencyOptions } from "./platform/latency.ts";
import { requestLog, type Logger } from "./platform/request-log.ts";
import { requestHeader } from "./platform/request-headers.ts";
import { sequence } from "./platform/sequence.ts";
import { healthResource } from "./resources/health.ts";
import { accountResource } from "./resources/account.ts";
import { askResource, chatsResource } from "./resources/assistant.ts";
import { audienceDatasetsResource, audienceProfilesResource } from "./resources/audiences.ts";
import { customParametersResource } from "./resources/custom-parameters.ts";
import { datasetRunsResource, datasetsResource } from "./resources/datasets.ts";
import { docsResource } from "./resources/docs.ts";
import { mentionsResource } from "./resources/mentions.ts";
import { patternDetectionsResource, patternsResource } from "./resources/patterns.ts";
import { previewsResource } from "./resources/previews.ts";
import { trackingAgentsResource } from "./resources/tracking-agents.ts";
import { mountMcp } from "./mcp/endpoint.ts";
import { DEFAULT_MCP_SETTINGS, type McpSettings } from "./mcp/settings.ts";

export interface AppOptions {
  clock?: Clock;
  /** Requests per second per key (default 5). */
  rateLimitPerSecond?: number;
  /** Clock delay before each pipeline step in ms (default 300; 0 = immediate). */
  stepDelayMs?: number;
  /** Load demo accounts and keys from fixtures/ (default true). */
  accounts?: boolean;
  /** Seed demo datasets with completed runs (default true). */
  seedDatasets?: boolean;
  logger?: ErrorLogger;
  /** pino logger for one line per request (LOG_REQUESTS); none when omitted. */
  requestLogger?: Logger;
  /** Browser origins CORS allows (CORS_ORIGINS; default `*`). Preflights need no key. */
  corsOrigins?: "*" | string[];
  /** Demo setting AGENT_CYCLE_SECONDS: agents cycle every N seconds instead of at their schedule's slots. */
  agentCycleSeconds?: number;
  /** Setting ASSISTANT_FAULT: every ask answers `ai_assistant_unavailable` (503) or `ai_assistant_timeout` (504). */
  assistantFault?: AssistantFault;
  /** MCP endpoint settings (tool prefix, long-poll length, allowed hosts); defaults in mcp/settings.ts. */
  mcp?: Partial<McpSettings>;
  /** Development backend: simulated latency of /v1 answers (LATENCY, PREFER_DELAY). */
  latency?: Omit<LatencyOptions, "seed"> & { seed?: number };
  /** Development backend: injected faults (FAULTS, PREFER_FAULTS; `Prefer: fault=` is honoured by default). */
  faults?: FaultOptions;
}

export function createApp(options: AppOptions = {}) {
  const clock = options.clock ?? new SystemClock();
  const directory = new AccountDirectory();
  const ledger = new Ledger(clock);
  const pipeline = new Pipeline(clock, { stepDelayMs: options.stepDelayMs ?? 300 });
  const services = new Services(clock, directory, ledger, pipeline);
  services.trackingAgents.settings = { cycleSeconds: options.agentCycleSeconds };
  services.assistant.settings = { fault: options.assistantFault };
  const limiter = new RateLimiter(clock, { perSecond: options.rateLimitPerSecond ?? 5 });

  if (options.accounts ?? true) loadAccounts(services);
  if ((options.accounts ?? true) && (options.seedDatasets ?? true)) seedDatasets(services);

  const app = new Hono<AppEnv>();
  const renderError = errorRenderer(options.logger ?? consoleErrorLogger);
  app.onError(renderError);
  // Rendered here rather than thrown: Hono does not route a throw from the
  // not-found handler back through the middleware, so the rate limiter would
  // never stamp its headers on an unknown /v1 route (D-AUTH-ORDER).
  app.notFound((c) => renderError(new NotFoundError("not_found", "No such route."), c));

  // Before auth, so a browser's preflight OPTIONS is answered without a key.
  // Only requests that carry an Origin (browsers) pay for it: CORS headers
  // mean nothing to other clients, and setting them forces Hono to build a
  // full Response for every request (throughput).
  const corsHeaders = cors({
    origin: options.corsOrigins ?? "*",
    allowMethods: ["GET", "POST", "PATCH", "DELETE", "OPTIONS"],
    allowHeaders: [
      "x-api-key",
      "content-type",
      "authorization",
      "mcp-protocol-version",
      "mcp-session-id",
      "last-event-id",
    ],
    exposeHeaders: [
      "RateLimit-Limit",
      "RateLimit-Remaining",
      "RateLimit-Reset",
      "Retry-After",
      "WWW-Authenticate",
      "Mcp-Session-Id",
    ],
    maxAge: 600,
  });
  const corsForBrowsers: MiddlewareHandler<AppEnv> = function corsForBrowsers(c, next) {
    return requestHeader(c, "origin") === undefined ? next() : corsHeaders(c, next);
  };
  app.use("*", options.requestLogger ? sequence(requestLog(options.requestLogger), corsForBrowsers) : corsForBrowsers);
  app.route("/", healthResource());
  app.route("/", docsResource());

  // Body size and media type are judged after the key (D-AUTH-ORDER) and
  // before any handler reads the body (D-BODY-LIMIT, D-CONTENT-TYPE).
  // Simulated latency wraps every /v1 answer, errors included, and nothing
  // else (/health, /openapi.json and the docs answer at once).
  const lat = options.latency;
  if (lat && (lat.spec || lat.preferDelay)) app.use("/v1/*", latency({ seed: 1, ...lat }));
  // Injected faults come after the real key, rate-limit and body checks, so
  // a real 401/429/413/415 still wins; they answer before the handler.
  app.use(
    "/v1/*",
    sequence(
      apiKeyAuth(directory),
      rateLimit(limiter, { beforeHandler: true }),
      bodyGuards(),
      faults({ rateLimitPerSecond: options.rateLimitPerSecond ?? 5, ...options.faults }),
    ),
  );
  app.route("/v1/datasets", datasetsResource(services));
  app.route("/v1/datasets", datasetRunsResource(services));
  app.route("/v1/mentions", mentionsResource(services));
  app.route("/v1/research_previews", previewsResource(services));
  app.route("/v1/pattern_detections", patternDetectionsResource(services));
  app.route("/v1/patterns", patternsResource(services));
  app.route("/v1/custom_parameters", customParametersResource(services));
  app.route("/v1/audience_datasets", audienceDatasetsResource(services));
  app.route("/v1/audience_profiles", audienceProfilesResource(services));
  app.route("/v1/tracking_agents", trackingAgentsResource(services));
  app.route("/v1/ask", askResource(services));
  app.route("/v1/chats", chatsResource(services));
  app.route("/v1", accountResource(services));

  // The MCP endpoint shares the key resolver, the rate-limit buckets and the
  // domain services with REST (mcp/endpoint.ts).
  mountMcp(app, {
    services,
    directory,
    limiter,
    settings: { ...DEFAULT_MCP_SETTINGS, ...options.mcp },
    log: options.logger ?? consoleErrorLogger,
  });

  return { app, clock, services, limiter, directory, ledger, pipeline };
}

export type AppHandle = ReturnType<typeof createApp>;
