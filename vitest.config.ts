// One vitest run covers the three parts of the kit; each part keeps its tests
// beside its code. Property tests print their fast-check seed on failure.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "reference-impl/test/**/*.test.ts", "conformance/test/**/*.test.ts"],
    exclude: ["node_modules/**", "tmp/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
  },
});
