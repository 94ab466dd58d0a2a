// Every failure the API answers is an ApiError (or a ValidationFailed for the
// 422 request-shape body). Handlers and domain services throw; one onError
// renders the contract's bodies, so the envelope is written in exactly one
// place, and each code's status comes from the error catalogue.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { CommonValidationIssue } from "../../../generated/client/types.gen.ts";
import { errorSpec, type ErrorCode } from "./error-catalogue.ts";

export type { ErrorCode };

export interface ApiErrorOptions {
  /** Extra top-level body fields (e.g. `retry_after_seconds`). */
  extra?: Record<string, unknown>;
  /** Headers the error response carries (e.g. `Retry-After`). */
  headers?: Record<string, string>;
}

/**
 * A contract error. The HTTP status and `transient` come from the error
 * catalogue (derived from the contract), never from the throw site.
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly transient: boolean;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(
    readonly errorCode: ErrorCode,
    readonly detail: unknown,
    options: ApiErrorOptions = {},
  ) {
    super(typeof detail === "string" ? detail : errorCode);
    this.name = "ApiError";
    const spec = errorSpec(errorCode);
    this.status = spec.status as ContentfulStatusCode;
    this.transient = spec.transient;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }
}

export class NotFoundError extends ApiError {
  constructor(code: ErrorCode = "not_found", detail = "Not found.") {
    super(code, detail);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(detail = "Missing or invalid API key.", headers: Record<string, string> = {}) {
    super("unauthorized", detail, { headers });
  }
}

export class BadRequestError extends ApiError {
  constructor(code: ErrorCode, detail: string) {
    super(code, detail);
  }
}

export class ConflictError extends ApiError {
  constructor(code: ErrorCode, detail: string) {
    super(code, detail);
  }
}

export class InvalidCursorError extends ApiError {
  constructor(detail = "The cursor is malformed or belongs to another sort or filter.") {
    super("invalid_cursor", detail);
  }
}

export interface ShortfallDetail {
  message: string;
  required: string;
  available: string;
  top_up_url: string;
}

export class InsufficientCreditsError extends ApiError {
  constructor(code: ErrorCode, detail: ShortfallDetail) {
    super(code, detail);
  }
}

export class TooManyRequestsError extends ApiError {
  constructor(retryAfterSeconds: number, headers: Record<string, string>) {
    super("too_many_requests", "Rate limit exceeded; retry after the indicated wait.", {
      extra: { retry_after_seconds: retryAfterSeconds },
      headers: { ...headers, "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    });
  }
}

/** 422 with the validation body `{detail: [{loc, msg, type}]}` and no envelope. */
export class ValidationFailed extends Error {
  constructor(readonly issues: CommonValidationIssue[]) {
    super("validation failed");
    this.name = "ValidationFailed";
  }
}

export function statusWord(status: number): string {
  if (status < 200) return "info";
  if (status < 300) return "success";
  if (status < 400) return "redirect";
  if (status < 500) return "client_error";
  return "server_error";
}

export type ErrorLogger = (entry: Record<string, unknown>) => void;

export const consoleErrorLogger: ErrorLogger = (entry) => {
  console.error(JSON.stringify(entry));
};

/**
 * Seconds a transient 5xx asks the client to wait (D-RETRY-5XX): a passing
 * fault is worth retrying at once, the assistant's outage and timeout after a
 * few seconds.
 */
export const RETRY_AFTER_5XX: Readonly<Record<number, number>> = { 500: 1, 503: 5, 504: 5 };

function retryAfterFor(status: number): string {
  return String(RETRY_AFTER_5XX[status] ?? 1);
}

/** Build the app's single onError handler. */
export function errorRenderer(log: ErrorLogger) {
  return function renderError(err: Error, c: Context): Response {
    if (err instanceof ValidationFailed) {
      return c.json({ detail: err.issues }, 422);
    }
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      if (err.status >= 500 && err.transient && !("Retry-After" in err.headers))
        c.header("Retry-After", retryAfterFor(err.status));
      return c.json(
        {
          status: statusWord(err.status),
          error_code: err.errorCode,
          detail: err.detail,
          transient: err.transient,
          ...err.extra,
        },
        err.status,
      );
    }
    // Unexpected fault: log method, path and the stack, never headers or bodies
    // (they carry the API key and user data).
    log({
      level: "error",
      msg: "unhandled error",
      method: c.req.method,
      path: c.req.path,
      error: err?.name,
      message: err?.message,
      stack: err?.stack,
    });
    c.header("Retry-After", retryAfterFor(500));
    return c.json(
      {
        status: "server_error",
        error_code: "internal_server_error",
        detail: "An unexpected error occurred; retry later.",
        transient: true,
      },
      500,
    );
  };
}
