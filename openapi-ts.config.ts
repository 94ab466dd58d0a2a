// hey-api turns the generated OpenAPI document into TypeScript types, zod v4
// validators and a typed fetch client under generated/client/.
import { defineConfig } from "@hey-api/openapi-ts";

type Schema = Record<string, unknown>;

/**
 * TypeSpec writes a map (`Record<T>`) as `unevaluatedProperties: T` in OpenAPI
 * 3.1, which hey-api does not read, so maps would lose their value type. For
 * the generator only, the same constraint is restated as
 * `additionalProperties: T` (equivalent here: these schemas have no
 * composition keywords). The published document is left as TypeSpec wrote it.
 */
function restateMaps(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(restateMaps);
  if (!node || typeof node !== "object") return;
  const schema = node as Schema;
  const value = schema.unevaluatedProperties;
  if (value && typeof value === "object" && !("not" in (value as Schema)) && !("additionalProperties" in schema)) {
    schema.additionalProperties = value;
    delete schema.unevaluatedProperties;
  }
  Object.values(schema).forEach(restateMaps);
}

export default defineConfig({
  input: "./generated/openapi.json",
  output: { path: "./generated/client", postProcess: [] },
  parser: { patch: { input: (spec) => restateMaps(spec) } },
  plugins: [
    "@hey-api/typescript",
    { name: "zod", compatibilityVersion: 4 },
    // No base URL baked in (Decision D-SERVERS): callers configure it with
    // `client.setConfig({ baseUrl })` or `createClient(createConfig({ baseUrl }))`.
    { name: "@hey-api/client-fetch", baseUrl: false },
    { name: "@hey-api/sdk", validator: false },
  ],
});
