import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["**/dist/**", "**/node_modules/**", "**/.turbo/**", "data/**", "test-results/**", "fixtures/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { process: "readonly", console: "readonly", URL: "readonly", setTimeout: "readonly", clearTimeout: "readonly" },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["error"] }],
    },
  },
  {
    // The identity module runs on its own in remote mode: the rest of the server sees it only through its
    // barrel, apps/server/src/identity/index.ts (tests may reach its internals and its test helpers).
    files: ["apps/server/src/**/*.ts"],
    ignores: ["apps/server/src/identity/**", "**/__tests__/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\.?/)+identity/(?!index\\.js$)",
              message: "Import the identity module through its barrel, identity/index.js (export what you need there).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["**/bin/**", "scripts/**", "**/bench/**", "**/__tests__/**", "apps/server/src/cli*.ts", "plugins/console/src/**"],
    rules: { "no-console": "off" },
  },
);
