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
    // `...(x === undefined ? {} : { key: x })` is written `...definedKeys({ key: x })` (@ovation/core/contracts),
    // one call for several keys. Spreads that build the value (`{ body: JSON.stringify(body) }`) or drop every
    // falsy value (`x ? { x } : {}`) mean something else and are left alone.
    files: ["**/*.ts", "**/*.tsx"],
    ignores: ["**/__tests__/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...[
          "[test.operator='==='][consequent.properties.length=0][alternate.properties.length=1][alternate.properties.0.value.type=/^(Identifier|MemberExpression)$/]",
          "[test.operator='!=='][alternate.properties.length=0][consequent.properties.length=1][consequent.properties.0.value.type=/^(Identifier|MemberExpression)$/]",
        ].map((branches) => ({
          selector: `SpreadElement > ConditionalExpression[test.right.type='Identifier'][test.right.name='undefined']${branches}`,
          message: "Use definedKeys({ key: value }) (@ovation/core/contracts) instead of a conditional spread that drops an undefined value.",
        })),
      ],
    },
  },
  {
    files: ["**/bin/**", "scripts/**", "**/bench/**", "**/__tests__/**", "apps/server/src/cli*.ts", "plugins/console/src/**"],
    rules: { "no-console": "off" },
  },
);
