// What a request body must be before anything reads it: at most 1 MiB
// (D-BODY-LIMIT, 413) and declared as JSON when it is not empty
// (D-CONTENT-TYPE, 415). The size is judged from Content-Length when the
// client sends one, so an oversized upload is refused without reading a byte;
// a chunked body is counted while it streams (hono's bodyLimit) and dropped as
// soon as it passes the limit. A body the client stops sending half-way is a
// 400 `bad_request`, never a 500 with a stack in the log.
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "./errors.ts";
import type { AppEnv } from "./env.ts";
import { nodeBindings, requestHeader } from "./request-headers.ts";

/** The contract's body limit (D-BODY-LIMIT). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** `application/json` or `application/<anything>+json`, with optional parameters. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const essence = contentType.split(";")[0]!.trim().toLowerCase();
  return essence === "application/json" || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(essence);
}

/** The error a body the client abandoned half-way turns into. */
export class BodyAbortedError extends ApiError {
  constructor() {
    super("bad_request", "The request body ended before its declared length; the client went away.");
    this.name = "BodyAbortedError";
  }
}

function tooLarge(maxBytes: number): never {
  throw new ApiError("payload_too_large", `Request body exceeds ${maxBytes} bytes.`);
}

export function bodyGuards(maxBytes = MAX_BODY_BYTES): MiddlewareHandler<AppEnv> {
  const streamingLimit = bodyLimit({ maxSize: maxBytes, onError: () => tooLarge(maxBytes) });
  return async function guardBody(c, next) {
    // Most requests (every GET) carry neither header: node's parser has them
    // in `incoming.headers` exactly when the raw request does, so one look
    // there skips three Headers reads (throughput).
    const incoming = nodeBindings(c).incoming;
    if (
      incoming &&
      incoming.headers["content-length"] === undefined &&
      incoming.headers["transfer-encoding"] === undefined
    )
      return next();
    const declared = requestHeader(c, "content-length");
    const chunked = requestHeader(c, "transfer-encoding") !== undefined;
    if (!chunked && declared !== undefined && Number(declared) > maxBytes) tooLarge(maxBytes);
    const hasBody = chunked || (declared !== undefined && declared.trim() !== "0");
    if (hasBody && !isJsonMediaType(requestHeader(c, "content-type"))) {
      throw new ApiError("unsupported_media_type", "Send Content-Type: application/json with a request body.");
    }
    if (chunked) {
      // bodyLimit buffers a streamed body (at most maxBytes) and hands it on;
      // a read that fails here means the client stopped sending.
      let passed = false;
      try {
        await streamingLimit(c, async () => {
          passed = true;
        });
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw new BodyAbortedError();
      }
      if (!passed) return;
    }
    await next();
  };
}
