import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

import { CHROMIUM_CANDIDATES } from "./scripts/chromium-candidates";
import { E2E_ADMIN, E2E_SEED } from "./tests/e2e/fixtures";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const chromium = process.env.CHROMIUM_PATH ?? CHROMIUM_CANDIDATES.find((p) => existsSync(p));
// A fresh embedded database for each run (one per server, below it).
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), "rt-e2e-"));
process.env.E2E_DATA_DIR = dataDir;

// The specs run on three servers side by side (they wait far more than they compute), each with
// its own database and one browser at a time (the specs of one server share its demo members, in
// order); E2E_SERVERS=1 runs them all on one. Each spec goes to the server with the least work so
// far, longest first, by its measured seconds (decision 072); a spec missing from the table counts
// as a long one until measured.
const SERVERS = Math.max(1, Number(process.env.E2E_SERVERS ?? 3) || 3);
const SPEC_SECONDS: Record<string, number> = {
  "mandate-form.spec.ts": 185,
  "collaboration.spec.ts": 152,
  "narrow-screens.spec.ts": 150,
  "public-site.spec.ts": 150,
  "member-space.spec.ts": 144,
  "due-diligence.spec.ts": 132,
  "mandates.spec.ts": 110,
  "settings.spec.ts": 109,
  "onboarding.spec.ts": 98,
  "admin.spec.ts": 95,
  "profile.spec.ts": 90,
  "auth.spec.ts": 67,
  "participants.spec.ts": 47,
  "ratings.spec.ts": 41,
  "messages.spec.ts": 41,
  "notifications.spec.ts": 38,
  "mediation.spec.ts": 37,
  "app-shell.spec.ts": 31,
  "html-validity.spec.ts": 28,
  "xss.spec.ts": 20,
  "pwa.spec.ts": 8,
  "platform.spec.ts": 6,
};
const UNMEASURED_SPEC_SECONDS = 60;
const specFiles = readdirSync(path.join(import.meta.dirname, "tests/e2e")).filter((f) => f.endsWith(".spec.ts")).sort();
const specsByServer: string[][] = Array.from({ length: SERVERS }, () => []);
const load = Array.from({ length: SERVERS }, () => 0);
// Specs that must not share a server: the first needs the seeded demo file open, the others conclude it.
const APART: Array<[string, string]> = [
  ["due-diligence.spec.ts", "collaboration.spec.ts"],
  ["due-diligence.spec.ts", "ratings.spec.ts"],
];
const clashes = (spec: string, server: string[]) =>
  APART.some(([a, b]) => (a === spec && server.includes(b)) || (b === spec && server.includes(a)));
for (const spec of [...specFiles].sort((a, b) => (SPEC_SECONDS[b] ?? UNMEASURED_SPEC_SECONDS) - (SPEC_SECONDS[a] ?? UNMEASURED_SPEC_SECONDS))) {
  const allowed = load.map((_, i) => i).filter((i) => SERVERS === 1 || !clashes(spec, specsByServer[i]));
  const lightest = allowed.reduce((best, i) => (load[i] < load[best] ? i : best), allowed[0] ?? 0);
  specsByServer[lightest].push(spec);
  load[lightest] += SPEC_SECONDS[spec] ?? UNMEASURED_SPEC_SECONDS;
}
const servers = Array.from({ length: SERVERS }, (_, i) => ({
  name: `serveur-${i + 1}`,
  port: PORT + i,
  baseURL: `http://localhost:${PORT + i}`,
  dataDir: path.join(dataDir, `serveur-${i + 1}`),
}));

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: SERVERS,
  // No retries, in CI too: a flaky test must be seen and fixed, not retried into green.
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  // Long journeys (joining, two members connecting) take 30–60 s on 2 busy cores, three times that
  // on a slow day of a shared host: the limit catches a hang, not a slow machine.
  timeout: 150_000,
  // A sign-in on a loaded 2-core machine (argon2, the first member page on the embedded database) can pass 10 s.
  expect: { timeout: 20_000 },
  use: {
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    // A trace records every test to keep the failing ones: about half the suite's CPU. CI's clone
    // is thrown away with its traces, so only local runs record them (E2E_TRACE=1 forces it).
    trace: process.env.CI && process.env.E2E_TRACE !== "1" ? "off" : "retain-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  projects: servers.map((server, i) => ({
    name: server.name,
    workers: 1,
    testMatch: specsByServer[i],
    use: { ...devices["Desktop Chrome"], baseURL: server.baseURL },
  })),
  // Started one after the other: the first makes the build when it is stale and seeds one
  // template database, the others copy it (scripts/e2e-server.ts).
  webServer: servers.map((server) => ({
    // The production build, as users get it, with French demo members for the public directory
    // (seed 7: validated members with random names; demo logins such as premium+s7@demo…).
    command: `node node_modules/tsx/dist/cli.mjs scripts/e2e-server.ts ${path.join(dataDir, "modele")} ${E2E_ADMIN.email} ${E2E_ADMIN.password} ${E2E_SEED.members} ${E2E_SEED.seed}`,
    url: `${server.baseURL}/healthz`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(server.port),
      HOST: "127.0.0.1",
      APP_URL: server.baseURL,
      DATA_DIR: server.dataDir,
      LOG_LEVEL: "warn",
      MAIL_DISPATCH_INTERVAL_MS: "200",
      // Every browser of the suite comes from 127.0.0.1: scale the per-IP limits for this run.
      RATE_LIMIT_SCALE: "50",
      SMTP_URL: "",
      DATABASE_URL: "",
    },
  })),
});
