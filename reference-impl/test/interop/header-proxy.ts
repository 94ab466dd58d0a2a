// A tiny HTTP proxy for interop tools that cannot send headers (the official
// MCP conformance runner): it forwards every request to the real server
// unchanged, Host and Origin included (the DNS rebinding scenario sets them),
// and adds the configured headers (the demo `x-api-key`). The server itself
// has no bypass; the proxy is a client with a key, like any other.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface HeaderProxy {
  url: string;
  close(): Promise<void>;
}

export function startHeaderProxy(target: string, headers: Record<string, string>): Promise<HeaderProxy> {
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const upstream = request(
      {
        hostname: to.hostname,
        port: to.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, ...headers },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
