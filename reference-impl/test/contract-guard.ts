// Every test request goes through this guard (see helpers.ts): an error
// answer must carry a code the contract documents for that operation, with
// the status the contract gives it. A code thrown with the wrong status, or
// on an operation that does not list it, fails the test that provoked it.
import { readFileSync } from "node:fs";
import { documentedErrors } from "../src/platform/error-catalogue.ts";

const doc = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8")) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

interface Route {
  method: string;
  pattern: RegExp;
  params: number;
  operationId: string;
}

const routes: Route[] = Object.entries(doc.paths)
  .flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => op?.operationId)
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
        params: (path.match(/\{/g) ?? []).length,
        operationId: op.operationId!,
      })),
  )
  // Literal segments win over parameters (`/custom_parameters/preview`).
  .sort((a, b) => a.params - b.params);

export function operationOf(method: string, path: string): string | undefined {
  const bare = path.split("?")[0]!;
  return routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(bare))?.operationId;
}

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
