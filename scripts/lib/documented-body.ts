// Is a 4xx answer one of the contract's documented bodies? The 422
// validation body `{detail: [{loc, msg, type}]}`, or the error envelope
// `{status: client_error, error_code, detail, transient}` whose code the
// contract documents under exactly this status (error catalogue derived from
// generated/openapi.json; the three transport codes of D-TRANSPORT-ERRORS are
// answered before routing and checked by their fixed status).
import { errorCatalogue } from "../../reference-impl/src/platform/error-catalogue.ts";

const TRANSPORT: Record<string, number> = {
  request_timeout: 408,
  expectation_failed: 417,
  request_header_fields_too_large: 431,
  bad_request: 400,
};

export function undocumented(status: number, body: unknown): string | undefined {
  if (status < 400 || status >= 500) return undefined;
  if (!body || typeof body !== "object") return "body is not a JSON object";
  const b = body as Record<string, unknown>;
  if (status === 422 && Array.isArray(b.detail) && !("status" in b)) {
    for (const issue of b.detail as Record<string, unknown>[]) {
      if (!Array.isArray(issue?.loc) || !issue.loc.every((x) => typeof x === "string"))
        return "validation issue without string loc[]";
      if (!["body", "query", "path"].includes(issue.loc[0] as string))
        return `validation loc starts with ${String(issue.loc[0])}`;
      if (typeof issue.msg !== "string" || typeof issue.type !== "string") return "validation issue without msg/type";
    }
    return b.detail.length === 0 ? "empty validation detail" : undefined;
  }
  if (b.status !== "client_error") return `status field ${JSON.stringify(b.status)}`;
  if (typeof b.error_code !== "string") return "no error_code";
  if (typeof b.transient !== "boolean") return "no boolean transient";
  const documented = errorCatalogue().get(b.error_code)?.status ?? TRANSPORT[b.error_code];
  if (documented === undefined) return `unknown error_code ${b.error_code}`;
  if (documented !== status) return `${b.error_code} answered ${status}, documented ${documented}`;
  if (status === 402) {
    const d = b.detail as Record<string, unknown> | undefined;
    if (!d || typeof d.required !== "string" || typeof d.available !== "string")
      return "402 detail without required/available";
  } else if (typeof b.detail !== "string") return "detail is not a string";
  if (status === 429 && typeof b.retry_after_seconds !== "number") return "429 without retry_after_seconds";
  return undefined;
}
