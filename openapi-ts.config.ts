// hey-api turns the generated OpenAPI document into TypeScript types, zod v4
// validators and a typed fetch client under generated/client/.
import { defineConfig } from "@hey-api/openapi-ts";

export default defineConfig({
  input: "./generated/openapi.json",
  output: { path: "./generated/client", postProcess: [] },
  plugins: [
    "@hey-api/typescript",
    { name: "zod", compatibilityVersion: 4 },
    "@hey-api/client-fetch",
    { name: "@hey-api/sdk", validator: false },
  ],
});
