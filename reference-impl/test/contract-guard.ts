// Every test request goes through this guard (see helpers.ts): an error
// answer must carry a code the contract documents for that operation, with
// the status the contract gives it. A code thrown with the wrong status, or
// on an operation that does not list it, fails the test that provoked it.
import { documentedErrors } from "../src/platform/error-catalogue.ts";
import { operationOf } from "../src/platform/operations.ts";

export { operationOf };

/** Throw when an error body's code/status pair is not documented for the operation. */
export function assertDocumentedError(method: string, path: string, status: number, json: unknown): void {
  if (status < 400 || !json || typeof json !== "object" || !("error_code" in json)) return;
  const operationId = operationOf(method, path);
  if (!operationId) return; // unknown routes answer the generic not_found
  const code = String((json as { error_code: unknown }).error_code);
  const documented = documentedErrors(operationId).get(code);
  if (documented !== status) {
    throw new Error(
      `${method} ${path} (${operationId}) answered ${status} ${code}; the contract documents ${documented === undefined ? "no such code" : `${code} as ${documented}`} for this operation`,
    );
  }
}
