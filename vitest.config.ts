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

// Files that replace a module with vi.mock need a module graph of their own; every other file
// shares its worker's module graph with the files run before it there, instead of importing the
// application again for each file (decision 038).
const ownModuleGraph = ["tests/integration/canary.test.ts"];

// Two projects per driver: the shared-graph files and the isolated ones. `--project 'pglite*'`
// or `--project 'postgres*'` selects a driver's whole set.
function driverProjects(name: string, include: string[], env: Record<string, string>) {
  return [
    { resolve: { alias }, test: { ...shared, name, include, exclude: ownModuleGraph, isolate: false, env } },
    { resolve: { alias }, test: { ...shared, name: `${name}-isolated`, include: ownModuleGraph, env } },
  ];
}

// Unit and integration tests run on embedded PGlite; when TEST_DATABASE_URL is set the
// integration tests run a second time against that real PostgreSQL server.
export default defineConfig({
  resolve: { alias },
  test: {
    pool: "forks",
    maxWorkers: 2,
    projects: [
      ...driverProjects(
        "pglite",
        ["app/**/*.test.ts", "app/**/*.test.tsx", "scripts/**/*.test.ts", "tests/integration/**/*.test.ts"],
        { NODE_ENV: "test", TEST_DB_DRIVER: "pglite" },
      ),
      ...(process.env.TEST_DATABASE_URL
        ? driverProjects("postgres", ["tests/integration/**/*.test.ts"], { NODE_ENV: "test", TEST_DB_DRIVER: "pg" })
        : []),
    ],
  },
});
