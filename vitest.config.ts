import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `date-fns/locale` is the index of its 97 locales; the app takes only `fr` from it, so the tests
// load that one module (a quarter of a second less for each test file; decision 038).
const alias = [
  { find: "~", replacement: fileURLToPath(new URL("./app", import.meta.url)) },
  { find: /^date-fns\/locale$/, replacement: "date-fns/locale/fr" },
];
const shared = {
  environment: "node" as const,
  globalSetup: ["tests/integration/global-setup.ts"],
  setupFiles: ["app/lib/zod-locale.ts"],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

// Unit and integration tests run on embedded PGlite; when TEST_DATABASE_URL is set the
// integration tests run a second time against that real PostgreSQL server.
export default defineConfig({
  resolve: { alias },
  test: {
    pool: "forks",
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          ...shared,
          name: "pglite",
          include: ["app/**/*.test.ts", "app/**/*.test.tsx", "scripts/**/*.test.ts", "tests/integration/**/*.test.ts"],
          env: { NODE_ENV: "test", TEST_DB_DRIVER: "pglite" },
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              resolve: { alias },
              test: {
                ...shared,
                name: "postgres",
                include: ["tests/integration/**/*.test.ts"],
                env: { NODE_ENV: "test", TEST_DB_DRIVER: "pg" },
              },
            },
          ]
        : []),
    ],
  },
});
