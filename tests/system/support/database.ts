// A throwaway database for one system test: a PostgreSQL database with a random name on
// TEST_DATABASE_URL's server when it is set, else a fresh PGlite data dir (one process at a time).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/** tsx's command line under this Node, as the npm scripts run it (npx would look it up first). */
export const TSX = path.resolve("node_modules/tsx/dist/cli.mjs");

export const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

export type SystemDatabase = {
  driver: "pg" | "pglite";
  /** DATABASE_URL for the servers (PostgreSQL only). */
  url?: string;
  /** DATA_DIR for the servers (secret key, uploads, PGlite data). */
  dataDir: string;
  /** Env for startServer / scripts. */
  env: Record<string, string>;
  drop: () => Promise<void>;
};

const SECRET = "system-tests-secret-0123456789abcdef0123456789";

export async function createSystemDatabase(driver: "pg" | "pglite" = postgresUrl ? "pg" : "pglite"): Promise<SystemDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "rt-system-"));
  const base = { DATA_DIR: dataDir, BETTER_AUTH_SECRET: SECRET, SMTP_URL: "", STRIPE_SECRET_KEY: "" };
  if (driver === "pglite") {
    return {
      driver,
      dataDir,
      env: { ...base, DATABASE_URL: "" },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  if (!postgresUrl) throw new Error("TEST_DATABASE_URL manquant pour une base PostgreSQL");
  const name = `rt_sys_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    driver,
    url: url.toString(),
    dataDir,
    env: { ...base, DATABASE_URL: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: postgresUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`).finally(() => c.end());
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a project script (seed, admin:create…) against the database, synchronously. */
export function runScript(database: SystemDatabase, args: string[]): string {
  const r = spawnSync(process.execPath, [TSX, ...args], {
    env: { ...process.env, ...database.env, LOG_LEVEL: "warn" },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`${args.join(" ")} a échoué :\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}
