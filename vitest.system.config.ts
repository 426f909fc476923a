import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// System tests: the production build run as real server processes (tests/system). Each file
// starts its own servers on free ports with its own databases and directories, yet files run one
// at a time: beside the browser suite, two at a time starved the machine (decision 072).
// `npm run test:system`.
const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };

export default defineConfig({
  resolve: { alias },
  test: {
    environment: "node",
    include: ["tests/system/**/*.test.ts"],
    globalSetup: ["tests/system/global-setup.ts"],
    setupFiles: ["app/lib/zod-locale.ts"],
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    env: { NODE_ENV: "test" },
  },
});
