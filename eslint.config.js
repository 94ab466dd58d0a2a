// ESLint with typescript-eslint's type-aware rules, for the whole repository.
// The rules are the ones a reader of this codebase relies on: no `any` that a
// generated type could replace, no promise left floating (a dropped rejection
// hides a failed request or a lost save), no code that nothing uses, and type
// imports marked as such (they vanish at run time under tsx).
// Formatting is Prettier's job (.prettierrc.json); `npm run fix` runs both.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["node_modules/", "generated/", "releases/", "reports/", "tmp/", ".conformance/", "conformance/contract/"],
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    extends: [js.configs.recommended],
    languageOptions: {
      globals: {
        console: "readonly",
        process: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
      },
    },
  },
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-unreachable": "error",
      "no-useless-catch": "error",
    },
  },
  {
    // Tests decode a body and assert on it in the next line: the assertion is
    // the type check there, so `any` is allowed in test files (and only there).
    files: ["test/**/*.ts", "*/test/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
