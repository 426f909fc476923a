import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import boundaries from "eslint-plugin-boundaries";
import tseslint from "typescript-eslint";
import { boundariesConfig } from "./eslint/boundaries.js";

export default tseslint.config(
  { ignores: ["build/**", "node_modules/**", ".react-router/**", "data/**", "test-results/**", "playwright-report/**", "drizzle/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["warn", "error", "log"] }],
    },
  },
  {
    // Test helpers named use* are vitest fixtures, not React hooks.
    files: ["tests/**/*.ts", "**/*.test.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    files: ["app/**/*.tsx", "app/**/*.ts"],
    ignores: ["app/**/*.server.ts", "app/**/*.server.tsx", "app/**/*.test.ts"],
    rules: { "no-console": "error" },
  },
  {
    // Features speak the domain: an expected failure is an AppError, mapped to HTTP at the route
    // edge; only their UI components use the router.
    files: ["app/features/**/*.ts", "app/features/**/*.tsx"],
    ignores: ["app/features/*/components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "react-router", message: "Throw an AppError (~/lib/errors/app-error); the route maps it to HTTP." },
            { name: "@react-router/node", message: "HTTP belongs to the routes." },
          ],
        },
      ],
    },
  },
  {
    // The import resolver is CommonJS, as eslint-module-utils loads it with require().
    files: ["eslint/**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  ...boundariesConfig(boundaries),
);
