// Per-file fresh, migrated database for integration tests, installed as the process-wide `db`.
import { queryCounter } from "~/lib/request-scope.server";
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { closeDatabase, setDatabase, type Db } from "~/db/client.server";
import * as schema from "~/db/schema";

export const testDriver: "pg" | "pglite" =
  process.env.TEST_DB_DRIVER === "pg" && process.env.TEST_DATABASE_URL ? "pg" : "pglite";

export async function createTestDatabase(): Promise<{ db: Db; close: () => Promise<void>; driver: "pg" | "pglite"; url?: string }> {
  if (testDriver === "pg") {
    const { Client, Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const base = process.env.TEST_DATABASE_URL!;
    const name = `rt_t_${process.pid}_${randomBytes(4).toString("hex")}`;
    const admin = new Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name} template ${process.env.TEST_PG_TEMPLATE}`);
    // A throwaway database needs no commit to wait for its WAL flush (visibility is unchanged);
    // the PostgreSQL files ran half again as long as with it (decision 038).
    await admin.query(`alter database ${name} set synchronous_commit = off`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    const pool = new Pool({ connectionString: url.toString(), max: 5 });
    pool.on("error", () => {});
    const { guardPgPool } = await import("~/db/client.server");
    // As the server's pool: statements with parameters prepared once per connection (decision 026).
    guardPgPool(pool, true);
    return {
      db: drizzle(pool, { schema, logger: queryCounter }) as unknown as Db,
      driver: "pg",
      url: url.toString(),
      close: async () => {
        await pool.end();
        const a = new Client({ connectionString: base });
        await a.connect();
        await a.query(`drop database if exists ${name} with (force)`);
        await a.end();
      },
    };
  }
  const { openPglite } = await import("~/db/client.server");
  const { drizzle } = await import("drizzle-orm/pglite");
  const file = process.env.TEST_PGLITE_TEMPLATE;
  if (!file) throw new Error("TEST_PGLITE_TEMPLATE missing: run through vitest (global setup)");
  const client = await openPglite(undefined, new Blob([readFileSync(file)]));
  return { db: drizzle(client, { schema, logger: queryCounter }) as unknown as Db, driver: "pglite", close: () => client.close() };
}

/** Call at the top of a test file: a fresh database for this file, as the app's `db`. */
export function useTestDatabase() {
  const ref: { db?: Db; driver?: "pg" | "pglite"; url?: string } = {};
  beforeAll(async () => {
    const t = await createTestDatabase();
    ref.db = t.db;
    ref.driver = t.driver;
    ref.url = t.url;
    setDatabase({ db: t.db, driver: t.driver, close: t.close });
  });
  afterAll(async () => {
    await closeDatabase();
  });
  return ref;
}
