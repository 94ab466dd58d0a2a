// Serve an app on a real socket with the timeouts, transport-error envelopes
// and logging `npm start` uses. Scripts (fuzz, soak, concurrency) and the
// browser test start the same server through this, on a free port.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { createApp, type AppHandle } from "./app.ts";
import type { ServerConfig } from "./config.ts";
import { createLogger, type Logger } from "./platform/request-log.ts";
import { installTransportErrors } from "./platform/transport-errors.ts";

export interface RunningServer {
  handle: AppHandle;
  server: Server;
  url: string;
  log: Logger;
  close(): Promise<void>;
}

/** Listen with `config`; rejects with a one-line message when the port is taken. */
export function startServer(config: ServerConfig, log: Logger = createLogger({ level: config.logLevel })): Promise<RunningServer> {
  const handle = createApp({
    stepDelayMs: config.stepDelayMs,
    rateLimitPerSecond: config.rateLimitPerSecond,
    agentCycleSeconds: config.agentCycleSeconds,
    assistantFault: config.assistantFault,
    mcp: { toolPrefix: config.mcpToolPrefix, longPollMs: config.mcpLongPollMs, allowedHosts: config.mcpAllowedHosts },
    corsOrigins: config.corsOrigins,
    latency: { spec: config.latency, preferDelay: config.preferDelay, seed: config.seed },
    faults: { rates: config.faults, preferFaults: config.preferFaults, timeoutMs: config.faultTimeoutMs, seed: config.seed + 1 },
    requestLogger: config.logRequests ? log : undefined,
    logger: (entry) => log.error(entry, String(entry.msg ?? "error")),
  });
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: handle.app.fetch,
        hostname: config.host,
        port: config.port,
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
          handle,
          server: server as Server,
          url: `http://${host}:${info.port}`,
          log,
          close: () =>
            new Promise<void>((done) => {
              (server as Server).closeAllConnections?.();
              server.close(() => done());
            }),
        });
      },
    ) as Server;
    installTransportErrors(server, log);
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") reject(new Error(`PORT ${config.port} is already in use on ${config.host}; stop the other server or set PORT to a free port.`));
      else if (error.code === "EACCES") reject(new Error(`PORT ${config.port} on ${config.host} needs privileges; use a port above 1023.`));
      else if (error.code === "EADDRNOTAVAIL") reject(new Error(`HOST ${config.host} is not an address of this machine.`));
      else reject(new Error(`cannot listen on ${config.host}:${config.port}: ${error.message}`));
    });
  });
}
