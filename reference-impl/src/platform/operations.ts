// Which contract operation a request addresses, from the generated OpenAPI
// paths (the same document the error catalogue reads). Mechanisms that act per
// operation before Hono has routed the request (injected faults) use it.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

interface Route {
  method: string;
  pattern: RegExp;
  params: number;
  operationId: string;
}

const doc = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../../generated/openapi.json", import.meta.url)), "utf8"),
) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

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

/** The operationId of `method path` (query ignored), or undefined for a route the contract does not have. */
export function operationOf(method: string, path: string): string | undefined {
  const bare = path.split("?")[0]!;
  const m = method.toUpperCase();
  return routes.find((r) => r.method === m && r.pattern.test(bare))?.operationId;
}
