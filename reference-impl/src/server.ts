// Serve an app on a real socket with the timeouts, transport-error envelopes
// and logging `npm start` uses. Scripts (fuzz, soak, concurrency) and the
// browser test start the same server through this, on a free port.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import type { AppHandle } from "./app.ts";
import type { ServerConfig } from "./config.ts";
import { createLogger, type Logger } from "./platform/request-log.ts";
import { discardRefusedBodies } from "./platform/refused-bodies.ts";
import { installTransportErrors } from "./platform/transport-errors.ts";
import { Backend } from "./scenarios/backend.ts";

export interface RunningServer {
  /** The app serving now (POST /_reference/reset replaces it: read it again after a reset). */
  readonly handle: AppHandle;
  /** Scenario, reset and --state (scenarios/backend.ts). */
  backend: Backend;
  server: Server;
  url: string;
  log: Logger;
  close(): Promise<void>;
}

/**
 * Listen with `config`; rejects with a one-line message when the port is
 * taken, a fixture folder is wrong or a state file cannot be read.
 */
export function startServer(
  config: ServerConfig,
  log: Logger = createLogger({ level: config.logLevel }),
): Promise<RunningServer> {
  let backend: Backend;
  try {
    backend = createBackend(config, log);
  } catch (error) {
    return Promise.reject(error);
  }
  return listen(config, log, backend).catch((error: unknown) => {
    backend.close();
    throw error;
  });
}

export function createBackend(config: ServerConfig, log: Logger): Backend {
  return new Backend({
    scenario: { scenario: config.scenario, fixturesDir: config.fixturesDir },
    resetKey: config.resetKey,
    stateFile: config.stateFile,
    stateIntervalMs: config.stateIntervalMs,
    log: (line) => log.error(line),
    app: appOptions(config, log),
  });
}

function appOptions(config: ServerConfig, log: Logger) {
  return {
    stepDelayMs: config.stepDelayMs,
    rateLimitPerSecond: config.rateLimitPerSecond,
    agentCycleSeconds: config.agentCycleSeconds,
    assistantFault: config.assistantFault,
    mcp: { toolPrefix: config.mcpToolPrefix, longPollMs: config.mcpLongPollMs, allowedHosts: config.mcpAllowedHosts },
    corsOrigins: config.corsOrigins,
    latency: { spec: config.latency, preferDelay: config.preferDelay, seed: config.seed },
    faults: {
      rates: config.faults,
      preferFaults: config.preferFaults,
      timeoutMs: config.faultTimeoutMs,
      seed: config.seed + 1,
    },
    requestLogger: config.logRequests ? log : undefined,
    logger: (entry: Record<string, unknown>) => log.error(entry, String(entry.msg ?? "error")),
  };
}

/**
 * What the HTTP layer answers on its own, the same wherever the app is served
 * on Node (this server, and a test's or embedder's own `serve`, which must
 * also pass `autoCleanupIncoming: false`): the enveloped transport errors
 * (431, 400, 408, 417) and a refused body that never costs the client its
 * answer.
 */
export function hardenNodeServer(server: Server, log: Logger = createLogger({ level: "silent" })): void {
  installTransportErrors(server, log);
  discardRefusedBodies(server);
}

function listen(config: ServerConfig, log: Logger, backend: Backend): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: backend.fetch,
        hostname: config.host,
        port: config.port,
        // The adapter would drain an unread body for 500 ms and then close
        // under a client still sending it (EPIPE, the answer lost); Node's own
        // handling plus refused-bodies.ts keeps the answer readable.
        autoCleanupIncoming: false,
        serverOptions: {
          headersTimeout: config.headersTimeoutMs,
          requestTimeout: config.requestTimeoutMs,
          keepAliveTimeout: config.keepAliveTimeoutMs,
          // Node checks the two timeouts above on this interval (default 30 s,
          // which would let a trickling client hold a socket twice as long).
          connectionsCheckingInterval: 1000,
        },
      },
      (info: AddressInfo) => {
        const host = config.host.includes(":") ? `[${config.host}]` : config.host;
        resolve({
          get handle() {
            return backend.handle;
          },
          backend,
          server: server as Server,
          url: `http://${host}:${info.port}`,
          log,
          close: () =>
            new Promise<void>((done) => {
              // Saved first (with --state): a clean stop loses nothing.
              backend.close();
              (server as Server).closeAllConnections?.();
              server.close(() => done());
            }),
        });
      },
    ) as Server;
    hardenNodeServer(server, log);
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE")
        reject(
          new Error(
            `PORT ${config.port} is already in use on ${config.host}; stop the other server or set PORT to a free port.`,
          ),
        );
      else if (error.code === "EACCES")
        reject(new Error(`PORT ${config.port} on ${config.host} needs privileges; use a port above 1023.`));
      else if (error.code === "EADDRNOTAVAIL")
        reject(new Error(`HOST ${config.host} is not an address of this machine.`));
      else reject(new Error(`cannot listen on ${config.host}:${config.port}: ${error.message}`));
    });
  });
}
