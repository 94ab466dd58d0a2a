// What happens to a request body the answer left unread (a 413 judged from
// Content-Length, a 401, 415 or 429 on a request with a body, a chunked body
// cut at the limit). Closing the connection under a client that is still
// sending resets it: the client's writes fail with EPIPE and the answer in
// its receive buffer is lost. So the connection stays open and the rest of
// the body is read and discarded (Node's own handling once the adapter's
// 500 ms drain is off, see server.ts), and the client reads the answer
// whenever it looks. A body that keeps coming long past the limit is cut:
// the socket is half-closed (the answer went out long before) and destroyed
// a moment later. Node's request timeout still bounds a client that trickles.
import type { IncomingMessage, Server, ServerResponse } from "node:http";

/** Bytes discarded after the answer before the connection is cut. */
export const DISCARD_LIMIT_BYTES = 64 * 1024 * 1024;

export interface DiscardOptions {
  limitBytes?: number;
  /** How long a half-closed socket may linger before it is destroyed. */
  graceMs?: number;
  /** How often the discarded byte count is looked at. */
  pollMs?: number;
}

/** Whether the request announced a body (most requests do not, and cost nothing here). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

function discardRest(req: IncomingMessage, options: Required<DiscardOptions>): void {
  if (req.complete) return;
  const socket = req.socket;
  // A body a reader stopped half-way (the chunked limit) is still attached to
  // that reader; detach it so the rest flows into nothing.
  if (req.listenerCount("data") > 0 || req.isPaused()) {
    req.removeAllListeners("data");
    req.resume();
  }
  const start = socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed) return clearInterval(timer);
    if (socket.bytesRead - start > options.limitBytes) {
      clearInterval(timer);
      socket.end();
      setTimeout(() => socket.destroy(), options.graceMs).unref();
    }
  }, options.pollMs);
  timer.unref();
}

export function discardRefusedBodies(server: Server, options: DiscardOptions = {}): void {
  const o = { limitBytes: DISCARD_LIMIT_BYTES, graceMs: 1000, pollMs: 100, ...options };
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (hasBody(req)) res.once("finish", () => discardRest(req, o));
  });
}
