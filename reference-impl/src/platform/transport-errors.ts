// Answers Node's HTTP layer gives before the app sees a request (a request
// line or headers over 16 KiB, a malformed request, a client too slow to send
// its request, an unsupported `Expect`). Node would write an empty 400/408/431
// or 417; here they carry the error envelope (D-TRANSPORT-ERRORS), with no
// RateLimit-* headers since no key has been read, and the connection closes.
// Each is logged as one short line, never a stack.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "pino";

interface TransportAnswer {
  status: number;
  reason: string;
  code: string;
  detail: string;
  transient: boolean;
}

/** The envelope Node's error `code` maps to. */
export function transportAnswer(errorCode: string | undefined): TransportAnswer {
  switch (errorCode) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        reason: "Request Header Fields Too Large",
        code: "request_header_fields_too_large",
        detail: "The request line and headers exceed 16 KiB.",
        transient: false,
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
    case "HPE_HEADER_TIMEOUT":
      return {
        status: 408,
        reason: "Request Timeout",
        code: "request_timeout",
        detail: "The request did not arrive within the server's timeout.",
        transient: true,
      };
    default:
      return {
        status: 400,
        reason: "Bad Request",
        code: "bad_request",
        detail: "The request is not valid HTTP/1.1.",
        transient: false,
      };
  }
}

export function envelopeBytes(answer: TransportAnswer): string {
  const body = JSON.stringify({
    status: "client_error",
    error_code: answer.code,
    detail: answer.detail,
    transient: answer.transient,
  });
  return (
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
    "Content-Type: application/json\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Connection: close\r\n\r\n" +
    body
  );
}

export function installTransportErrors(server: Server, log: Logger): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    // A client that hung up has no one to read an envelope. When its request
    // already reached the app, the request log writes the one "request
    // aborted" line; otherwise it is written here.
    const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    const hungUp = error.code === "ECONNRESET" || error.code === "HPE_INVALID_EOF_STATE" || !socket.writable;
    if (hungUp || response?.headersSent) {
      if (!response) log.info({ code: error.code }, "request aborted");
      socket.destroy();
      return;
    }
    const answer = transportAnswer(error.code);
    log.warn({ status: answer.status, code: error.code }, "transport error");
    socket.end(envelopeBytes(answer));
  });

  // With a listener here Node no longer answers a bare 417 itself.
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({
      status: "client_error",
      error_code: "expectation_failed",
      detail: `Expect: ${req.headers.expect ?? ""} is not supported; only 100-continue is.`,
      transient: false,
    });
    log.warn({ status: 417, path: req.url?.split("?")[0] }, "transport error");
    res.writeHead(417, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      connection: "close",
    });
    res.end(body);
  });
}
