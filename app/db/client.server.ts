// One schema, two drivers: embedded PGlite by default, node-postgres when DATABASE_URL is set.
// The instance lives on globalThis so dev reloads and the server bundle share it.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

type Holder = { db: Db; close: () => Promise<void>; driver: "pglite" | "pg" };
const g = globalThis as unknown as { __rtDb?: Holder };

export type DbOptions = { url?: string; dataDir?: string; poolMax?: number };

export const MIGRATIONS_DIR = path.resolve(process.env.MIGRATIONS_DIR ?? path.join(process.cwd(), "drizzle"));

export async function openPglite(dataDir?: string, loadDataDir?: Blob) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { unaccent } = await import("@electric-sql/pglite/contrib/unaccent");
  if (dataDir) mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  return PGlite.create({ dataDir, loadDataDir, extensions: { pg_trgm, unaccent } });
}

export async function createDatabase(options: DbOptions): Promise<Holder> {
  if (options.url) {
    const { Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const pool = new Pool({ connectionString: options.url, max: options.poolMax ?? 10 });
    // An idle client losing its connection (server restart) must not crash the process.
    pool.on("error", () => {});
    return { db: drizzle(pool, { schema }) as unknown as Db, close: () => pool.end(), driver: "pg" };
  }
  const client = await openPglite(options.dataDir ? path.join(options.dataDir, "pglite") : undefined);
  const { drizzle } = await import("drizzle-orm/pglite");
  return { db: drizzle(client, { schema }) as unknown as Db, close: () => client.close(), driver: "pglite" };
}

export async function migrateDatabase(db: Db, driver: Holder["driver"]) {
  if (driver === "pg") {
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    // Several instances may start at once: serialise migrations with an advisory lock.
    await db.execute("select pg_advisory_lock(726347)");
    try {
      await migrate(db as never, { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await db.execute("select pg_advisory_unlock(726347)");
    }
  } else {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(db as never, { migrationsFolder: MIGRATIONS_DIR });
  }
}

/** Opens (and migrates) the process-wide database. */
export async function initDatabase(options: DbOptions & { migrate?: boolean }) {
  if (g.__rtDb) return g.__rtDb;
  const holder = await createDatabase(options);
  if (options.migrate !== false) await migrateDatabase(holder.db, holder.driver);
  g.__rtDb = holder;
  return holder;
}

/** Installs an already-open database as the process-wide one (tests). */
export function setDatabase(holder: Holder | undefined) {
  g.__rtDb = holder;
}

export function getDatabase(): Holder {
  if (!g.__rtDb) throw new Error("Database not initialised: call initDatabase() first");
  return g.__rtDb;
}

export async function closeDatabase() {
  const holder = g.__rtDb;
  g.__rtDb = undefined;
  await holder?.close();
}

/** The process-wide database. A proxy so that modules can import it before it is opened. */
export const db: Db = new Proxy({} as Db, {
  get(_target, prop) {
    const real = getDatabase().db as unknown as Record<PropertyKey, unknown>;
    const value = real[prop];
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(real) : value;
  },
});

export { schema };
